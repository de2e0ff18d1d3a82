// @ts-check
// wrk, spawned per run: the cheapest generator per request here, so the one least likely to be the bottleneck.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { lastLine, requireBinary, runGenerator, wholeSeconds } from './generator-process.js';
import { expectedStatuses } from './statuses.js';
import { parseWrkOutput } from './wrk-output.js';
import { bodyBytes, isFormOfBytes } from '../../model/payloads.js';
import { hasUniqueValues, runTag } from '../unique-values.js';

/** @typedef {import('./registry.js').Driver} Driver */

const SCRIPT = fileURLToPath(new URL('./wrk.lua', import.meta.url));
/** Longer bodies go to wrk.lua in a file: one environment string may hold at most 128 KiB. A form of bytes goes in a
 * file too, since the environment holds text. */
const ENV_BODY_LIMIT = 32 * 1024;
/** One thread: the generator should use one CPU, the server the other. */
const THREADS = 1;
/**
 * wrk counts an answer slower than its timeout as a timeout and leaves it out of its latencies: a run's own length is
 * the shortest it is given (a 20 MiB upload may take seconds), and wrk's default below that.
 */
const WRK_DEFAULT_TIMEOUT_SEC = 2;

/** @type {Driver} */
const driver = {
  name: 'wrk',
  sendsMixes: true,
  async checkAvailable() {
    requireBinary('wrk', 'wrk');
  },
  async version() {
    // wrk -v prints its banner and exits with status 1
    const { stdout } = await promisify(execFile)('wrk', ['-v']).catch((error) => error);
    // "wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012 Will Glozer": keep name and version
    return /^wrk \S+/.exec(String(stdout))?.[0] ?? 'wrk (version unknown)';
  },
  async run({
    url,
    method,
    headers,
    body,
    sequence,
    connections,
    durationSec,
    expectedStatus,
    pipelining,
    cpu,
    signal,
    requestsPerConnection,
    connectionRate,
  }) {
    if (requestsPerConnection && (sequence || pipelining > 1 || hasUniqueValues(body)))
      throw new Error('wrk closes connections after some requests only for one plain request, not pipelined');
    const args = [
      '-t',
      String(THREADS),
      '-c',
      String(connections),
      '-d',
      `${wholeSeconds(durationSec)}s`,
      '--timeout',
      `${Math.max(WRK_DEFAULT_TIMEOUT_SEC, wholeSeconds(durationSec))}s`,
      '-s',
      SCRIPT,
    ];
    for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
    args.push(url);
    const inFile = body !== undefined && (body.length > ENV_BODY_LIMIT || isFormOfBytes(headers));
    const bodyDir = inFile ? await mkdtemp(join(tmpdir(), 'bench-wrk-')) : null;
    try {
      const env = {
        BENCH_METHOD: method,
        BENCH_PIPELINING: String(pipelining),
        BENCH_UNIQUE_TAG: runTag(),
        ...(await bodyEnv(body, headers, bodyDir)),
        ...(sequence ? sequenceEnv(sequence) : {}),
        ...(requestsPerConnection ? { BENCH_CLOSE_EVERY: String(requestsPerConnection) } : {}),
        ...(connectionRate ? { BENCH_CONNECTION_RATE: String(connectionRate) } : {}),
      };
      const output = await runGenerator('wrk', args, { durationSec, cpu, env, signal });
      if (output.code !== 0 && !output.interrupted) {
        throw new Error(`wrk exited with code ${output.code}: ${lastLine(output.stderr || output.stdout)}`);
      }
      const expected = sequence ? expectedStatuses(sequence) : [expectedStatus];
      const load = parseWrkOutput(output.stdout, expected, connections);
      // wrk's parser reads HTTP/1.x answers only, over TLS too (it offers no ALPN)
      return { ...load, protocol: 'http/1.1', generatorCpuSec: output.cpuSec, warnings: [] };
    } finally {
      if (bodyDir) await rm(bodyDir, { recursive: true, force: true });
    }
  },
};

/**
 * The body for wrk.lua: in the environment, or written to a file in `dir` as it is sent (bodyBytes).
 * @param {string | undefined} body @param {Record<string, string>} headers @param {string | null} dir
 * @returns {Promise<Record<string, string>>}
 */
async function bodyEnv(body, headers, dir) {
  if (body === undefined) return {};
  if (dir === null) return { BENCH_BODY: body };
  const file = join(dir, 'body');
  await writeFile(file, bodyBytes(body, headers));
  return { BENCH_BODY_FILE: file };
}

/**
 * The environment wrk.lua reads a mix from: each route's request once, and the cycle as indices into them.
 * @param {import('./registry.js').RouteRequest[]} sequence
 * @returns {Record<string, string>}
 */
export function sequenceEnv(sequence) {
  /** @type {import('./registry.js').RouteRequest[]} */
  const distinct = [];
  const indices = sequence.map((request) => {
    const known = distinct.findIndex((other) => other.route === request.route);
    return known >= 0 ? known + 1 : distinct.push(request);
  });
  /** @type {Record<string, string>} */
  const env = { BENCH_SEQUENCE: indices.join(',') };
  distinct.forEach(({ route, method, path, headers, body }, i) => {
    const prefix = `BENCH_REQUEST_${i + 1}_`;
    env[`${prefix}ROUTE`] = route;
    env[`${prefix}METHOD`] = method;
    env[`${prefix}PATH`] = path;
    env[`${prefix}HEADERS`] = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n');
    // a form of bytes as hex: the environment holds text
    if (body !== undefined && isFormOfBytes(headers))
      env[`${prefix}BODY_HEX`] = bodyBytes(body, headers).toString('hex');
    else if (body !== undefined) env[`${prefix}BODY`] = body;
  });
  return env;
}

export default driver;
