// @ts-check
// What `npm run bench` measures, settled before any server starts: driver, runtimes (or --packages' cells), pairs, the
// design, and for --nest-app the routes that answer alike on both adapters. Anything that can be refused is refused here.
import { scenarioNamed } from '../model/config.js';
import { judgedPairOn } from '../model/compared.js';
import { designOf } from '../model/design.js';
import { pairKey } from '../model/keys.js';
import { resolvePair } from '../model/scenarios.js';
import { chooseDriver } from '../run/drivers/registry.js';
import { UsageError } from '../errors.js';
import { stackPlan } from '../run/options.js';
import { installCells, measuredCell, planPackageCells, prepareCells, telemetryCheck } from '../packages/cells.js';
import { setRefusal } from '../own-app/launch/package-set.js';
import { nestBenchmarkServers } from '../packages/nest-benchmark.js';
import { describeVersions } from '../report/format.js';
import { loadCurvePlannedSec } from '../run/load-curve.js';
import { START_ALLOWANCE_SEC } from '../run/measure.js';
import { pinThisProcess } from '../run/pinning.js';
import { planPairs } from '../run/plan.js';
import { describeRuntimeChoice, runtimesForOption } from '../runtimes/runtimes.js';
import { planRuntimes } from '../runtimes/runtime-specs.js';

/** @typedef {Awaited<ReturnType<typeof import('../own-app/own-app.js').loadOwnApp>>} OwnApp */

/**
 * Everything that can be refused before a server starts: driver, runtimes, pairs, and the config's prepare step; for
 * --nest-app, the routes that answer alike on both adapters. When none does, no pair: the report says why.
 * @param {import('../model/config.js').Config} config
 * @param {import('../run/options.js').Options} options
 * @param {OwnApp | null} ownApp
 * @param {(line: string) => void} log
 * @returns {Promise<RunPlan>}
 */
export async function planRun(config, options, ownApp, log) {
  // a bad --runtime is refused before choosing a driver can print a notice
  const today = new Date().toISOString();
  if (options.packages !== null) {
    const specs = planPackageCells(options.packages, options.runtime, today);
    const bare = ownApp && specs.find((spec) => spec.set.kind !== 'nest');
    if (bare) throw new UsageError(`--packages: ${bare.set.text} is a bare framework; with --nest-app give nest@ sets`);
    const driver = await chooseDriver(options.driver, log);
    return ownApp
      ? prepareOwnAppCells(specs, options, driver, ownApp, log)
      : preparePackages(specs, options, driver, log);
  }
  const runtimePlan = planRuntimes(options.runtime, { date: today, usersApp: Boolean(ownApp) });
  const driver = await chooseDriver(options.driver, log);
  // installs once every flag has been accepted, except that --nest-app checks the app on a runtime first
  const install = () => runtimesForOption(runtimePlan.specs, driver.name, log);
  const installedFirst = ownApp ? await install() : null;
  const checked = ownApp && installedFirst && (await checkOnRuntimes(ownApp, installedFirst, options, log));
  const runtimeChoiceOf = (/** @type {import('../runtimes/runtimes.js').Runtime[]} */ runtimes) => ({
    requested: runtimePlan.requested,
    specs: runtimePlan.specs.map((spec) => spec.text),
    reason: describeRuntimeChoice(runtimePlan, runtimes, today),
  });
  if (checked && !checked.config) {
    const runtimes = /** @type {import('../runtimes/runtimes.js').Runtime[]} */ (installedFirst);
    const found = { config, options, driver, runtimes, ownApp: checked.record, failure: checked.failure };
    return nothingToCompare(found, runtimeChoiceOf);
  }
  if (checked?.config) ({ config, options } = checked);
  const { pairs, notApplicable } = planPairs(options.targets, options.scenarios, config, stackPlan(options));
  if (pairs.length === 0) {
    throw new UsageError(
      `--targets ${options.targets.join(',')} have no route for --scenarios ${options.scenarios.join(',')} on --stack ${options.stacks.join(',')}; a target's "scenarios" lists the ones it answers, its "stacks" the stacks it runs`,
    );
  }
  const mix = pairs.find((pair) => scenarioNamed(config, pair.scenario).mix);
  if (mix && !driver.sendsMixes)
    throw new UsageError(
      `--scenarios ${mix.scenario}: ${driver.name} sends one kind of request per run, a mix needs several; use --driver wrk or autocannon`,
    );
  const runtimes = checked?.runtimes ?? (await install());
  const runtimeChoice = runtimeChoiceOf(runtimes);
  const prepared =
    (await config.prepare?.({
      targets: [...new Set(pairs.map((pair) => pair.target))],
      scenarios: [...new Set(pairs.map((pair) => pair.scenario))],
      log,
    })) ?? {};
  const cpus = options.cpus && pinThisProcess(options.cpus, options.pinnedByDefault, log);
  log(runtimeChoice.reason);
  if (checked?.record)
    log(
      `${checked.record.main ? '--nest-main' : '--nest-app'}: measuring with ${describeVersions(checked.record.versions)}, as installed`,
    );
  return runPlan({
    config,
    options: { ...options, cpus },
    driver,
    runtimes,
    runtimeChoice,
    pairs,
    notApplicable,
    env: prepared.env,
    token: prepared.token,
    ownApp: checked?.record,
  });
}

