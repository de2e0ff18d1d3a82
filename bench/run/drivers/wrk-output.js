// @ts-check
// Reads what wrk printed, with bench/run/drivers/wrk.lua loaded, into a LoadResult.

/** @typedef {import('./registry.js').LoadResult} LoadResult */

const RESULT_MARKER = 'BENCH_RESULT ';
const MICROS_PER_SEC = 1e6;
const MICROS_PER_MS = 1e3;

/**
 * @param {string} stdout
 * @param {number} expectedStatus
 * @returns {Omit<LoadResult, 'generatorCpuSec' | 'warnings'>}
 * @throws {Error} when the result line is missing (wrk failed before its done() ran)
 */
export function parseWrkOutput(stdout, expectedStatus) {
  const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARKER));
  if (!line) throw new Error('wrk printed no result line');
  /** @type {{ durationUs: number, requests: number, statuses: Record<string, number>, errors: Record<string, number>, latencyUs: Record<string, number> }} */
  const raw = JSON.parse(line.slice(RESULT_MARKER.length));
  const durationSec = raw.durationUs / MICROS_PER_SEC;
  const ms = (/** @type {string} */ key) => raw.latencyUs[key] / MICROS_PER_MS;
  const expected = raw.statuses[expectedStatus] ?? 0;
  return {
    requests: raw.requests,
    statusCounts: raw.statuses,
    durationSec,
    rps: durationSec > 0 ? expected / durationSec : 0,
    latencyMs: { p50: ms('p50'), p90: ms('p90'), p99: ms('p99'), p999: ms('p999'), mean: ms('mean'), max: ms('max') },
    errors: raw.errors.connect + raw.errors.read + raw.errors.write,
    timeouts: raw.errors.timeout,
    unexpectedStatus: raw.requests - expected,
  };
}
