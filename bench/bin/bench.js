#!/usr/bin/env node
// @ts-check
// `npm run bench`: flags → plan → build → measure (every runtime) → results.json → reports → verdict on the terminal.
import { join, resolve } from 'node:path';
import { BUILTIN_CONFIG } from '../model/builtin-config.js';
import { configRecord, loadConfig, scenarioNamed } from '../model/config.js';
import { chooseDriver } from '../run/drivers/registry.js';
import { collectEnvironment } from '../run/environment.js';
import { USAGE_EXIT_CODE, UsageError } from '../errors.js';
import { loadCurvePlannedSec } from '../run/load-curve.js';
import { START_ALLOWANCE_SEC, measureRuntime } from '../run/measure.js';
import { measureColdStarts } from '../run/cold-start.js';
import { parseCommandLine, resolveOptions, stackPlan } from '../run/options.js';
import { HELP } from '../run/options-help.js';
import { installCells, measuredCell, planPackageCells, prepareCells, telemetryCheck } from '../packages/cells.js';
import { nestBenchmark } from '../packages/nest-benchmark.js';
import { packagesRecord } from '../packages/record.js';
import { SET_CONFIG_SHAPE } from '../packages/set-config.js';
import { loadOwnApp } from '../own-app/own-app.js';
import { setRefusal } from '../own-app/package-set.js';
import { describeVersions } from '../own-app/packages.js';
import { compatibilityTable } from '../report/own-app-tables.js';
import { switchingFindingsTable } from '../report/switching-tables.js';
import { switchingCost } from '../own-app/switching.js';
import { markdownTable } from '../report/rich-table.js';
import { pinThisProcess } from '../run/pinning.js';
import { planPairs } from '../run/plan.js';
import { formatDuration } from '../model/durations.js';
import { createProgress } from '../run/progress.js';
import { createResults, createResultsWriter, failureCount, runStamp } from '../model/results.js';
import { standing } from '../analysis/analyze.js';
import { STOP_RULE } from '../analysis/starts.js';
import { renderOutcome } from '../report/outcome.js';
import { writeReports } from '../report/write.js';
import { describeRuntimeChoice, runtimesForOption } from '../runtimes/runtimes.js';
import { planRuntimes } from '../runtimes/specs.js';
import { headerDifferences } from '../run/verify.js';

const EXIT_OK = 0;
const EXIT_FAILED = 1;
/** No compared pair was measured: an adapter or the app did not boot, or no route answered alike. */
const EXIT_NOTHING_COMPARED = 3;
const EXIT_INTERRUPTED = 130;

/** @param {string} line */
const stderrLine = (line) => process.stderr.write(`${line}\n`);
/** --quiet: set once the flags are parsed; the notes on stderr are left out, errors are not. */
let quiet = false;
/** A note on stderr, left out under --quiet. @param {string} line */
const log = (line) => {
  if (!quiet) stderrLine(line);
};

/**
 * @param {string[]} argv
 * @returns {Promise<number>} exit code
 */
async function main(argv) {
  const { settings, names, nestApp } = parseCommandLine(argv);
  quiet = settings.quiet;
  const ownApp = nestApp && !settings.help ? await loadOwnApp(nestApp, settings.configFile) : null;
  if (ownApp && nestApp?.listRoutes) {
    console.log(ownApp.routeLines.join('\n'));
    return EXIT_OK;
  }
  const config =
    ownApp?.config ??
    (settings.configFile !== null
      ? await loadConfig(settings.configFile)
      : settings.packages !== null
        ? SET_CONFIG_SHAPE
        : BUILTIN_CONFIG);
  const options = resolveOptions({ settings, names }, config);
  if (options.help) {
    console.log(HELP);
    return EXIT_OK;
  }
  return run(await prepare(config, options, ownApp));
}

/**
 * Everything that can be refused before a server starts: driver, runtimes, pairs, and the config's prepare step; for
 * --nest-app, the routes that answer alike on both adapters. When none does, no pair: the report says why.
 * @param {import('../model/config.js').Config} config
 * @param {import('../run/options.js').Options} options
 * @param {Awaited<ReturnType<typeof loadOwnApp>> | null} ownApp
 */