/**
 * The app checked on each runtime in turn, until one boots it on Express: a runtime it does not boot on is a finding
 * with the app's own error, left out of the run.
 * @param {OwnApp} ownApp
 * @param {import('../runtimes/runtimes.js').Runtime[]} runtimes
 * @param {import('../run/options.js').Options} options
 * @param {(line: string) => void} log
 */
async function checkOnRuntimes(ownApp, runtimes, options, log) {
  /** @type {import('../model/own-app-record.js').BootFailure[]} */
  const runtimeFailures = [];
  const failed = new Set();
  for (const runtime of runtimes) {
    const checked = await ownApp.check({ runtime, options, log });
    const failure = checked.record.bootFailure;
    // the routes were listed on the node running the bench: on another runtime, not booting is that runtime's doing
    if (failure?.adapter === 'express' && runtime.command !== process.execPath) {
      const fix = `measure it on another runtime: --runtime node (the node running the bench, ${process.version}, listed its routes)`;
      runtimeFailures.push({ ...failure, fix });
      failed.add(runtime);
      log(`--nest-app: the app does not boot on ${failure.runtime}: ${failure.error}; ${fix}`);
      if (failed.size < runtimes.length) continue;
    }
    return {
      ...checked,
      record: { ...checked.record, runtimeFailures },
      runtimes: runtimes.filter((r) => !failed.has(r)),
    };
  }
  throw new Error('no runtime to check the app on');
}

/**
 * A run with no pair to measure (the app did not boot, no route answered alike, or the check failed): what was found,
 * as a report.
 * @param {{ config: import('../model/config.js').Config, options: import('../run/options.js').Options,
 *   driver: import('../run/drivers/registry.js').Driver, runtimes: import('../runtimes/runtimes.js').Runtime[],
 *   ownApp: import('../model/own-app-record.js').OwnAppRecord, failure: string | null }} found failure: the bench's
 *   own, when the check failed
 * @param {(runtimes: import('../runtimes/runtimes.js').Runtime[]) => import('../model/results.js').RuntimeChoice} runtimeChoiceOf
 */
function nothingToCompare({ config, options, driver, runtimes, ownApp, failure }, runtimeChoiceOf) {
  return runPlan({
    config,
    options: { ...options, cpus: null },
    driver,
    runtimes,
    runtimeChoice: runtimeChoiceOf(runtimes),
    ownApp,
    failure,
  });
}

/**
 * --packages: each cell (runtime × package set) with its set's servers and the pairs they serve.
 * @param {import('../packages/set-specs.js').CellSpec[]} specs
 * @param {import('../run/options.js').Options} options
 * @param {import('../run/drivers/registry.js').Driver} driver
 * @param {(line: string) => void} log
 */
async function preparePackages(specs, options, driver, log) {
  const cells = await prepareCells({
    specs,
    targets: options.targets,
    scenarios: options.scenarios,
    stacks: stackPlan(options),
    driverName: driver.name,
    options,
    log,
  });
  return cellsPlan(cells, options, driver, { ownApp: null, refused: [] }, log);
}

/**
 * --nest-app with --packages: the user's app on each cell's set, its imports of the set's packages loading the set's
 * copies; a cell it cannot run on is left out with its reason.
 * @param {import('../packages/set-specs.js').CellSpec[]} specs
 * @param {import('../run/options.js').Options} options
 * @param {import('../run/drivers/registry.js').Driver} driver
 * @param {OwnApp} ownApp
 * @param {(line: string) => void} log
 */
