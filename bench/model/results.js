// @ts-check
// results.json: the single source every report is rendered from, rewritten after each run so a crash loses nothing.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { designOf, upgradeDesign } from './design.js';
import { defaultMetric } from './metrics.js';
import { BARE } from './stacks.js';

export const RESULTS_FILE = 'results.json';
/**
 * The shape this bench writes. 2: every run, pair, verification and header difference has its stack, every run its
 * start; the plan holds its design; options hold starts and budgetSec; stops and, with a budget over starts, stopRule
 * are always written. Older
 * shapes are upgraded on read (upgradeResults), so no reader knows their history.
 */
export const RESULTS_SCHEMA = 2;

/**
 * Which runtimes a run measured and why.
 * @typedef {object} RuntimeChoice
 * @property {string | null} requested the --runtime text; null: the bench chose
 * @property {string[]} specs what it stood for, aliases expanded (`supported` → node@22, node@24, node@26)
 * @property {string} reason the line the terminal showed, release status included
 *
 * @typedef {object} RunRecord one timed run of one target on one scenario
 * @property {string} runtime `name@version`
 * @property {string} target
 * @property {string} scenario
 * @property {string} stack the app stack it ran with (bench/model/stacks.js)
 * @property {number} round 1-based
 * @property {number} slot position within the round, 1-based; runs loaded together share one
 * @property {string[]} [together] --pairing together: every server loaded in the same slot, by instanceName, this one's
 *   among them; their loads began together and shared the server CPU
 * @property {number} start which server start (0-based) it measured: 0 in a run that started each server once
 * @property {string} startedAt ISO time
 * @property {'ok' | 'failed' | 'too-slow'} status too-slow: no answer within the run and no error either; not a failure
 * @property {{ reason: string, exitCode?: number | null, signal?: string | null, stderrTail?: string } | null} failure
 *   what went wrong, for a too-slow run too
 * @property {number} [inFlight] a too-slow run's requests in flight: sent, never answered
 * @property {import('./records.js').LoadResult | null} load
 * @property {{ cpuUsPerRequest: number | null, peakRssMiB: number | null, peakRssWindow: 'run' | 'process' } | null} server
 * @property {{ cpuShare: number, saturated: boolean } | null} generator cpuShare: CPU seconds per second of run (1 = one core)
 * @property {{ busiest: string | null, cpuShare: number } | null} neighbours the other server that used the most CPU
 *   during the run, in CPU seconds per second
 * @property {import('./records.js').ServerState | null} state GC, heap and event loop, from the server's telemetry
 *   preload; null when the server ran without it (see `started[].telemetryMissing`)
 * @property {import('./records.js').Settling} [settle] the wait before the run for the last one's leftovers; absent
 *   when the run never began (its server was not running), or in results written before settling
 * @property {import('./records.js').HostDuringRun | null} host steal, and the work on the server's core not charged
 *   to it
 *
 * @typedef {object} Results
 * @property {number} schema
 * @property {string} startedAt
 * @property {string | null} finishedAt
 * @property {boolean} complete false while running, after Ctrl-C, or when the bench itself crashed
 * @property {string | null} stopReason why it is incomplete
 * @property {import('./records.js').Environment} environment
 * @property {Omit<import('./recorded-options.js').Options, 'driver'> & { driver: string }} options every flag, after defaults; driver: the one that ran
 * @property {import('./config.js').ConfigRecord} [config] what was measured; absent in results written before --config
 *   existed, which measured the built-in setup
 * @property {{ driver: string, pairs: import('./records.js').Pair[], notApplicable: import('./records.js').Pair[], runtimes: string[],
 *   runtimeChoice: RuntimeChoice | null, design: import('./design.js').Design }} plan runtimeChoice: null in results
 *   written before the bench chose the runtime; design: how the rounds were spent
 * @property {Array<{ runtime: string, target: string, reason: string }>} targetFailures targets that could not start
 * @property {Array<{ runtime: string, target: string, start?: number, pid: number | null, port: number, line: string,
 *   runtimeFlags?: string[], telemetryMissing?: string | null, restarted?: boolean }>} started each target's process and
 *   what it printed first (pid null: a url target), the runtime flags the bench gave it (bench/run/steady-state.js), why
 *   it ran without the telemetry preload, and whether it was started again after a route hung or crashed it
 * @property {import('./records.js').Verification[]} verification
 * @property {import('./records.js').HeaderDifference[]} headerDifferences
 * @property {RunRecord[]} runs
 * @property {Array<import('./design.js').BlockStop & { runtime: string }>} stops with --budget: how many rounds
 *   each scenario (× stack) ran and why it stopped
 * @property {Array<{ runtime: string, start: number, rounds: number, choice: import('./design.js').BlockChoice,
 *   bootSec?: number }>} [startBlocks] with --starts: the rounds each start measured, what set them and what its boot
 *   took; absent in results written before the budget recorded it
 * @property {Array<{ runtime: string, scenario: string, stack: string, start: number, rounds: number,
 *   steadyFrom: number, steady: boolean, wallSec: number, warmUpSec: number, settleSec: number,
 *   byTarget: Record<string, import('./records.js').TargetWarmUp> }>} [steadyBlocks] with --starts: each
 *   block's rounds on each start, the first that counted (after its targets' last changepoint), and each target's series
 *   and class; absent in results written before warm-up ended at a steady state
 * @property {import('./profile-record.js').ProfileRecord[]} [profiles] written by bench/profile when --prof ran
 * @property {import('./profile-record.js').ProfileDiffRecord[]} [profileDiffs] written by bench/profile when --prof ran
 *   on several runtimes: each pair's profile against the runtime before it
 * @property {Array<import('./records.js').Pair & { runtime: string, start: number, youngMiB: Array<number | null> }>}
 *   [warmUps] each pair's warm-up runs on each server start: its server's young generation after each, which stopped
 *   growing by the last (or the warm-ups ran out); absent in results written before warm-ups watched the heap
 * @property {import('./records.js').LoadCurveResults} [loadCurve] written when --load-curve ran
 * @property {import('./records.js').ColdStartRecord[]} [coldStarts] with --cold-starts: each start of each
 *   compared server, timed to its first answer, with its memory after boot
 * @property {import('./package-sets-record.js').PackagesRecord} [packages] written when --packages ran: each set as
 *   installed and each cell (runtime × set), whose key stands where a runtime's would in every other record
 * @property {import('./package-sets-record.js').NestBenchmarkRow[]} [nestBenchmark] with --nest-benchmark
 * @property {Array<{ runtime: string, targets: string[] }>} [unbooted] with starts: the servers beside the verdict
 *   that never booted, their own start not fitting in the budget
 * @property {import('./design.js').StopRule} [stopRule] written when a budget could stop rows over starts:
 *   the levels it judged and reported them at
 * @property {import('./reference-host.js').ReferenceHost[]} [referenceHosts] written when a run of the built-in app
 *   starts: the committed reference runs' headlines it is placed among (bench/bin/reference-hosts.json then)
 * @property {import('./own-app-record.js').OwnAppRecord} [ownApp] written when --nest-app ran: routes,
 *   compatibility and traffic
 * @property {import('./records.js').RouteLoad[]} [routeLoads] --nest-app: the load each route was measured with,
 *   from its single-request latency
 * @property {Array<{ runtime: string, target: string, scenario: string, stack: string, start: number, requests: number,
 *   seconds: number }>} [primes] --starts: the untimed load each server of the headline block answered alone before its
 *   first round, per start
 * @property {import('./records.js').BlockLoad[]} [blockLoads] --starts: each block's load, fitted on its first
 *   start's warm-up rounds
 * @property {import('./records.js').Drain[]} [drains] --nest-app: every load after which a server held requests,
 *   hung or exited
 */

