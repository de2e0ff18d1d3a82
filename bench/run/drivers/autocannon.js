// @ts-check
// autocannon through its programmatic API, in this process: always available, but it needs more CPU per request than
// wrk (docs/method.md, "Load generator"), so fast servers saturate it first (runs flag that).
import autocannon from 'autocannon';

import { bodyBytes } from '../../model/payloads.js';
import { hasUniqueValues, uniqueFiller } from '../unique-values.js';
import { countOf, expectedStatuses } from './statuses.js';

/** @typedef {import('./registry.js').Driver} Driver */
/** @typedef {import('./registry.js').LoadRequest} LoadRequest */
/** @typedef {import('./registry.js').LoadResult} LoadResult */

/** autocannon checks its stop flag once per sample; short samples keep sub-second runs close to their duration. */
const SAMPLE_INTERVAL_MS = 100;
const MICROS_PER_SEC = 1e6;

/**
 * Reduce autocannon's result object to a LoadResult.
 * @param {autocannon.Result} result
 * @param {number | number[]} expectedStatuses the statuses that count as throughput (a mix's routes answer 200 or 201)
 * @param {number} generatorCpuSec
 * @returns {LoadResult}
 */
export function fromAutocannonResult(result, expectedStatuses, generatorCpuSec) {
  const requests = result.requests.total;
  const durationSec = result.duration;
  const statusCounts = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([status, { count = 0 }]) => [status, count]),
  );
  const expected = countOf(statusCounts, expectedStatuses);
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

/**
 * A request of a mix for autocannon's `requests` list (which every connection goes round in order), counting itself
 * in `sentByRoute` each time it is sent.
 * @param {import('./registry.js').RouteRequest} request
 * @param {Record<string, string>} runHeaders sent with every request
 * @param {Record<string, number>} sentByRoute
 * @param {(body: string | undefined) => string | undefined} fillUnique a fresh value for each placeholder
 * @returns {autocannon.Request}
 */
function countedRequest({ route, method, path, headers, body }, runHeaders, sentByRoute, fillUnique) {
  sentByRoute[route] = 0;
  const sentHeaders = { ...runHeaders, ...headers };
  return {
    method: /** @type {autocannon.Request['method']} */ (method),
    path,
    headers: sentHeaders,
    body: bodyBytes(body, sentHeaders),
    setupRequest: (request) => {
      sentByRoute[route] += 1;
      return hasUniqueValues(body) ? { ...request, body: bodyBytes(fillUnique(body), sentHeaders) } : request;
    },
  };
}

/** @type {Driver} */
const driver = {
  name: 'autocannon',
  sendsMixes: true,
  async checkAvailable() {},
  async version() {
    const { default: pkg } = await import('autocannon/package.json', { with: { type: 'json' } });
    return `autocannon ${pkg.version}`;
  },
  /** @param {LoadRequest} request */
  async run(request) {
    const { url, method, headers, body, sequence, connections, durationSec, expectedStatus, pipelining, signal } =
      request;
    const { requestsPerConnection, connectionRate } = request;
    if (requestsPerConnection && (sequence || pipelining > 1))
      throw new Error('autocannon closes connections after some requests only for one request, not pipelined');
    const cpuBefore = process.cpuUsage();
    /** @type {Record<string, number>} */
    const sentByRoute = {};
    const fillUnique = uniqueFiller();
    const single = {
      route: 'single',
      method,
      path: new URL(url).pathname + new URL(url).search,
      headers: {},
      body,
      expectedStatus,
    };
    // every connection goes round the list: the last of each round asks the server to close it, and autocannon
    // connects again when it does
    const closing = requestsPerConnection
      ? [...Array(requestsPerConnection - 1).fill(single), { ...single, headers: { connection: 'close' } }]
      : null;
    // a body with unique values is set anew per request, which autocannon does only for a list of requests
    const cycle = sequence ?? closing ?? (hasUniqueValues(body) ? [single] : null);
    const instance = autocannon({
      url,
      method: /** @type {autocannon.Request['method']} */ (method),
      headers,
      body: bodyBytes(body, headers),
      connections,
      pipelining,
      duration: durationSec,
      sampleInt: SAMPLE_INTERVAL_MS,
      ...(connectionRate ? { connectionRate } : {}),
      ...(cycle ? { requests: cycle.map((request) => countedRequest(request, headers, sentByRoute, fillUnique)) } : {}),
    });
    const stop = () => /** @type {any} */ (instance).stop();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const result = await /** @type {Promise<autocannon.Result>} */ (/** @type {unknown} */ (instance));
      const cpu = process.cpuUsage(cpuBefore);
      const expected = sequence ? expectedStatuses(sequence) : [expectedStatus];
      const load = fromAutocannonResult(result, expected, (cpu.user + cpu.system) / MICROS_PER_SEC);
      return sequence ? { ...load, sentByRoute } : load;
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  },
};

export default driver;
