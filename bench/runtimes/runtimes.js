// @ts-check
/**
 * The runtimes the bench can run its targets under: the node running the bench, other Node releases and Bun.
 * `--runtime` text is parsed in runtime-specs.js; what is not the running node comes from the npm registry through install.js.
 */
import { DEFAULT_CACHE_DIR, installedRuntime } from './install.js';
import { assertDriverSupports, specMatches } from './runtime-specs.js';
import { releaseStatus, runtimeLabel } from '../model/release-status.js';
import { UsageError } from '../errors.js';

/** @typedef {import('./runtime-specs.js').RuntimeSpec} RuntimeSpec */
/**
 * @typedef {import('../model/runtime.js').RegistryRelease} RegistryRelease
 * @typedef {import('../model/runtime.js').Runtime} Runtime
 */
/** @typedef {{ cacheDir?: string, log?: (line: string) => void }} ResolveOptions */

/**
 * The runtimes of a run: check the driver against the runtimes (before installing anything), install what is missing
 * and resolve.
 * @param {RuntimeSpec[]} specs from planRuntimes
 * @param {string} driverName
 * @param {(line: string) => void} log
 * @returns {Promise<Runtime[]>}
 */
export async function runtimesForOption(specs, driverName, log) {
  assertDriverSupports(driverName, specs);
  return resolveRuntimes(specs, { log });
}

/**
 * Which runtimes a run measures and why, in one line for the terminal and results.json.
 * @param {import('./runtime-specs.js').RuntimePlan} plan
 * @param {Runtime[]} runtimes resolved from plan.specs, in its order
 * @param {string} date the run's date
 */
export function describeRuntimeChoice(plan, runtimes, date) {
  const labels = runtimes
    .map((runtime) => runtimeLabel(`${runtime.name}@${runtime.version}`, date, runtimes))
    .join(', ');
  if (plan.replaced) {
    const [chosen] = runtimes;
    return (
      `runtime: node ${plan.replaced.version} is ${plan.replaced.status}; measuring the LTS line, ` +
      `${plan.specs[0].text} (${chosen.version}, ${releaseStatus(chosen, date).text}), instead — --runtime node measures this node`
    );
  }
  if (plan.requested === null) return `runtime: ${labels}, the node running the bench`;
  return `runtime: ${labels} (--runtime ${plan.requested})`;
}

/**
 * Turns specs into runnable runtimes, installing what is not cached yet (one at a time: each install is a large download).
 * @param {RuntimeSpec[]} specs
 * @param {ResolveOptions} [options]
 * @returns {Promise<Runtime[]>}
 * @throws {UsageError} when a runtime does not exist in the registry, cannot be installed or two specs are the same runtime
 */
export async function resolveRuntimes(specs, { cacheDir = DEFAULT_CACHE_DIR, log = () => {} } = {}) {
  /** @type {Runtime[]} */
  const runtimes = [];
  for (const spec of specs) {
    const runtime = await resolveRuntime(spec, cacheDir, log);
    const same = runtimes.find((other) => other.command === runtime.command);
    if (same) {
      throw new UsageError(
        `--runtime: ${same.spec} and ${spec.text} are the same runtime (${runtime.name} ${runtime.version}); list it once`,
      );
    }
    runtimes.push(runtime);
  }
  return runtimes;
}

/** The node running the bench, as a runtime: the default when `--runtime` is not given. */
export function currentNode(spec = 'node') {
  return /** @type {Runtime} */ ({
    spec,
    name: 'node',
    version: process.versions.node,
    command: process.execPath,
    args: [],
  });
}

/**
 * The arguments before a node entry file: the runtime's own, then node's flags as this runtime takes them. Deno takes
 * V8's flags in one `--v8-flags=` list and a preload as `--preload`.
 * @param {Runtime} runtime
 * @param {string[]} execArgv node flags: V8 flags and `--import=<module>`
 */
export function runtimeArgv(runtime, execArgv) {
  if (runtime.name !== 'deno' || execArgv.length === 0) return [...runtime.args, ...execArgv];
  const preloads = execArgv.filter((flag) => flag.startsWith('--import='));
  const v8Flags = execArgv.filter((flag) => !preloads.includes(flag));
  return [
    ...runtime.args,
    ...(v8Flags.length ? [`--v8-flags=${v8Flags.join(',')}`] : []),
    ...preloads.map((flag) => `--preload=${flag.slice('--import='.length)}`),
  ];
}

/**
 * @param {RuntimeSpec} spec
 * @param {string} cacheDir
 * @param {(line: string) => void} log
 * @returns {Promise<Runtime>}
 */
async function resolveRuntime(spec, cacheDir, log) {
  if (spec.name === 'node' && specMatches(spec, process.versions.node)) return currentNode(spec.text);
  return installedRuntime(spec, cacheDir, log);
}
