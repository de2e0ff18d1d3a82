// @ts-check
// A load each route can answer: connections and run length from the route's own single-request latency, by Little's
// law (requests in flight = rate × time in the system). A server that answers one request at a time keeps each of C
// connections waiting about C × S for an answer that takes S alone, so a run of D seconds gives each connection
// D / (C × S) answers. A 50 ms route at 50 connections in a 0.25 s run would answer none of them.
import { Agent } from 'node:http';
import { send } from './verify.js';
import { ANSWERS_PER_CONNECTION_IN_A_BLOCK } from '../model/design.js';

/** Each connection should see at least this many answers in a run; fewer and the run measures its own edges. */
export const MIN_ANSWERS_PER_CONNECTION = 5;
/** A lowered route keeps some concurrency: one connection would measure latency, not what the server sustains. */
export const MIN_LOWERED_CONNECTIONS = 4;
/** A slow route's run is lengthened up to this, and no further: past it the route gets fewer connections instead. */
export const MAX_LOWERED_DURATION_SEC = 5;
/** Requests sent one after another per server and route; the first is left out (a cold path). */
const MAX_SAMPLES = 20;
const MIN_SAMPLES = 3;
/** Sampling stops after this long per server and route, once MIN_SAMPLES answered. */
const SAMPLE_BUDGET_MS = 200;

/**
 * @typedef {import('../model/records.js').RouteLoad} RouteLoad
 * @typedef {import('../model/records.js').BlockLoad} BlockLoad
 */

/**
 * The load a route of this single-request latency can answer, at most the flags' connections and at least their
 * duration.
 * @param {number} aloneMs the slower server's single-request latency
 * @param {{ connections: number, durationSec: number, pipelining: number }} flags
 * @returns {{ connections: number, durationSec: number }}
 */
export function loadFor(aloneMs, { connections, durationSec, pipelining }) {
  const aloneSec = aloneMs / 1000;
  /** @param {number} seconds */
  const fitting = (seconds) => Math.floor(seconds / (MIN_ANSWERS_PER_CONNECTION * aloneSec * pipelining));
  if (aloneSec <= 0 || fitting(durationSec) >= connections) return { connections, durationSec };
  const wanted = Math.max(fitting(durationSec), Math.min(MIN_LOWERED_CONNECTIONS, connections));
  const neededSec = wanted * MIN_ANSWERS_PER_CONNECTION * aloneSec * pipelining;
  const runSec = Math.min(MAX_LOWERED_DURATION_SEC, Math.max(durationSec, neededSec));
  return {
    connections: Math.max(1, Math.min(wanted, fitting(runSec))),
    durationSec: Math.round(runSec * 100) / 100,
  };
}

/**
 * A block's load from one of its rounds: the slower compared server's time per request at saturation (a run's length
 * over its answers) sets the connections so that each gets ANSWERS_PER_CONNECTION_IN_A_BLOCK answers a run, at least
 * MIN_LOWERED_CONNECTIONS. Its runs are never made longer: the rounds it is fitted on are a cold server's, and a
 * steady one answers faster. A server that answered nothing took at least the run's length per wave of requests,
 * which the next round's fit refines.
 * @param {Array<{ requests: number, durationSec: number } | null>} loads the compared servers' runs; null: it failed
 * @param {number} connections what the round ran with
 * @param {{ connections: number, durationSec: number, pipelining: number }} flags
 * @returns {{ connections: number, durationSec: number, msPerRequest: number } | null} null: no run to go on
 */
export function blockLoadFrom(loads, connections, flags) {
  const msPerRequest = Math.max(
    ...loads.flatMap((load) =>
      load && load.durationSec > 0
        ? [(load.durationSec * 1000) / (load.requests || connections * flags.pipelining)]
        : [],
    ),
  );
  if (!Number.isFinite(msPerRequest)) return null;
  const fitting = Math.floor(
    (flags.durationSec * 1000) / (ANSWERS_PER_CONNECTION_IN_A_BLOCK * msPerRequest * flags.pipelining),
  );
  return {
    connections: Math.max(Math.min(MIN_LOWERED_CONNECTIONS, flags.connections), Math.min(fitting, flags.connections)),
    durationSec: flags.durationSec,
    msPerRequest,
  };
}

/**
 * Each pair's scenario sampled on each of its servers, then one load per scenario and stack, set by the slower
 * server so both adapters are compared at the same settings.
 * @param {object} context
 * @param {string} context.runtime
 * @param {Array<{ target: string, scenario: string, stack: string, url: string,
 *   request: import('../model/scenarios.js').ScenarioRequest }>} context.servers one per verified pair
 * @param {{ connections: number, durationSec: number, pipelining: number }} context.flags
 * @param {AbortSignal} [context.signal]
 * @returns {Promise<RouteLoad[]>}
 */
export async function measureRouteLoads({ runtime, servers, flags, signal }) {
  /** @type {Map<string, RouteLoad>} */
  const loads = new Map();
  for (const { target, scenario, stack, url, request } of servers) {
    if (signal?.aborted) break;
    const key = `${scenario}\u0000${stack}`;
    const load = loads.get(key) ?? {
      runtime,
      scenario,
      stack,
      aloneMs: {},
      connections: flags.connections,
      durationSec: flags.durationSec,
      lowered: false,
    };
    load.aloneMs[target] = await aloneLatencyMs(url, request);
    const slowest = Math.max(0, ...Object.values(load.aloneMs).map((ms) => ms ?? 0));
    const chosen = loadFor(slowest, flags);
    Object.assign(load, chosen, {
      lowered: chosen.connections < flags.connections || chosen.durationSec > flags.durationSec,
    });
    loads.set(key, load);
  }
  return [...loads.values()];
}

/**
 * The mean time one request takes with nothing else in flight, over requests sent one after another on one
 * keep-alive connection as the load generators send them; a mix's in its cycle's order, which weighs its routes by
 * their shares.
 * @param {string} url the server's base URL
 * @param {import('../model/scenarios.js').ScenarioRequest} request
 * @returns {Promise<number | null>} null when a request failed
 */
async function aloneLatencyMs(url, request) {
  const cycle = request.sequence ?? [request];
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const wanted = Math.max(MIN_SAMPLES, Math.min(cycle.length, MAX_SAMPLES));
  const startedAt = performance.now();
  /** @type {number[]} */
  const took = [];
  try {
    for (let i = 0; i <= MAX_SAMPLES; i++) {
      const next = cycle[i % cycle.length];
      const sentAt = performance.now();
      await send(`${url}${next.path}`, { ...next, headers: { ...request.headers, ...next.headers } }, { agent });
      if (i > 0) took.push(performance.now() - sentAt);
      if (took.length >= wanted && performance.now() - startedAt > SAMPLE_BUDGET_MS) break;
    }
  } catch {
    return null;
  } finally {
    agent.destroy();
  }
  return Math.round((took.reduce((sum, ms) => sum + ms, 0) / took.length) * 100) / 100;
}
