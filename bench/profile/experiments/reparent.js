// @ts-check
/**
 * What re-parenting costs, per runtime: Express's app.handle gives every request's IncomingMessage and ServerResponse
 * a new prototype (Object.setPrototypeOf(req, app.request), the same for res), then Express and its router write and
 * read properties on them. This times that per request, against the same work without the re-parenting, on whichever
 * node runs it:
 *
 *   node bench/profile/experiments/reparent.js                    # the harness's node
 *   .runtimes/node-23/node_modules/.bin/node bench/profile/experiments/reparent.js
 *   .runtimes/node-24/node_modules/.bin/node bench/profile/experiments/reparent.js
 *
 * (npm run bench -- --runtime node@23,node@24 installs those runtimes.) Rounds alternate the two variants, so a busy
 * machine slows both alike; the medians and their ratio are what to compare between runtimes. V8 flags go before the
 * script, e.g. --no-move-prototype-transitions-first on node 24 or --move-prototype-transitions-first on node 23; with
 * --allow-natives-syntax it also says whether two re-parented requests share one hidden class (map).
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { runInThisContext } from 'node:vm';

import express from 'express';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '15' }, iterations: { type: 'string', default: '100000' } },
});
const ROUNDS = Number(values.rounds);
const ITERATIONS = Number(values.iterations);
const WARMUP_ROUNDS = 3;
const NS_PER_MS = 1e6;

const app = express();
const socket = new Socket();
const noop = () => {};
let sink = 0;

/**
 * One request's objects and the property traffic Express and its router put on them.
 * @param {boolean} reparent
 * @returns {{ req: IncomingMessage, res: ServerResponse }}
 */
function request(reparent) {
  const req = new IncomingMessage(socket);
  req.method = 'GET';
  req.url = '/hello';
  req.headers = { host: '127.0.0.1', accept: '*/*' };
  const res = new ServerResponse(req);
  // app.handle
  Object.assign(req, { res });
  Object.assign(res, { req });
  if (reparent) {
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
  }
  /** @type {any} */ (res).locals = Object.create(null);
  // router.handle and its layers
  const r = /** @type {any} */ (req);
  r.next = noop;
  r.baseUrl = '';
  r.originalUrl = r.originalUrl || req.url;
  r.params = {};
  r.route = undefined;
  // a handler reading the request and answering through the response's prototype chain
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  sink += (req.method?.length ?? 0) + (req.url?.length ?? 0) + String(res.getHeader('content-type')).length;
  sink += r.params && r.baseUrl === '' && r.res === res ? 1 : 0;
  return { req, res };
}

/** @param {boolean} reparent @returns {number} ns per request */
function timed(reparent) {
  const start = performance.now();
  for (let i = 0; i < ITERATIONS; i += 1) request(reparent);
  return ((performance.now() - start) * NS_PER_MS) / ITERATIONS;
}

/** @param {number[]} values */
const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** V8's %HaveSameMap, which parses only under --allow-natives-syntax: null without it. */
function sameMapCheck() {
  try {
    return /** @type {(a: object, b: object) => boolean} */ (runInThisContext('(a, b) => %HaveSameMap(a, b)'));
  } catch {
    return null;
  }
}

/** Two requests as Express leaves them: do they share a map? @returns {boolean | null} */
function reparentedRequestsShareMap() {
  const haveSameMap = sameMapCheck();
  if (!haveSameMap) return null;
  const first = request(true);
  const second = request(true);
  return haveSameMap(first.req, second.req) && haveSameMap(first.res, second.res);
}

/** @type {number[]} */
const plain = [];
/** @type {number[]} */
const reparented = [];
for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round += 1) {
  // alternate which goes first, so neither always runs on a warmer or quieter machine
  const order = round % 2 ? [true, false] : [false, true];
  for (const reparent of order) {
    const ns = timed(reparent);
    if (round >= WARMUP_ROUNDS) (reparent ? reparented : plain).push(ns);
  }
}
const a = median(plain);
const b = median(reparented);
const result = {
  node: process.version,
  v8: process.versions.v8,
  v8Flags: process.execArgv.join(' '),
  reparentedRequestsShareMap: reparentedRequestsShareMap(),
  rounds: ROUNDS,
  iterations: ITERATIONS,
  plainNsPerRequest: Number(a.toFixed(1)),
  reparentedNsPerRequest: Number(b.toFixed(1)),
  reparentingCostNs: Number((b - a).toFixed(1)),
  ratio: Number((b / a).toFixed(2)),
  sink: sink % 7,
};
console.log(JSON.stringify(result));