/**
 * The parts of a record (records.js), named here too, so that a reader of Results finds them in one place.
 * @typedef {import('./records.js').LoadResult} LoadResult a timed run's load, as its generator counted it
 * @typedef {import('./records.js').ServerState} ServerState
 * @typedef {import('./records.js').GcSummary} GcSummary
 * @typedef {import('./records.js').HostDuringRun} HostDuringRun
 * @typedef {import('./records.js').HostIdentity} HostIdentity
 * @typedef {import('./records.js').CurveRunRecord} CurveRunRecord
 * @typedef {import('./records.js').LoadLevel} LoadLevel
 * @typedef {import('./records.js').CurvePlan} CurvePlan
 * @typedef {import('./records.js').OpenLoopRun} OpenLoopRun
 * @typedef {import('./records.js').Drain} Drain
 */

/**
 * A run's name on disk (results/<stamp>/, profiles/<stamp>/): its start time to the second, without colons.
 * @param {Date} startedAt
 */
export function runStamp(startedAt) {
  return startedAt.toISOString().replace(/:/g, '-').replace(/\..*$/, '');
}

/**
 * The results of a run about to start: nothing measured yet, incomplete until the run says otherwise. Stages add to
 * them through the Recorder (recorder.js).
 * @param {{ startedAt: Date } & Pick<Results, 'environment' | 'options' | 'config' | 'plan'> &
 *   Partial<Pick<Results, 'ownApp' | 'stopRule' | 'packages' | 'referenceHosts'>>} start ownApp, stopRule, packages,
 *   referenceHosts: known at plan time
 * @returns {Results}
 */
