// @ts-check
// The load generators the bench can drive, behind one interface: a new generator is one new file here.
import { UsageError } from '../../errors.js';

/**
 * @typedef {import('../../model/scenarios.js').RouteRequest} RouteRequest
 *
 * What to send, for how long.
 * @typedef {object} LoadRequest
 * @property {string} url full URL including path and query
 * @property {string} method
 * @property {Record<string, string>} headers
 * @property {string | undefined} body
 * @property {RouteRequest[]} [sequence] a mix: the generator goes round these requests in order, to url's origin,
 *   instead of sending method, url's path and body (headers go with every request)
 * @property {number} connections
 * @property {number} durationSec may be fractional
 * @property {number} expectedStatus the scenario's status: only these responses count as throughput (for a mix, each
 *   request's own)
 * @property {number} pipelining requests in flight per connection (1: send the next once the answer came)
 * @property {number} [requestsPerConnection] close each connection after this many requests (Connection: close on the
 *   last) and open another; absent: keep them alive
 * @property {number} [connectionRate] paced: requests per second on each connection, the next sent at a random time
 *   around that pace rather than as soon as the answer came; absent: closed loop
 * @property {string | null} [cpu] taskset CPU list for a generator that runs as its own process
 * @property {AbortSignal} [signal] stops the run early (Ctrl-C); the result is then discarded by the caller
 * @property {{ dir: string, label: string }} [keep] where a generator that runs from a script of its own (artillery)
 *   keeps the last one it ran: the run's folder, and the block and server it was for
 *
 * @typedef {import('../../model/records.js').LoadResult} LoadResult
 *
 * @typedef {object} Driver
 * @property {string} name
 * @property {boolean} sendsMixes whether it can go round a sequence of different requests (LoadRequest.sequence)
 * @property {(log?: (line: string) => void) => Promise<void>} checkAvailable throws a UsageError naming the package to
 *   install; one that installs itself on first use (artillery) says so through log
 * @property {() => Promise<string>} version
 * @property {(request: LoadRequest) => Promise<LoadResult>} run
 */

/** A generator using this share of one core or more may be the bottleneck: its run says little about the server. */
export const GENERATOR_SATURATED_SHARE = 0.9;

/** Loaded on demand: autocannon's dependencies are not worth loading for a wrk run. */
const LOADERS = /** @type {Record<string, () => Promise<{ default: Driver }>>} */ ({
  autocannon: () => import('./autocannon.js'),
  wrk: () => import('./wrk.js'),
  ab: () => import('./ab.js'),
  artillery: () => import('./artillery.js'),
});

export const DRIVER_NAMES = Object.keys(LOADERS);

/** Preferred generator: the least CPU per request (docs/method.md, "Load generator"); autocannon needs no install. */
export const PREFERRED_DRIVER = 'wrk';
export const FALLBACK_DRIVER = 'autocannon';

/**
 * @param {string} name
 * @returns {Promise<Driver>}
 */
export async function loadDriver(name) {
  const load = LOADERS[name];
  if (!load) throw new UsageError(`--driver: unknown driver "${name}"; use one of ${DRIVER_NAMES.join(', ')}`);
  return (await load()).default;
}

/**
 * The named driver, or the preferred one when installed, else the fallback that needs no install (said once); HTTP/2
 * targets (h2: and h2c: urls) go to h2load, the generator here that speaks it.
 * @param {string | null} name --driver, or null
 * @param {(line: string) => void} log
 * @returns {Promise<Driver>}
 */
export async function chooseDriver(name, log) {
  const chosen = await chooseHttp1Driver(name, log);
  return {
    ...chosen,
    run: async (request) =>
      /^h2c?:/.test(request.url) ? (await import('./h2load.js')).default.run(request) : chosen.run(request),
  };
}

/**
 * Every generator a run of targets speaking these protocols uses, each as its name and version: the chosen driver for
 * HTTP/1.1 (with or without TLS), h2load for h2 and h2c, as chooseDriver sends them.
 * @param {string} driverVersion the chosen driver's, as its version() said it
 * @param {string[]} protocols the planned targets' (config.js: Target.protocol)
 * @returns {Promise<string[]>}
 */
export async function generatorVersions(driverVersion, protocols) {
  const http2 = protocols.filter((protocol) => protocol === 'h2' || protocol === 'h2c');
  return [
    ...(http2.length < protocols.length || !protocols.length ? [driverVersion] : []),
    ...(http2.length ? [await (await import('./h2load.js')).default.version()] : []),
  ];
}

/**
 * @param {string | null} name
 * @param {(line: string) => void} log
 * @returns {Promise<Driver>}
 */
async function chooseHttp1Driver(name, log) {
  if (name !== null) {
    const driver = await loadDriver(name);
    await driver.checkAvailable(log).catch((error) => {
      throw new UsageError(`--driver ${name}: ${error.message}`);
    });
    return driver;
  }
  const preferred = await loadDriver(PREFERRED_DRIVER);
  try {
    await preferred.checkAvailable();
    return preferred;
  } catch (error) {
    log(
      `note: ${/** @type {Error} */ (error).message}; using ${FALLBACK_DRIVER} instead (it needs about 1.5× the CPU per request, so fast targets may saturate it)`,
    );
    return loadDriver(FALLBACK_DRIVER);
  }
}