async function prepareOwnAppCells(specs, options, driver, ownApp, log) {
  log(`--nest-app: found ${describeVersions(ownApp.versions)} installed beside the app`);
  const installed = await installCells({ specs, driverName: driver.name, log });
  const telemetry = telemetryCheck(options);
  /** @type {import('../packages/cells.js').Cell[]} */
  const cells = [];
  /** @type {Array<{ key: string, reason: string }>} */
  const refused = [];
  let measuredOptions = options;
  for (const cell of installed) {
    const refusal = setRefusal(cell.set, cell.runtime);
    const checked =
      refusal === null ? await ownApp.check({ runtime: cell.runtime, options, log, set: cell.set }) : null;
    if (!checked?.config) {
      const found = /** @type {NonNullable<typeof checked>} */ (checked);
      const reason = refusal ?? found.failure ?? notRunning(found.record);
      refused.push({ key: cell.key, reason });
      log(`--nest-app on ${cell.key}: not measured: ${reason}`);
      continue;
    }
    log(`--nest-app on ${cell.key}: measuring with ${describeVersions(checked.record.versions)}, the set's`);
    if (cells.length === 0) measuredOptions = checked.options;
    const { pairs } = planPairs(checked.options.targets, checked.options.scenarios, checked.config, stackPlan(options));
    const measured = await measuredCell(cell, { config: checked.config, pairs, databaseMissing: null, telemetry });
    cells.push({ ...measured, ownApp: checked.record });
  }
  if (cells.length === 0)
    throw new UsageError(
      `--nest-app: no set can run the app (${refused.map(({ key, reason }) => `${key}: ${reason}`).join('; ')})`,
    );
  return cellsPlan(cells, measuredOptions, driver, { ownApp: cells[0].ownApp ?? null, refused }, log);
}

/**
 * Why a checked app is not measured: it did not start, or no route answered alike on both adapters.
 * @param {import('../model/own-app-record.js').OwnAppRecord} record
 */
function notRunning({ compatibility: { startFailure } }) {
  return startFailure
    ? `the app does not start on ${startFailure.adapter}: ${startFailure.error}`
    : 'no route answers alike on both adapters';
}

/**
 * The plan of a run of cells.
 * @param {import('../packages/cells.js').Cell[]} cells
 * @param {import('../run/options.js').Options} options
 * @param {import('../run/drivers/registry.js').Driver} driver
 * @param {{ ownApp: import('../model/own-app-record.js').OwnAppRecord | null, refused: Array<{ key: string, reason: string }> }} extra
 * @param {(line: string) => void} log
 */
function cellsPlan(cells, options, driver, { ownApp, refused }, log) {
  const runtimes = [...new Set(cells.map((cell) => cell.runtime))];
  const cpus = options.cpus && pinThisProcess(options.cpus, options.pinnedByDefault, log);
  const reason = `cells: ${cells.map((cell) => cell.key).join(', ')} (--packages ${options.packages})`;
  log(reason);
  return runPlan({
    config: cells[0].config,
    options: { ...options, cpus },
    driver,
    runtimes,
    runtimeChoice: { requested: options.runtime, specs: runtimes.map((runtime) => runtime.spec), reason },
    pairs: [...new Map(cells.flatMap((cell) => cell.pairs).map((pair) => [JSON.stringify(pair), pair])).values()],
    ownApp,
    cells,
    refused,
  });
}

/**
 * What a run measures, settled before any server starts.
 * @typedef {object} RunPlan
 * @property {import('../model/config.js').Config} config
 * @property {import('../run/options.js').Options} options pinning as actually in force
 * @property {import('../model/design.js').Design} design how the rounds are spent, resolved from the options
 * @property {import('../run/drivers/registry.js').Driver} driver
 * @property {import('../runtimes/runtimes.js').Runtime[]} runtimes
 * @property {import('../model/results.js').RuntimeChoice} runtimeChoice
 * @property {import('../model/records.js').Pair[]} pairs
 * @property {import('../model/records.js').Pair[]} notApplicable
 * @property {Map<string, import('../model/scenarios.js').ResolvedPair>} resolved with --prof, each pair by pairKey with
 *   its target, scenario and request resolved once here, for the profiles made after the timed runs; else empty
 * @property {Record<string, string>} env
 * @property {string | null} token
 * @property {import('../model/own-app-record.js').OwnAppRecord | null} ownApp
 * @property {MeasuredCell[]} measured each runtime, or each cell of --packages; none without a pair to measure
 * @property {import('../packages/cells.js').Cell[] | null} cells --packages
 * @property {Array<{ key: string, reason: string }>} refused --packages: the cells left out, and why
 * @property {string[]} protocols each pair's target's protocol, in the pairs' order: the load generators it needs
 * @property {number} plannedSecPerRuntime what one runtime's measurement should take, for the time-left estimate
 * @property {boolean} asksToCompare whether some scenario's judged pair is measured whole, or nothing is: a run naming
 *   one side alone (--targets) compares nothing and is not the worse for it
 * @property {string | null} failure --nest-app: the bench's own failure while checking the app, in one line; the run
 *   then measures nothing, and says so
 *
 * @typedef {Pick<import('../packages/cells.js').Cell, 'key' | 'runtime' | 'config' | 'pairs' | 'telemetryMissing'>
 *   & { coldStartTargets: import('../model/config.js').Target[],
 *   nestBenchmarkServers: import('../packages/nest-benchmark.js').NestBenchmarkServer[] }} MeasuredCell
 *   coldStartTargets: the compared targets that are commands, which --cold-starts boots; nestBenchmarkServers: the
 *   servers of Nest's own benchmark the cell's set holds, which --nest-benchmark runs
 */