export function createResults({
  startedAt,
  environment,
  options,
  config,
  plan,
  ownApp,
  stopRule,
  packages,
  referenceHosts,
}) {
  return {
    schema: RESULTS_SCHEMA,
    startedAt: startedAt.toISOString(),
    finishedAt: null,
    complete: false,
    stopReason: 'still running',
    environment,
    options,
    config,
    plan,
    targetFailures: [],
    started: [],
    verification: [],
    headerDifferences: [],
    runs: [],
    stops: [],
    ...(ownApp ? { ownApp } : {}),
    ...(stopRule ? { stopRule } : {}),
    ...(packages ? { packages } : {}),
    ...(referenceHosts?.length ? { referenceHosts } : {}),
  };
}

/**
 * The wall seconds of the host a run took: runs loaded together share their slot's.
 * @param {RunRecord} run
 */
export function runWallSec(run) {
  return (run.load?.durationSec ?? 0) / (run.together?.length ?? 1);
}

/**
 * What went wrong in a run: targets that did not start, pairs that failed verification, failed runs (the load
 * curve's included), and --nest-app's check requests that ended the app's process. A target too slow to answer within
 * a run is reported, not failed, unless nothing was measured.
 * @param {Results} results
 */
export function failureCount(results) {
  const measuredNothing = !results.runs.some((r) => r.status === 'ok');
  return (
    results.targetFailures.length +
    (results.ownApp?.compatibility.ends?.length ?? 0) +
    results.verification.filter((v) => !v.ok).length +
    results.runs.filter((r) => r.status === 'failed' || (measuredNothing && r.status === 'too-slow')).length +
    (results.loadCurve?.runs.filter((r) => r.status === 'failed').length ?? 0)
  );
}

/** @param {string} dir */
export function createResultsWriter(dir) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, RESULTS_FILE);
  return {
    file,
    /** @param {Results} results */
    write(results) {
      // write-then-rename: a reader (or a crash) never sees half a file
      writeFileSync(`${file}.tmp`, `${JSON.stringify(results, null, 2)}\n`);
      renameSync(`${file}.tmp`, file);
    },
  };
}

/**
 * The rule of budgeted runs over starts that recorded none: stops judged and reported at 99 %, the rows measured to
 * the end at the level of their design. Their edge coverage fell short of 95 % (docs/method.md), so it is kept only to
 * rebuild their reports.
 * @type {import('./design.js').StopRule}
 */
export const RECORDED_BEFORE_STOP_RULE = Object.freeze({
  decideConfidence: 0.99,
  stoppedConfidence: 0.99,
  endConfidence: null,
});

