// @ts-check
// autocannon through its programmatic API, in this process: always available, but it needs about 1.5 times the CPU
// of wrk per request (~16 µs against 10–12 µs here, see README), so fast servers saturate it first (runs flag that).
import autocannon from 'autocannon';

/** @typedef {import('./registry.js').Driver} Driver */
/** @typedef {import('./registry.js').LoadRequest} LoadRequest */
/** @typedef {import('./registry.js').LoadResult} LoadResult */

/** autocannon checks its stop flag once per sample; short samples keep sub-second runs close to their duration. */
const SAMPLE_INTERVAL_MS = 100;
const MICROS_PER_SEC = 1e6;

/**
 * Reduce autocannon's result object to a LoadResult.
 * @param {autocannon.Result} result
 * @param {number} expectedStatus
 * @param {number} generatorCpuSec
 * @returns {LoadResult}
 */
export function fromAutocannonResult(result, expectedStatus, generatorCpuSec) {
  const requests = result.requests.total;
  const durationSec = result.duration;
  const statusCounts = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([status, { count = 0 }]) => [status, count]),
  );
  const expected = statusCounts[expectedStatus] ?? 0;
  return {
    requests,
    statusCounts,
    durationSec,
    rps: durationSec > 0 ? expected / durationSec : 0,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      p999: result.latency.p99_9,
      mean: result.latency.average,
      max: result.latency.max,
    },
    errors: result.errors - result.timeouts,
    timeouts: result.timeouts,
    unexpectedStatus: requests - expected,
    generatorCpuSec,
    warnings: [],
  };
}

/** @type {Driver} */
const driver = {
  name: 'autocannon',
  async checkAvailable() {},
  async version() {
    const { default: pkg } = await import('autocannon/package.json', { with: { type: 'json' } });
    return `autocannon ${pkg.version}`;
  },
  /** @param {LoadRequest} request */
  async run({ url, method, headers, body, connections, durationSec, expectedStatus, pipelining, signal }) {
    const cpuBefore = process.cpuUsage();
    const instance = autocannon({
      url,
      method: /** @type {autocannon.Request['method']} */ (method),
      headers,
      body,
      connections,
      pipelining,
      duration: durationSec,
      sampleInt: SAMPLE_INTERVAL_MS,
    });
    const stop = () => /** @type {any} */ (instance).stop();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const result = await /** @type {Promise<autocannon.Result>} */ (/** @type {unknown} */ (instance));
      const cpu = process.cpuUsage(cpuBefore);
      return fromAutocannonResult(result, expectedStatus, (cpu.user + cpu.system) / MICROS_PER_SEC);
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  },
};

export default driver;