/**
 * @param {Pick<RunPlan, 'config' | 'options' | 'driver' | 'runtimes' | 'runtimeChoice'> & Partial<Pick<RunPlan,
 *   'pairs' | 'notApplicable' | 'cells' | 'refused' | 'failure'>> & { env?: Record<string, string>,
 *   token?: string | null, ownApp?: RunPlan['ownApp'] }} parts
 * @returns {RunPlan}
 */
function runPlan({
  pairs = [],
  notApplicable = [],
  env,
  token,
  ownApp,
  cells = null,
  refused = [],
  failure = null,
  ...parts
}) {
  const { config, runtimes, options } = parts;
  // each runtime is one cell unless --packages made cells of runtimes × package sets
  const cellsMeasured =
    pairs.length === 0
      ? []
      : (cells ??
        runtimes.map((runtime) => ({
          key: `${runtime.name}@${runtime.version}`,
          runtime,
          config,
          pairs,
          telemetryMissing: null,
        })));
  const measured = cellsMeasured.map((cell) => ({
    ...cell,
    coldStartTargets: cell.config.compare.flatMap((name) =>
      cell.config.targets.filter((target) => target.name === name && target.command),
    ),
    nestBenchmarkServers: nestBenchmarkServers(cell.config),
  }));
  const design = designOf(options);
  const targetsByName = new Map(config.targets.map((target) => [target.name, target]));
  const scenariosByName = new Map(config.scenarios.map((scenario) => [scenario.name, scenario]));
  return {
    ...parts,
    design,
    protocols: pairs.map((pair) => targetsByName.get(pair.target)?.protocol ?? 'http'),
    plannedSecPerRuntime: plannedSecPerRuntime(options, design, pairs, scenariosByName),
    asksToCompare:
      pairs.length === 0 ||
      pairs.some((pair) =>
        judgedPairOn(config, pair.scenario).every((name) =>
          pairs.some((p) => p.target === name && p.scenario === pair.scenario),
        ),
      ),
    pairs,
    notApplicable,
    // --prof only, which --packages refuses: a run of cells holds each cell's pairs in the cell's own config
    resolved: new Map(
      options.prof ? pairs.map((pair) => [pairKey(pair), resolvePair(pair, { token: token ?? null, config })]) : [],
    ),
    env: env ?? {},
    token: token ?? null,
    ownApp: ownApp ?? null,
    measured,
    cells,
    refused,
    failure,
  };
}

/**
 * What one runtime's measurement should take: its start, its rounds (a budget holds the later starts; fixed rounds run
 * in every start) and the load curve.
 * @param {import('../run/options.js').Options} options @param {import('../model/design.js').Design} design
 * @param {import('../model/records.js').Pair[]} pairs
 * @param {Map<string, import('../model/config.js').Scenario>} scenarios the config's, by name
 */
function plannedSecPerRuntime(options, design, pairs, scenarios) {
  const startSec = START_ALLOWANCE_SEC + pairs.length * options.warmupSec;
  // a profile with its own load runs at least its own length (model/config.js: ScenarioLoad)
  const ownRunSec = (/** @type {string} */ name) => scenarios.get(name)?.load?.durationSec ?? 0;
  const runsSec = pairs.reduce((sum, pair) => sum + Math.max(ownRunSec(pair.scenario), options.durationSec), 0);
  const roundsSec =
    design.budgetPerRuntimeSec ??
    design.starts * (design.roundsPerStart ?? 0) * runsSec + (design.starts - 1) * startSec;
  return startSec + roundsSec + loadCurvePlannedSec(options, [...new Set(pairs.map((pair) => pair.scenario))]);
}