/**
 * Results in this bench's shape from any shape it wrote before: each field that did not exist yet holds what those
 * runs did (the bare stack, one start, no budget, no stops, the stop rule of their day) or, for what they did not
 * observe (the server's state, the host, the neighbours), null, as a run that could not observe it writes.
 * @param {any} written a parsed results.json of schema 1 or RESULTS_SCHEMA
 * @returns {Results}
 */
export function upgradeResults(written) {
  return withMetrics(withDesignKind(written.schema === RESULTS_SCHEMA ? written : fromSchema1(written)));
}

/**
 * Results whose design names its kind as today: one written before the kinds were four recorded a budget over starts
 * as 'starts'.
 * @param {Results} results
 * @returns {Results}
 */
function withDesignKind(results) {
  const { design } = results.plan;
  const upgraded = upgradeDesign(design);
  return upgraded.kind === design.kind ? results : { ...results, plan: { ...results.plan, design: upgraded } };
}

/**
 * Results whose config record names each scenario's metric: one written before metrics were recorded measured a paced
 * scenario's req/s at its pace already, so the metric it takes is the one its load gives (model/metrics.js).
 * @param {Results} results
 * @returns {Results}
 */
function withMetrics(results) {
  const { config } = results;
  if (!config || config.scenarios.every((scenario) => scenario.metric)) return results;
  const scenarios = config.scenarios.map((scenario) => ({
    ...scenario,
    metric: scenario.metric ?? defaultMetric(scenario.load),
  }));
  return { ...results, config: { ...config, scenarios } };
}

/** @param {any} written a parsed results.json of schema 1 @returns {Results} */
function fromSchema1(written) {
  /** @template {{ stack?: string }} T @param {T} record */
  const stacked = (record) => ({ ...record, stack: record.stack ?? BARE });
  const options = {
    ...written.options,
    budgetSec: written.options.budgetSec ?? null,
    starts: written.options.starts ?? 1,
    burstSec: written.options.burstSec ?? 0,
    pipelining: written.options.pipelining ?? 1,
  };
  /** @param {RunRecord} run what the run did not record yet, it did not observe */
  const observed = (run) => ({
    ...stacked(run),
    start: run.start ?? 0,
    neighbours: run.neighbours ?? null,
    state: run.state ?? null,
    host: run.host ?? null,
  });
  return {
    ...written,
    schema: RESULTS_SCHEMA,
    environment: { ...written.environment, host: written.environment.host ?? null },
    options,
    plan: {
      runtimeChoice: null,
      ...written.plan,
      pairs: written.plan.pairs.map(stacked),
      notApplicable: written.plan.notApplicable.map(stacked),
      design: written.plan.design ?? designOf(options),
    },
    verification: written.verification.map(stacked),
    headerDifferences: written.headerDifferences.map(stacked),
    runs: written.runs.map(observed),
    stops: written.stops ?? [],
    ...(written.profiles ? { profiles: written.profiles.map(stacked) } : {}),
    ...(written.options.budgetSec != null && (written.options.starts ?? 1) > 1
      ? { stopRule: written.stopRule ?? RECORDED_BEFORE_STOP_RULE }
      : {}),
  };
}

/**
 * @param {string} dir
 * @returns {Results} in this bench's shape, whatever shape it was written in
 * @throws {UsageError} when the directory has no readable results.json
 */
export function readResults(dir) {
  const file = join(dir, RESULTS_FILE);
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`${file} not found; pass a directory written by npm run bench`);
  }
  let written;
  try {
    written = JSON.parse(text);
  } catch {
    throw new UsageError(`${file} is not JSON; pass a directory written by npm run bench`);
  }
  const shaped =
    typeof written?.options === 'object' && typeof written.plan === 'object' && Array.isArray(written.runs);
  if (!Number.isInteger(written?.schema) || written.schema < 1 || written.schema > RESULTS_SCHEMA || !shaped)
    throw new UsageError(`${file} is not a results file this bench reads (schema 1 to ${RESULTS_SCHEMA})`);
  return upgradeResults(written);
}
