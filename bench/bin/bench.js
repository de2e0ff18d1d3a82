#!/usr/bin/env node
// @ts-check
// `npm run bench`: flags → plan (bench-plan.js) → measure (every runtime) → results.json → reports → verdict on the
// terminal.
import { appendFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { configRecord, loadConfig } from '../model/config.js';
import { collectEnvironment } from './environment.js';
import { SLOWER_EXIT_CODE, USAGE_EXIT_CODE, UsageError } from '../errors.js';
import { slowerRows } from '../analysis/comparison.js';
import { ratioGateLines } from '../report/comparison-report.js';
import { measureRuntime } from '../run/measure.js';
import { measureColdStarts } from '../run/cold-start.js';
import { BUILTIN_RUN_CONFIG } from '../run/builtin-app.js';
import { parseCommandLine, resolveOptions } from '../run/options.js';
import { HELP } from './bench-help.js';
import { nestBenchmark } from '../packages/nest-benchmark.js';
import { packagesRecord } from '../packages/packages-record.js';
import { SET_CONFIG_SHAPE } from '../packages/set-config.js';
import { loadOwnApp } from '../own-app/own-app.js';
import { compatibilityTable } from '../report/own-app-tables.js';
import { checkChanges } from '../analysis/own-app-facts.js';
import { switchingFindingsTable } from '../report/switching-tables.js';
import { switchingCost } from '../analysis/switching-cost.js';
import { markdownTable } from '../report/rich-table.js';
import { formatDuration } from '../model/durations.js';
import { createProgress } from '../run/progress.js';
import { createResults, createResultsWriter, failureCount, runStamp } from '../model/results.js';
import { Recorder } from '../model/recorder.js';
import { blockGlance, standing } from '../analysis/analyze.js';
import { STOP_RULE } from '../analysis/starts.js';
import { renderOutcome } from '../report/outcome.js';
import { renderLogSummary } from '../report/markdown.js';
import { writeReports } from './run-reports.js';
import { committedReferenceHosts } from './reference-hosts.js';
import { headerDifferences } from '../run/verify.js';
import { planRun } from './bench-plan.js';
import { generatorVersions } from '../run/drivers/registry.js';

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
        : BUILTIN_RUN_CONFIG);
  const options = resolveOptions({ settings, names }, config);
  if (options.help) {
    console.log(HELP);
    return EXIT_OK;
  }
  const plan = await planRun(config, options, ownApp, log);
  if (plan.ownApp && plan.pairs.length === 0 && !plan.ownApp.signIn?.refused) logFindings(plan.ownApp);
  return run(plan);
}

/**
 * Why an app's run compares nothing, on the terminal: what switching would cost, and each route's compatibility.
 * @param {import('../model/own-app-record.js').OwnAppRecord} ownApp
 */
function logFindings(ownApp) {
  const cost = switchingCost(ownApp, [], []);
  if (cost) log(markdownTable(switchingFindingsTable(cost)));
  log(markdownTable(compatibilityTable(checkChanges(ownApp))));
}

/**
 * Measure every runtime in turn, keep results.json current, and always end with the reports, even when interrupted.
 * @param {import('./bench-plan.js').RunPlan} plan
 * @returns {Promise<number>} exit code
 */
