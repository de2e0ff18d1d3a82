// @ts-check
// Reads the report Artillery wrote (`artillery run --output`), with the bench's processor loaded, into a LoadResult.
import { countOf } from './statuses.js';

/** @typedef {import('./registry.js').LoadResult} LoadResult */

/**
 * @typedef {{ min: number, max: number, count: number, mean: number, p50: number, p90: number, p99: number,
 *   p999: number }} Summary Artillery's summary of a histogram, in ms
 * @typedef {{ aggregate: { counters: Record<string, number>, summaries: Record<string, Summary> } }} ArtilleryReport
 */

const CODE_PREFIX = 'http.codes.';
const ERROR_PREFIX = 'errors.';
const SENT_PREFIX = 'bench.sent.';
/** Got names a request that outlived the timeout so; every other error is a connection's or a socket's. */
const TIMEOUT_ERROR = 'errors.ETIMEDOUT';

/**
 * @param {ArtilleryReport} report
 * @param {number | number[]} expectedStatuses the statuses that count as throughput
 * @param {{ durationSec: number, cpuSec: number }} process the run's asked length and the CPU the whole Artillery process
 *   used: what a report without the processor's window falls back to
 * @returns {Omit<LoadResult, 'warnings'>}
 */
export function fromArtilleryReport({ aggregate }, expectedStatuses, process) {
  const { counters, summaries } = aggregate;
  const prefixed = (/** @type {string} */ prefix) =>
    Object.fromEntries(
      Object.entries(counters)
        .filter(([name]) => name.startsWith(prefix))
        .map(([name, count]) => [name.slice(prefix.length), count]),
    );
  const statusCounts = prefixed(CODE_PREFIX);
  const requests = counters['http.responses'] ?? 0;
  const expected = countOf(statusCounts, expectedStatuses);
  const window = summaries['bench.window_ms'];
  const durationSec = window ? window.max / 1000 : process.durationSec;
  const cpu = summaries['bench.cpu_ms'];
  const latency = summaries['http.response_time'];
  const errors = Object.values(prefixed(ERROR_PREFIX)).reduce((sum, count) => sum + count, 0);
  const timeouts = counters[TIMEOUT_ERROR] ?? 0;
  const sentByRoute = prefixed(SENT_PREFIX);
  return {
    requests,
    statusCounts,
    durationSec,
    rps: durationSec > 0 ? expected / durationSec : 0,
    latencyMs: latency
      ? {
          p50: latency.p50,
          p90: latency.p90,
          p99: latency.p99,
          p999: latency.p999,
          mean: latency.mean,
          max: latency.max,
        }
      : { p50: 0, p90: 0, p99: 0, p999: 0, mean: 0, max: 0 },
    errors: errors - timeouts,
    timeouts,
    unexpectedStatus: requests - expected,
    generatorCpuSec: cpu ? cpu.max / 1000 : process.cpuSec,
    protocol: 'http/1.1',
    ...(Object.keys(sentByRoute).length ? { sentByRoute } : {}),
  };
}
