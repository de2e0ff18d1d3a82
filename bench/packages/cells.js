// @ts-check
// --packages: the cells of a run (runtime × package set) resolved once, before any server starts: sets installed or
// read from the cache, each runtime checked against its sets' engines before it is downloaded, the servers staged.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { UsageError } from '../errors.js';
import { planPairs } from '../run/plan.js';
import { steadyStateArgs } from '../run/steady-state.js';
import { PRELOAD_FILE } from '../run/telemetry/probe.js';
import { runtimesForOption } from '../runtimes/runtimes.js';
import { parseRuntimeList, planRuntimes } from '../runtimes/runtime-specs.js';
import { cellText, planCells } from './set-specs.js';
import { ERA_DATABASE_MODULE, buildEraApp, setConfig, stageServers } from './set-config.js';
import { describeSet, engineConflict, installedSet } from './sets.js';

const execFileAsync = promisify(execFile);
const PROBE_TIMEOUT_MS = 30_000;
/** A cell's key joins its runtime's and its set's: `node@18.20.8 · nest@10.4.9`. */
export const CELL_SEPARATOR = ' · ';

/**
 * One runtime × package set, ready to measure.
 * @typedef {object} Cell
 * @property {string} key the cell in every record, where a runtime's `name@version` would be
 * @property {import('../runtimes/runtimes.js').Runtime} runtime
 * @property {import('./sets.js').PackageSet} set
 * @property {import('../model/config.js').Config} config the set's servers
 * @property {import('../model/records.js').Pair[]} pairs
 * @property {string | null} telemetryMissing why the servers run without the telemetry preload, or null
 * @property {string | null} databaseMissing why the era app serves no DB routes on this cell, or null; null for a
 *   bare framework's set
 * @property {string} [alias] the --packages alias that made it (eras, split)
 * @property {import('../model/own-app-record.js').OwnAppRecord} [ownApp] --nest-app: the user's app as checked on this
 *   cell, in place of the era app
 */

/**
 * The cells --packages and --runtime ask for, checked offline.
 * @param {string} packages @param {string | null} runtime --runtime; null: the bench's default runtime (the node
 *   running it, or the LTS line when that node's line is end of life)
 * @param {string} date
 * @throws {UsageError} naming the first bad item
 */
export function planPackageCells(packages, runtime, date) {
  const runtimeSpecs = runtime === null ? planRuntimes(null, { date }).specs : parseRuntimeList(runtime, date, '*');
  return planCells(packages, runtimeSpecs, { runtimeGiven: runtime !== null, date });
}

/**
 * A cell's set and runtime, installed (or read from the cache) and checked against each other.
 * @typedef {{ spec: import('./set-specs.js').CellSpec, set: import('./sets.js').PackageSet,
 *   runtime: import('../runtimes/runtimes.js').Runtime, key: string }} InstalledCell
 */

/**
 * @param {{ specs: import('./set-specs.js').CellSpec[], driverName: string, log: (line: string) => void }} request
 * @returns {Promise<InstalledCell[]>}
 * @throws {UsageError} a release that does not exist, a set that cannot run on its runtime
 */
export async function installCells({ specs, driverName, log }) {
  const sets = new Map();
  for (const spec of specs) {
    if (!sets.has(spec.set.text)) sets.set(spec.set.text, await installedSet(spec.set, { log }));
    const set = sets.get(spec.set.text);
    if (spec.runtime.name !== 'node')
      throw new UsageError(`--packages: ${cellText(spec)}: package sets run under Node; use node@<version>`);
    assertRunsOn(spec, set, spec.runtime.range ?? process.versions.node);
  }
  const uniqueRuntimes = [...new Map(specs.map((spec) => [spec.runtime.text, spec.runtime])).values()];
  const runtimes = await runtimesForOption(uniqueRuntimes, driverName, log);
  return specs.map((spec) => {
    const set = sets.get(spec.set.text);
    const runtime = /** @type {import('../runtimes/runtimes.js').Runtime} */ (
      runtimes[uniqueRuntimes.findIndex((unique) => unique.text === spec.runtime.text)]
    );
    assertRunsOn(spec, set, runtime.version);
    return { spec, set, runtime, key: `${runtime.name}@${runtime.version}${CELL_SEPARATOR}${set.label}` };
  });
}

/**
 * The era app's cells: each set's servers staged, the DB routes where the cell runs them.
 * @param {{ specs: import('./set-specs.js').CellSpec[], targets: string[], scenarios: string[],
 *   stacks: { stack: string }[], driverName: string, options: { memoryReducer: boolean, telemetry: boolean },
 *   log: (line: string) => void }} request
 * @returns {Promise<Cell[]>}
 * @throws {UsageError} a release that does not exist, a set that cannot run on its runtime
 */