async function run(plan) {
  const { config, options, pairs } = plan;
  const startedAt = new Date();
  const outDir = resolve(options.outDir ?? join(config.baseDir, 'results', runStamp(startedAt)));
  const writer = createResultsWriter(outDir);
  const record = new Recorder(await startRecord(plan, startedAt), (results) => writer.write(results));
  record.save();
  // the bench's own failure while checking the app: the reports say the results are incomplete, and why
  if (plan.failure) {
    record.stopped(plan.failure);
    stderrLine(plan.failure);
  }
  log(`results: ${outDir}`);
  const signal = interruptOnSignal(record);
  const progress = createProgress(
    {
      stream: process.stderr,
      totalPlannedSec: plan.measured.length * plan.plannedSecPerRuntime,
      mode: options.quiet ? 'silent' : 'live',
    },
    { wallPlanned: plan.design.budgetPerRuntimeSec !== null },
  );
  const context = { record, outDir, signal, log: (/** @type {string} */ line) => progress.log(line) };
  /** @type {Awaited<ReturnType<typeof finish>> | null} */
  let finished = null;
  try {
    for (const cell of plan.measured) {
      if (signal.aborted) break;
      await measureCell(plan, cell, { ...context, progress });
    }
    record.headerDifferences(headerDifferences(record.results.verification));
    if (options.prof && pairs.length && !signal.aborted) await profileAll(plan, context);
    if (!signal.aborted && !plan.failure) record.completed();
  } catch (error) {
    record.stopped(`the bench failed: ${/** @type {Error} */ (error).message}`);
    throw error;
  } finally {
    progress.done();
    finished = await finish(record, { writer, outDir, options });
  }
  const { compared, analysis } = finished;
  if (signal.aborted) return EXIT_INTERRUPTED;
  // the setup's mistake: bad input, said in one line as before anything is checked, with the reports written
  const refused = plan.ownApp?.signIn?.refused;
  if (refused) stderrLine(refused);
  if (refused) return USAGE_EXIT_CODE;
  if (plan.failure) return EXIT_FAILED;
  // a run that asked for no compared pair (--targets naming one side) is not "nothing compared"
  if (plan.asksToCompare && !compared) return EXIT_NOTHING_COMPARED;
  if (typeof options.failIfSlower === 'number' && gateFails(analysis, options.failIfSlower)) return SLOWER_EXIT_CODE;
  return failureCount(record.results) ? EXIT_FAILED : EXIT_OK;
}

/**
 * The results of a run about to start: its plan, and its design as resolved.
 * @param {import('./bench-plan.js').RunPlan} plan @param {Date} startedAt
 */
async function startRecord(
  {
    config,
    options,
    design,
    driver,
    runtimes,
    runtimeChoice,
    pairs,
    notApplicable,
    ownApp,
    measured,
    cells,
    refused,
    protocols,
  },
  startedAt,
) {
  const driverVersion = await driver.version();
  return createResults({
    startedAt,
    environment: collectEnvironment({
      runtimes,
      driverVersion,
      generators: await generatorVersions(driverVersion, protocols),
      cpus: options.cpus,
    }),
    options: { ...options, driver: driver.name },
    config: configRecord(config),
    plan: {
      driver: driver.name,
      pairs,
      notApplicable,
      runtimes: measured.map((cell) => cell.key),
      runtimeChoice,
      design,
    },
    ...(ownApp ? { ownApp } : {}),
    ...(design.kind === 'budgeted-starts' ? { stopRule: STOP_RULE } : {}),
    ...(cells ? { packages: packagesRecord(options.packages, cells, refused) } : {}),
    // the built-in app's headline is placed among the committed hosts' (analysis/host-placing.js)
    ...(config.source === BUILTIN_RUN_CONFIG.source ? { referenceHosts: committedReferenceHosts() } : {}),
  });
}

/**
 * Ctrl-C (or SIGTERM) stops the run and keeps what it measured; a second one quits at once.
 * @param {import('../model/recorder.js').Recorder} record
 */
