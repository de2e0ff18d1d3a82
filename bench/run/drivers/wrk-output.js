// @ts-check
// Reads what wrk printed, with bench/run/drivers/wrk.lua loaded, into a LoadResult.

import { countOf } from './statuses.js';

/** @typedef {import('./registry.js').LoadResult} LoadResult */

const RESULT_MARKER = 'BENCH_RESULT ';
const MICROS_PER_SEC = 1e6;
const MICROS_PER_MS = 1e3;

/**
 * @param {string} stdout
 * @param {number | number[]} expectedStatuses the statuses that count as throughput (a mix's routes answer 200 or 201)
 * @param {number} [connections] the connections wrk held open: with the ones the server closed, those it opened
 * @returns {Omit<LoadResult, 'generatorCpuSec' | 'warnings'>}
 * @throws {Error} when the result line is missing (wrk failed before its done() ran)
 */
export function parseWrkOutput(stdout, expectedStatuses, connections) {
  const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARKER));
  if (!line) throw new Error('wrk printed no result line');
  /** @type {{ durationUs: number, requests: number, statuses: Record<string, number>, sentByRoute?: Record<string, number>, closed?: { connections?: number }, errors: Record<string, number>, latencyUs: Record<string, number> }} */
  const raw = JSON.parse(line.slice(RESULT_MARKER.length));
  const durationSec = raw.durationUs / MICROS_PER_SEC;
  const ms = (/** @type {string} */ key) => raw.latencyUs[key] / MICROS_PER_MS;
  const expected = countOf(raw.statuses, expectedStatuses);
  return {
    requests: raw.requests,
    statusCounts: raw.statuses,
    durationSec,
    rps: durationSec > 0 ? expected / durationSec : 0,
    latencyMs: { p50: ms('p50'), p90: ms('p90'), p99: ms('p99'), p999: ms('p999'), mean: ms('mean'), max: ms('max') },
    errors: raw.errors.connect + raw.errors.read + raw.errors.write,
    timeouts: raw.errors.timeout,
    unexpectedStatus: raw.requests - expected,
    ...(raw.sentByRoute && Object.keys(raw.sentByRoute).length ? { sentByRoute: raw.sentByRoute } : {}),
    ...(connections === undefined ? {} : { connectionsOpened: connections + (raw.closed?.connections ?? 0) }),
  };
}