export async function prepareCells({ specs, targets, scenarios, stacks, driverName, options, log }) {
  const installed = await installCells({ specs, driverName, log });
  const sets = new Set(installed.map((cell) => cell.set));
  if ([...sets].some((set) => set.kind === 'nest')) buildEraApp(log);
  for (const set of sets) await stageServers(set);
  const telemetry = telemetryCheck(options);
  const cells = [];
  for (const cell of installed) {
    const { set, runtime } = cell;
    const databaseMissing = set.kind === 'nest' ? await databaseRefusal(set, runtime) : null;
    const config = setConfig(set.kind, set.dir, set.kind === 'nest' && databaseMissing === null);
    const names = config.targets.map((target) => target.name);
    const { pairs } = planPairs(
      targets.filter((name) => names.includes(name)),
      scenarios,
      config,
      stacks,
    );
    cells.push(await measuredCell(cell, { config, pairs, databaseMissing, telemetry }));
  }
  return cells;
}

/**
 * @param {InstalledCell} cell
 * @param {{ config: import('../model/config.js').Config, pairs: import('../model/records.js').Pair[],
 *   databaseMissing: string | null, telemetry: (runtime: import('../runtimes/runtimes.js').Runtime) => Promise<string | null> }} what
 * @returns {Promise<Cell>}
 */
export async function measuredCell({ spec, set, runtime, key }, { config, pairs, databaseMissing, telemetry }) {
  return {
    key,
    runtime,
    set,
    config,
    pairs,
    telemetryMissing: await telemetry(runtime),
    databaseMissing,
    ...(spec.alias ? { alias: spec.alias } : {}),
  };
}

/**
 * Whether each runtime's servers can take the telemetry preload, probed once per runtime.
 * @param {{ memoryReducer: boolean, telemetry: boolean }} options
 */
export function telemetryCheck(options) {
  /** @type {Map<import('../runtimes/runtimes.js').Runtime, Promise<string | null>>} */
  const probed = new Map();
  return (/** @type {import('../runtimes/runtimes.js').Runtime} */ runtime) => {
    if (!probed.has(runtime)) probed.set(runtime, telemetryRefusal(runtime, options));
    return /** @type {Promise<string | null>} */ (probed.get(runtime));
  };
}

/**
 * @param {import('./set-specs.js').CellSpec} spec @param {import('./sets.js').PackageSet} set @param {string} version
 */
function assertRunsOn(spec, set, version) {
  const conflict = engineConflict(set, version);
  if (conflict)
    throw new UsageError(
      `--packages: ${cellText(spec)}: ${describeSet(set)} cannot run on node ${version} (${conflict.name} needs node ${conflict.engines})`,
    );
}

/**
 * Why the era app cannot serve the DB routes on this runtime, or null when it can: the set's TypeORM lacks the app's
 * API, a DB package's engines exclude the runtime, or the DB module does not load there (its first error line).
 * @param {import('./sets.js').PackageSet} set
 * @param {import('../runtimes/runtimes.js').Runtime} runtime
 * @returns {Promise<string | null>}
 */
async function databaseRefusal(set, runtime) {
  if (!set.database) return 'the set was installed before the era app had DB routes; delete its folder to reinstall';
  if (set.database.refused) return set.database.refused;
  const conflict = engineConflict(set.database, runtime.version);
  if (conflict) return `${conflict.name} ${set.database.versions[conflict.name]} needs node ${conflict.engines}`;
  return loadRefusal(runtime, ['-e', `require(${JSON.stringify(ERA_DATABASE_MODULE)})`], set.dir, {});
}

/**
 * Null when `runtime` runs `args` without error, else the first error line it printed.
 * @param {import('../runtimes/runtimes.js').Runtime} runtime
 * @param {string[]} args @param {string} cwd @param {Record<string, string>} env
 * @returns {Promise<string | null>}
 */
async function loadRefusal(runtime, args, cwd, env) {
  try {
    await execFileAsync(runtime.command, args, { cwd, timeout: PROBE_TIMEOUT_MS, env: { ...process.env, ...env } });
    return null;
  } catch (error) {
    const line = String(/** @type {any} */ (error).stderr ?? '')
      .split('\n')
      .find((text) => /Error/.test(text));
    return (line ?? 'it exited with an error').trim();
  }
}

/**
 * Whether the servers can take the telemetry preload under this runtime: node before 16 cannot load it (it uses
 * `node:` specifiers), so old runtimes run without it rather than not at all. Null: it loads.
 * @param {import('../runtimes/runtimes.js').Runtime} runtime
 * @param {{ memoryReducer: boolean, telemetry: boolean }} options
 * @returns {Promise<string | null>}
 */
async function telemetryRefusal(runtime, options) {
  if (!options.telemetry) return 'not asked for';
  const args = [...steadyStateArgs(runtime, options), '--require', PRELOAD_FILE, '-e', ''];
  const refusal = await loadRefusal(runtime, args, process.cwd(), { BENCH_TELEMETRY_FILE: '' });
  return refusal && `the preload does not load on ${runtime.name} ${runtime.version} (${refusal})`;
}