function interruptOnSignal(record) {
  const abort = new AbortController();
  const onSignal = (/** @type {NodeJS.Signals} */ signal) => {
    if (abort.signal.aborted) process.exit(EXIT_INTERRUPTED); // second Ctrl-C: children are killed on exit
    record.stopped(`interrupted (${signal})`);
    log(`\n${signal}: stopping the servers and writing partial results (again to quit at once)`);
    abort.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return abort.signal;
}

/**
 * @typedef {object} RunContext
 * @property {import('../model/recorder.js').Recorder} record
 * @property {string} outDir
 * @property {AbortSignal} signal
 * @property {(line: string) => void} log
 */

/**
 * One runtime (or cell): its timed rounds, then --cold-starts and --nest-benchmark on it.
 * @param {import('./bench-plan.js').RunPlan} plan @param {import('./bench-plan.js').MeasuredCell} cell
 * @param {RunContext & { progress: ReturnType<typeof createProgress> }} context
 */
async function measureCell(
  { options, design, driver, token, env, cells },
  cell,
  { record, outDir, signal, log, progress },
) {
  const cellOptions = cell.telemetryMissing === null ? options : { ...options, telemetry: false };
  await measureRuntime({
    config: cell.config,
    runtime: cell.runtime,
    runtimeKey: cell.key,
    options: cellOptions,
    design,
    driver,
    pairs: cell.pairs,
    token,
    env,
    outDir,
    record,
    progress,
    signal,
    standing: (block) => standing(record.results, block),
    glance: (block) => blockGlance(record.results, block),
  });
  if (options.coldStarts && !signal.aborted) {
    record.coldStarts(
      await measureColdStarts({
        targets: cell.coldStartTargets,
        runtime: cell.runtime,
        runtimeKey: cell.key,
        options: cellOptions,
        env,
        signal,
        log,
      }),
    );
  }
  if (options.nestBenchmark && cells && !signal.aborted) {
    const rows = await nestBenchmark(cell, {
      cpus: options.cpus,
      basePort: options.basePort,
      signal,
      log,
    });
    record.nestBenchmark(rows);
  }
}

/**
 * --prof: every pair profiled after the timed runs, and with several runtimes each against the one before it.
 * @param {import('./bench-plan.js').RunPlan} plan @param {RunContext} context
 */
async function profileAll({ config, options, runtimes, driver, env, resolved }, { record, outDir, signal, log }) {
  const { profileRun } = await import('../profile/profile-targets.js');
  const { results } = record;
  const profiles = await profileRun({ config, options, outDir, runtimes, driver, resolved, results, env, signal, log });
  record.profiles(profiles);
  if (runtimes.length > 1) {
    const { diffRuntimes } = await import('../profile/diff-files.js');
    record.profileDiffs(await diffRuntimes(profiles, { log }));
  }
}

/**
 * The run's end, whatever ended it: results.json written for the last time, the reports, the outcome on stdout.
 * @param {import('../model/recorder.js').Recorder} record
 * @param {{ writer: ReturnType<typeof createResultsWriter>, outDir: string, options: import('../run/options.js').Options }} run
 * @returns {Promise<{ compared: boolean, analysis: import('../analysis/analyze.js').Analysis }>} compared: whether a
 *   judged pair was compared
 */
async function finish(record, { writer, outDir, options }) {
  const finishedAt = new Date();
  record.finished(finishedAt);
  const { results } = record;
  const { analysis, markdownFile, htmlFile } = await writeReports(outDir, results);
  const files = { results: writer.file, markdown: markdownFile, html: htmlFile };
  const terminal = Boolean(process.stdout.isTTY);
  console.log(renderOutcome(analysis, { quiet: options.quiet, json: options.json, terminal, files }));
  // GitHub Actions renders this file on the run's page
  if (process.env.GITHUB_STEP_SUMMARY)
    appendFileSync(
      process.env.GITHUB_STEP_SUMMARY,
      `${renderLogSummary(analysis)}\nThe whole report: ${markdownFile}\n`,
    );
  const tookSec = (finishedAt.getTime() - Date.parse(results.startedAt)) / 1000;
  log(`wrote ${writer.file}, ${markdownFile}, ${htmlFile} (${formatDuration(tookSec)} in all)`);
  return { compared: analysis.ratios.some((row) => row.judged && row.byRound.length > 0), analysis };
}

/**
 * --fail-if-slower: each compared row whose whole interval lies below 1 − fraction, named on stderr and on the
 * workflow run's page.
 * @param {import('../analysis/analyze.js').Analysis} analysis @param {number} fraction
 * @returns {boolean} whether any did
 */
function gateFails(analysis, fraction) {
  const slower = slowerRows(analysis.ratios, fraction);
  const lines = ratioGateLines(slower, fraction, analysis.compared);
  for (const line of lines) stderrLine(line);
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${lines.join('\n\n')}\n`);
  return slower.length > 0;
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