async function prepare(config, options, ownApp) {
  // a bad --runtime is refused before choosing a driver can print a notice
  const today = new Date().toISOString();
  if (options.packages !== null) {
    const specs = planPackageCells(options.packages, options.runtime, today);
    const bare = ownApp && specs.find((spec) => spec.set.kind !== 'nest');
    if (bare) throw new UsageError(`--packages: ${bare.set.text} is a bare framework; with --nest-app give nest@ sets`);
    const driver = await chooseDriver(options.driver, log);
    return ownApp ? prepareOwnAppCells(specs, options, driver, ownApp) : preparePackages(specs, options, driver);
  }
  const runtimePlan = planRuntimes(options.runtime, { date: today, usersApp: Boolean(ownApp) });
  const driver = await chooseDriver(options.driver, log);
  // installs once every flag has been accepted, except that --nest-app checks the app on a runtime first
  const install = () => runtimesForOption(runtimePlan.specs, driver.name, log);
  const installedFirst = ownApp ? await install() : null;
  const checked = ownApp && installedFirst && (await checkOnRuntimes(ownApp, installedFirst, options));
  const runtimeChoiceOf = (/** @type {import('../runtimes/runtimes.js').Runtime[]} */ runtimes) => ({
    requested: runtimePlan.requested,
    specs: runtimePlan.specs.map((spec) => spec.text),
    reason: describeRuntimeChoice(runtimePlan, runtimes, today),
  });
  if (checked && !checked.config) {
    const cost = switchingCost(checked.record, [], []);
    if (cost) log(markdownTable(switchingFindingsTable(cost)));
    log(markdownTable(compatibilityTable(checked.record)));
    const runtimes = /** @type {import('../runtimes/runtimes.js').Runtime[]} */ (installedFirst);
    return nothingToCompare({ config, options, driver, runtimes, ownApp: checked.record }, runtimeChoiceOf);
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
  if (checked?.record) log(`--nest-app: measuring with ${describeVersions(checked.record.versions)}, as installed`);
  return {
    config,
    options: { ...options, cpus },
    driver,
    runtimes,
    runtimeChoice,
    pairs,
    notApplicable,
    env: prepared.env ?? {},
    token: prepared.token ?? null,
    ownApp: checked?.record ?? null,
    cells: null,
    refused: [],
  };
}

/**
 * The app checked on each runtime in turn, until one boots it on Express: a runtime it does not boot on is a finding
 * with the app's own error, left out of the run.
 * @param {Awaited<ReturnType<typeof loadOwnApp>>} ownApp
 * @param {import('../runtimes/runtimes.js').Runtime[]} runtimes
 * @param {import('../run/options.js').Options} options
 */
async function checkOnRuntimes(ownApp, runtimes, options) {
  /** @type {import('../own-app/boot-failure.js').BootFailure[]} */
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
 * A run with no pair to measure (the app did not boot, or no route answered alike): what was found, as a report.
 * @param {{ config: import('../model/config.js').Config, options: import('../run/options.js').Options,
 *   driver: import('../run/drivers/registry.js').Driver, runtimes: import('../runtimes/runtimes.js').Runtime[],
 *   ownApp: import('../own-app/own-app.js').OwnAppRecord }} found
 * @param {(runtimes: import('../runtimes/runtimes.js').Runtime[]) => { requested: string | null, specs: string[], reason: string }} runtimeChoiceOf
 */
function nothingToCompare({ config, options, driver, runtimes, ownApp }, runtimeChoiceOf) {
  return {
    config,
    options: { ...options, cpus: null },
    driver,
    runtimes,
    runtimeChoice: runtimeChoiceOf(runtimes),
    pairs: [],
    notApplicable: [],
    env: {},
    token: null,
    ownApp,
    cells: null,
    refused: [],
  };
}

/**
 * --packages: each cell (runtime × package set) with its set's servers and the pairs they serve.
 * @param {import('../packages/specs.js').CellSpec[]} specs
 * @param {import('../run/options.js').Options} options
 * @param {import('../run/drivers/registry.js').Driver} driver
 */
async function preparePackages(specs, options, driver) {
  const cells = await prepareCells({
    specs,
    targets: options.targets,
    scenarios: options.scenarios,
    stacks: stackPlan(options),
    driverName: driver.name,
    options,
    log,
  });
  return cellsPlan(cells, options, driver, { ownApp: null, refused: [] });
}

/**
 * --nest-app with --packages: the user's app on each cell's set, its imports of the set's packages loading the set's
 * copies; a cell it cannot run on is left out with its reason.
 * @param {import('../packages/specs.js').CellSpec[]} specs
 * @param {import('../run/options.js').Options} options
 * @param {import('../run/drivers/registry.js').Driver} driver
 * @param {Awaited<ReturnType<typeof loadOwnApp>>} ownApp
 */
async function prepareOwnAppCells(specs, options, driver, ownApp) {
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
      const reason = refusal ?? notRunning(/** @type {NonNullable<typeof checked>} */ (checked).record);
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
  return cellsPlan(cells, measuredOptions, driver, { ownApp: cells[0].ownApp ?? null, refused });
}

/**
 * Why a checked app is not measured: it did not start, or no route answered alike on both adapters.
 * @param {import('../own-app/own-app.js').OwnAppRecord} record
 */
function notRunning({ compatibility: { startFailure } }) {
  return startFailure
    ? `the app does not start on ${startFailure.adapter}: ${startFailure.error}`
    : 'no route answers alike on both adapters';
}

/**
 * What run() takes for a run of cells.
 * @param {import('../packages/cells.js').Cell[]} cells
 * @param {import('../run/options.js').Options} options
 * @param {import('../run/drivers/registry.js').Driver} driver
 * @param {{ ownApp: import('../own-app/own-app.js').OwnAppRecord | null, refused: Array<{ key: string, reason: string }> }} extra
 */
function cellsPlan(cells, options, driver, { ownApp, refused }) {
  const runtimes = [...new Set(cells.map((cell) => cell.runtime))];
  const cpus = options.cpus && pinThisProcess(options.cpus, options.pinnedByDefault, log);
  const reason = `cells: ${cells.map((cell) => cell.key).join(', ')} (--packages ${options.packages})`;
  log(reason);
  return {
    config: cells[0].config,
    options: { ...options, cpus },
    driver,
    runtimes,
    runtimeChoice: { requested: options.runtime, specs: runtimes.map((runtime) => runtime.spec), reason },
    pairs: [...new Map(cells.flatMap((cell) => cell.pairs).map((pair) => [JSON.stringify(pair), pair])).values()],
    notApplicable: [],
    env: {},
    token: null,
    ownApp,
    cells,
    refused,
  };
}

/**
 * Measure every runtime in turn, keep results.json current, and always end with the reports, even when interrupted.
 * @param {NonNullable<Awaited<ReturnType<typeof prepare>>>} setup options as prepared: pinning as actually in force
 * @returns {Promise<number>} exit code
 */
async function run({
  config,
  options,
  driver,
  runtimes,
  runtimeChoice,
  pairs,
  notApplicable,
  env,
  token,
  ownApp,
  cells,
  refused,
}) {
  const startedAt = new Date();
  const outDir = resolve(options.outDir ?? join(config.baseDir, 'results', runStamp(startedAt)));
  // each runtime is one cell unless --packages made cells of runtimes × package sets; none without a pair to measure
  const measured =
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
  const runtimeKeys = measured.map((cell) => cell.key);
  const results = createResults({
    startedAt,
    environment: collectEnvironment({ runtimes, driverVersion: await driver.version(), cpus: options.cpus }),
    options: { ...options, driver: driver.name },
    config: configRecord(config),
    plan: { driver: driver.name, pairs, notApplicable, runtimes: runtimeKeys, runtimeChoice },
  });
  if (ownApp) results.ownApp = ownApp;
  if (options.starts > 1 && options.budgetSec !== null) results.stopRule = STOP_RULE;
  if (cells) results.packages = packagesRecord(options.packages, cells, refused);
  const writer = createResultsWriter(outDir);
  const save = () => writer.write(results);
  save();
  log(`results: ${outDir}`);

  let compared = false;
  const abort = new AbortController();
  const onSignal = (/** @type {NodeJS.Signals} */ signal) => {
    if (abort.signal.aborted) process.exit(EXIT_INTERRUPTED); // second Ctrl-C: children are killed on exit
    results.stopReason = `interrupted (${signal})`;
    log(`\n${signal}: stopping the servers and writing partial results (again to quit at once)`);
    abort.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const startSec = START_ALLOWANCE_SEC + pairs.length * options.warmupSec;
  // a budget holds the later starts; fixed rounds run in every start
  const roundsSec =
    options.budgetSec ??
    options.starts * pairs.length * options.rounds * options.durationSec + (options.starts - 1) * startSec;
  const perRuntimeSec =
    startSec + roundsSec + loadCurvePlannedSec(options, [...new Set(pairs.map((pair) => pair.scenario))]);
  const progress = createProgress(
    {
      stream: process.stderr,
      totalPlannedSec: measured.length * perRuntimeSec,
      mode: options.quiet ? 'silent' : 'live',
    },
    { wallPlanned: options.budgetSec !== null },
  );
  try {
    for (const cell of measured) {
      if (abort.signal.aborted) break;
      const cellOptions = cell.telemetryMissing === null ? options : { ...options, telemetry: false };
      await measureRuntime({
        config: cell.config,
        runtime: cell.runtime,
        runtimeKey: cell.key,
        options: cellOptions,
        driver,
        pairs: cell.pairs,
        token,
        env,
        outDir,
        results,
        save,
        progress,
        signal: abort.signal,
        standing: (block) => standing(results, block),
      });
      if (options.coldStarts && !abort.signal.aborted) {
        const compared = cell.config.compare.flatMap((name) =>
          cell.config.targets.filter((t) => t.name === name && t.command),
        );
        results.coldStarts = [
          ...(results.coldStarts ?? []),
          ...(await measureColdStarts({
            targets: compared,
            runtime: cell.runtime,
            runtimeKey: cell.key,
            options: cellOptions,
            env,
            signal: abort.signal,
            log: (line) => progress.log(line),
          })),
        ];
        save();
      }
      if (options.nestBenchmark && cells && !abort.signal.aborted) {
        const rows = await nestBenchmark(/** @type {import('../packages/cells.js').Cell} */ (cell), {
          cpus: options.cpus,
          basePort: options.basePort,
          signal: abort.signal,
          log: (line) => progress.log(line),
        });
        (results.nestBenchmark ??= []).push(...rows);
        save();
      }
    }
    results.headerDifferences = headerDifferences(results.verification);
    if (options.prof && pairs.length && !abort.signal.aborted) {
      const { profileRun } = await import('../profile/profile-targets.js');
      results.profiles = await profileRun({
        config,
        options,
        outDir,
        runtimes,
        driver,
        results,
        env,
        token,
        signal: abort.signal,
        log: (line) => progress.log(line),
      });
      if (runtimes.length > 1) {
        const { diffRuntimes } = await import('../profile/diff-files.js');
        results.profileDiffs = await diffRuntimes(results.profiles, { log: (line) => progress.log(line) });
      }
    }
    results.complete = !abort.signal.aborted;
    if (results.complete) results.stopReason = null;
  } catch (error) {
    results.stopReason = `the bench failed: ${/** @type {Error} */ (error).message}`;
    throw error;
  } finally {
    progress.done();
    results.finishedAt = new Date().toISOString();
    save();
    const { analysis, markdownFile, htmlFile } = await writeReports(outDir, results);
    compared = analysis.ratios.some((row) => row.judged && row.byRound.length > 0);
    const files = { results: writer.file, markdown: markdownFile, html: htmlFile };
    console.log(renderOutcome(results, analysis, { quiet: options.quiet, json: options.json, files }));
    const tookSec = (Date.parse(results.finishedAt) - Date.parse(results.startedAt)) / 1000;
    log(`wrote ${writer.file}, ${markdownFile}, ${htmlFile} (${formatDuration(tookSec)} in all)`);
  }
  if (abort.signal.aborted) return EXIT_INTERRUPTED;
  // a run that asked for no compared pair (--targets naming one side) is not "nothing compared"
  const askedToCompare = pairs.length === 0 || config.compare.every((name) => pairs.some((p) => p.target === name));
  if (askedToCompare && !compared) return EXIT_NOTHING_COMPARED;
  return failureCount(results) ? EXIT_FAILED : EXIT_OK;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    if (error instanceof UsageError) {
      stderrLine(error.message);
      process.exitCode = USAGE_EXIT_CODE;
    } else {
      stderrLine(error instanceof Error ? error.message : String(error));
      process.exitCode = EXIT_FAILED;
    }
  },
);
