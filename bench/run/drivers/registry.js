// @ts-check
// The load generators the bench can drive, behind one interface: a new generator is one new file here.
import { UsageError } from '../../errors.js';

/**
 * What to send, for how long.
 * @typedef {object} LoadRequest
 * @property {string} url full URL including path and query
 * @property {string} method
 * @property {Record<string, string>} headers
 * @property {string | undefined} body
 * @property {number} connections
 * @property {number} durationSec may be fractional
 * @property {string | null} [cpu] taskset CPU list for a generator that runs as its own process
 * @property {AbortSignal} [signal] stops the run early (Ctrl-C); the result is then discarded by the caller
 *
 * What one run measured.
 * @typedef {object} LoadResult
 * @property {number} requests responses received (any status)
 * @property {number} durationSec measured by the generator
 * @property {number} rps requests / durationSec
 * @property {{ p50: number, p90: number, p99: number, p999: number | null, mean: number, max: number }} latencyMs
 * @property {number} errors connection and socket errors, timeouts excluded
 * @property {number} timeouts
 * @property {number} non2xx responses with a status outside 200-299 (wrk: 400 and above)
 * @property {number} generatorCpuSec CPU time the generator used during the run
 * @property {string[]} warnings anything that makes the numbers doubtful (e.g. connections not kept alive)
 *
 * @typedef {object} Driver
 * @property {string} name
 * @property {boolean} inProcess true when the generator runs inside the bench process (pin the bench to pin it)
 * @property {() => Promise<void>} checkAvailable throws a UsageError naming the package to install
 * @property {() => Promise<string>} version
 * @property {(request: LoadRequest) => Promise<LoadResult>} run
 */

/** Loaded on demand: autocannon's dependencies are not worth loading for a wrk run. */
const LOADERS = /** @type {Record<string, () => Promise<{ default: Driver }>>} */ ({
  autocannon: () => import('./autocannon.js'),
  wrk: () => import('./wrk.js'),
  ab: () => import('./ab.js'),
});

export const DRIVER_NAMES = Object.keys(LOADERS);

/**
 * @param {string} name
 * @returns {Promise<Driver>}
 */
export async function loadDriver(name) {
  const load = LOADERS[name];
  if (!load) throw new UsageError(`--driver: unknown driver "${name}"; use one of ${DRIVER_NAMES.join(', ')}`);
  return (await load()).default;
}
