// @ts-check
// From raw run records to what the reports show: per-target summaries and per-round ratios with intervals.
import { refusalOf } from './refusals.js';
import { switchingCost } from '../own-app/switching.js';
import { switchAtRate } from './switch-at-rate.js';
import { startupRows } from './startup.js';
import { pairState, targetState } from './server-state.js';
import { median } from '../maths/quantile.js';
import { CONFIDENCE, correlation, shiftInterval, summarize } from './stats.js';
import { analyzeLoadCurve } from './latency-curve.js';
import { sequentialSummary } from './sequential.js';
import { BUDGETED_STARTS_CONFIDENCE, analyzeStarts } from './starts.js';
import { FAILED_ANSWER_LIMIT, measuredVerdict, verdict } from './verdict.js';
import { BUILTIN_CONFIG } from '../model/builtin-config.js';
import { configRecord } from '../model/config.js';
import { PRODUCTION, omittedPart } from '../model/stacks.js';
import { runtimeLabel } from '../runtimes/release-status.js';

/** @typedef {import('../model/results.js').Results} Results */
/** @typedef {import('../model/results.js').RunRecord} RunRecord */
/** @typedef {import('../model/design.js').BlockStop} Stop */
/** @typedef {ReturnType<typeof summarize>} Summary */
/** @typedef {import('../model/results.js').LoadResult} LoadResult */

/**
 * A ratio of two targets' req/s, taken within each round (where both ran), so slow drift of the machine cancels.
 * @typedef {object} RatioSpec
 * @property {'adapters' | 'overhead' | 'baseline'} kind
 * @property {string} numerator
 * @property {string} denominator
 * @property {boolean} judged whether the docs' claim is judged on it
 */

/** @param {Results} results */
function measuredConfig(results) {
  return results.config ?? configRecord(BUILTIN_CONFIG);
}

/**
 * The ratios a config asks for: the judged pair, pairs shown beside it, what a framework costs over its bare server.
 * Results from before --config existed measured the built-in setup.
 * @param {Results} results
 * @returns {{ specs: RatioSpec[], baseline: string | null }} baseline: every other target is also shown against it
 */
function ratioSpecs(results) {
  const config = measuredConfig(results);
  /** @param {RatioSpec['kind']} kind @param {boolean} judged */
  const spec =
    (kind, judged) =>
    (/** @type {[string, string]} */ [numerator, denominator]) => ({ kind, numerator, denominator, judged });
  return {
    specs: [
      spec('adapters', true)(config.compare),
      ...config.alsoCompare.map(spec('adapters', false)),
      ...config.overhead.map(spec('overhead', false)),
    ],
    baseline: config.baseline,
  };
}
/**
 * A server that is not being measured and uses more than this share of a core during a run takes that much from the
 * measured one: they share the server CPU.
 */
export const NEIGHBOUR_CPU_LIMIT = 0.01;

/**
 * @typedef {object} TargetRow
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} stack
 * @property {string} target
 * @property {number} okRuns
 * @property {number} failedRuns too slow runs not included
 * @property {TooSlow | null} tooSlow runs where the target answered nothing within the run
 * @property {Summary} rps over the rounds
 * @property {number[]} rpsByRound the successful rounds' req/s, in round order
 * @property {number[]} startByRound the server start (0-based) of each of rpsByRound
 * @property {import('./starts.js').StartAnalysis | null} starts per-start req/s and the variance split; null when the
 *   run started each server once
 * @property {{ p50: number, p90: number, p99: number, p999: number | null }} latencyMs medians over the rounds
 * @property {number} errors totals over the rounds
 * @property {number} timeouts
 * @property {number} unexpectedStatus responses with another status than the scenario's
 * @property {number} failedShare highest share of failed requests (errors, timeouts, unexpected statuses) in a run
 * @property {number | null} cpuUsPerRequest median
 * @property {number | null} peakRssMiB highest
 * @property {number} generatorShare highest share of a core the generator used
 * @property {number} saturatedRuns runs where the generator may have been the bottleneck
 * @property {string[]} warnings distinct driver warnings
 * @property {import('./server-state.js').TargetState | null} state the server's own telemetry over the rounds; null
 *   when none was recorded
 *
 * Runs where a target answered nothing, refused nothing, and so was slower than the run was long.
 * @typedef {object} TooSlow
 * @property {number[]} rounds
 * @property {number} durationSec --duration, the run's planned length
 * @property {number} inFlight requests it was sent and never answered in each run: one per connection and pipelined slot
 *
 * The ratio of the rounds where the numerator ran first against those where the denominator did.
 * @typedef {object} OrderEffect
 * @property {{ n: number, median: number }} numeratorFirst
 * @property {{ n: number, median: number }} denominatorFirst
 * @property {(import('./stats.js').Interval & { estimate: number }) | null} shift of the log ratio, from numerator-first
 *   to denominator-first rounds
 * @property {boolean} differs the shift's interval excludes no change, at the full confidence
 *
 * @typedef {object} RatioRow
 * @property {RatioSpec['kind']} kind
 * @property {string} numerator
 * @property {string} denominator
 * @property {boolean} judged
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} stack both targets ran with it
 * @property {Summary} summary over the paired rounds
 * @property {number[]} byRound the paired rounds' ratios, in round order
 * @property {number[]} startByRound the server start (0-based) each of byRound measured
 * @property {import('./starts.js').StartAnalysis | null} starts per-start ratios, the variance split between starts
 *   and within a start, and the interval with the start as the unit, which is the summary's when there are several
 *   starts; null when the run started each server once
 * @property {import('./verdict.js').Verdict | null} verdict after the conditions below; null when not judged; 'too slow'
 *   when either target answered nothing within a run of some round
 * @property {import('./verdict.js').Verdict | null} measuredVerdict what the numbers alone say
 * @property {number | null} pairCorrelation of the two targets' log req/s across rounds; near 1, the machine's swings
 *   hit both runs of a round alike and the per-round ratio cancels them
 * @property {number[]} missingRounds planned rounds without a successful run of both targets
 * @property {Array<{ target: string } & TooSlow>} tooSlow the pair's targets that answered nothing in some round
 * @property {number[]} failedAnswerRounds rounds where either side's failed requests exceeded FAILED_ANSWER_LIMIT
 * @property {boolean} someFailedAnswers any failed request at all in the paired rounds, below the limit or not
 * @property {number[]} saturatedRounds rounds where the generator was saturated on either side
 * @property {number[]} neighbourRounds rounds where another server used more than NEIGHBOUR_CPU_LIMIT during either run
 * @property {number} neighbourShare the most CPU (share of a core) any other server used during one of these runs
 * @property {OrderEffect | null} order null when the two targets were never both measured in a round
 * @property {import('./server-state.js').PairState} state heap steps, memory-reducing collections and steal in the
 *   paired rounds
 * @property {Stop | null} stop with --budget: the rounds its scenario ran and why it stopped; null in a fixed design
 *   or while it still runs
 *
 * What one part of the production stack costs a target: its server CPU per request with the whole stack against
 * without that part, in the same rounds.
 * @typedef {object} AblationRow
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} target
 * @property {string} part
 * @property {Summary} cpuRatio per round: CPU µs/request without the part ÷ with the whole production stack
 * @property {number} costShare 1 − cpuRatio's median: the part's share of a request's CPU
 * @property {{ low: number, high: number } | null} costInterval from cpuRatio's interval
 * @property {number | null} productionCpuUs median CPU µs/request with the whole stack
 *
 * What a mix run sent, per route, summed over the rounds.
 * @typedef {object} MixRow
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} stack
 * @property {string} target
 * @property {Record<string, number>} sentByRoute
 * @property {number} sent
 * @property {number} answered responses with the expected statuses, over the rounds
 *
 * @typedef {object} Analysis
 * @property {string[]} runtimes
 * @property {Record<string, string>} runtimeLabels each runtime with its release status on the run's date:
 *   `node@20.20.2 (end of life since 2026-04-30)`
 * @property {boolean} budgeted the rounds ran under --budget with one start: intervals are group-sequential
 * @property {number} starts server starts per runtime (--starts): above 1, intervals take the start as their unit
 * @property {import('./starts.js').StopRule | null} stopRule the levels a budget with starts stopped rows at, and
 *   reported them at; null without looks
 * @property {boolean} together the compared pair's runs were loaded together (--pairing together)
 * @property {string[]} scenarios
 * @property {string[]} stacks in plan order: the stacks, then the ablation variants; ["bare"] before stacks existed
 * @property {string[]} targets
 * @property {string | null} baseline the target every other is shown as a share of
 * @property {{ numerator: string, denominator: string, builtIn: boolean }} compared the judged pair; builtIn: the Nest
 *   pair of the built-in setup, which the reports call by its adapters' names
 * @property {string[]} remoteTargets url targets: measured for load only, their CPU and memory are not ours to read
 * @property {TargetRow[]} targetRows
 * @property {RatioRow[]} ratios
 * @property {import('./refusals.js').Refusal[]} refusals compared pairs whose timed answers were mostly refusals (429,
 *   401, 503): findings, left out of the ratios
 * @property {import('./latency-curve.js').LoadCurveAnalysis | null} loadCurve null without --load-curve
 * @property {AblationRow[]} ablation
 * @property {MixRow[]} mixes
 * @property {import('../own-app/switching.js').SwitchingCost | null} switching what switching costs; null without --nest-app
 * @property {import('./startup.js').StartupRow[]} startup cold start and memory per adapter; empty without --cold-starts
 */

/**
 * How a run's rounds were planned: a fixed number, or under a budget, where the rounds a scenario got depend on what
 * they showed, and every interval is group-sequential (bench/analysis/sequential.js).
 * @param {Results} results
 */
function designOf(results) {
  const starts = results.options.starts;
  // one start under a budget: the per-round group-sequential rule looks after each pair of rounds; with several
  // starts only the start-level stop rule looks, and the per-round summary is only a fallback
  const budgeted = typeof results.options.budgetSec === 'number' && starts === 1;
  const looks = typeof results.options.budgetSec === 'number' && starts > 1;
  // the stricter level pays for rounds per start chosen from the data; results without startBlocks count as chosen so
  const startsAdaptive = looks && (results.startBlocks?.some((block) => block.choice === 'variance') ?? true);
  /** @param {string} runtime @param {string} scenario @param {string} stack */
  const stopOf = (runtime, scenario, stack) =>
    results.stops.find((s) => s.runtime === runtime && s.scenario === scenario && s.stack === stack) ?? null;
  // written with every budget over starts, the only design that reads it
  const stopRule = /** @type {import('./starts.js').StopRule} */ (results.stopRule);
  const endConfidence = startsAdaptive
    ? BUDGETED_STARTS_CONFIDENCE
    : looks
      ? (stopRule.endConfidence ?? CONFIDENCE)
      : CONFIDENCE;
  return {
    budgeted,
    starts,
    looks,
    /** the rule as this run's rows were reported: its end level resolved for the design */
    stopRule: { ...stopRule, endConfidence },
    /**
     * A row the starts stopped once it was decided is reported at the stop rule's level for stopped rows; one measured
     * to the end at its end level.
     * @param {string} runtime @param {string} scenario @param {string} stack
     * @returns {number}
     */
    startsConfidenceOf: (runtime, scenario, stack) =>
      starts > 1 && stopOf(runtime, scenario, stack)?.stoppedOn === 'decided'
        ? stopRule.stoppedConfidence
        : endConfidence,
    summarize: budgeted ? sequentialSummary : summarize,
    stopOf,
  };
}

/**
 * Where a scenario's verdict stands after the runs recorded so far, for the budgeted loops: decided when the numbers
 * alone give a band, unjudged when the scenario has no judged pair. Over starts, its interval is taken at the level a
 * stop is judged at (the run's stop rule).
 * @param {Results} results
 * @param {{ runtime: string, scenario: string, stack: string }} block
 * @returns {import('../model/design.js').Standing}
 */
export function standing(results, { runtime, scenario, stack }) {
  const judged = ratioSpecs(results).specs.find((spec) => spec.judged);
  const runs = results.runs.filter(
    (run) => run.runtime === runtime && run.scenario === scenario && run.stack === stack,
  );
  const rounds = Math.max(0, ...runs.map((run) => run.round));
  const designed = designOf(results);
  const design = { ...designed, startsConfidenceOf: () => designed.stopRule.decideConfidence };
  const row = judged && ratioRow(runtime, scenario, stack, judged, runs, rounds, design, results.options.durationSec);
  if (!row) return 'unjudged';
  // more rounds of the same length cannot give a too-slow target the time to answer
  return row.measuredVerdict === 'inconclusive' && row.verdict !== 'too slow' ? 'undecided' : 'decided';
}

/**
 * @param {Results} results
 * @returns {Analysis}
 */
export function analyze(results) {
  const runtimes = results.plan.runtimes;
  const { scenarios, targets } = results.options;
  const { specs, baseline } = ratioSpecs(results);
  const design = designOf(results);
  /** @type {TargetRow[]} */
  const targetRows = [];
  /** @type {RatioRow[]} */
  const ratios = [];
  /** @type {import('./refusals.js').Refusal[]} */
  const refusals = [];
  const stacks = [...new Set([...results.plan.pairs, ...results.runs].map((record) => record.stack))];
  for (const runtime of runtimes) {
    for (const scenario of scenarios) {
      for (const stack of stacks) {
        const runs = results.runs.filter(
          (run) => run.runtime === runtime && run.scenario === scenario && run.stack === stack,
        );
        for (const target of targets) {
          const own = runs.filter((run) => run.target === target);
          if (own.length)
            targetRows.push(
              summarizeTarget(runtime, scenario, stack, target, own, design, results.options.durationSec),
            );
        }
        const baselineRatios =
          baseline === null
            ? []
            : targets
                .filter((t) => t !== baseline)
                .map((numerator) => ({
                  kind: /** @type {const} */ ('baseline'),
                  numerator,
                  denominator: baseline,
                  judged: false,
                }));
        for (const spec of [...specs, ...baselineRatios]) {
          // a pair whose answers were mostly refusals measured the refusal: a finding, never a ratio
          const refusal = refusalOf(
            runs,
            { runtime, scenario, stack },
            [spec.numerator, spec.denominator],
            results.ownApp?.scan ?? null,
          );
          if (refusal) {
            if (spec.judged) refusals.push(refusal);
            continue;
          }
          // a fixed design with --starts ran its --rounds in every start
          const rounds =
            typeof results.options.budgetSec === 'number'
              ? (design.stopOf(runtime, scenario, stack)?.rounds ?? Math.max(0, ...runs.map((run) => run.round)))
              : results.options.rounds * design.starts;
          const row = ratioRow(runtime, scenario, stack, spec, runs, rounds, design, results.options.durationSec);
          if (row) ratios.push(row);
        }
      }
    }
  }
  const config = measuredConfig(results);
  const [numerator, denominator] = config.compare;
  const builtIn = config.source === BUILTIN_CONFIG.source;
  return {
    runtimes,
    runtimeLabels: Object.fromEntries(
      runtimes.map((key) => [key, runtimeLabel(key, results.startedAt, results.environment?.runtimes)]),
    ),
    budgeted: design.budgeted,
    starts: design.starts,
    stopRule: design.looks ? design.stopRule : null,
    together: results.runs.some((run) => run.together),
    scenarios,
    stacks,
    targets,
    baseline,
    compared: { numerator, denominator, builtIn },
    remoteTargets: config.targets.filter((t) => t.kind === 'url').map((t) => t.name),
    targetRows,
    ratios,
    refusals,
    ablation: ablationRows(results, stacks),
    mixes: mixRows(results),
    loadCurve: analyzeLoadCurve(results),
    switching: switchingCost(results.ownApp, ratios, switchAtRate(results)),
    startup: startupRows(results),
  };
}

/**
 * @param {RunRecord} run
 * @returns {number | null}
 */
const cpuOf = (run) => (run.status === 'ok' ? (run.server?.cpuUsPerRequest ?? null) : null);

/**
 * Each ablation variant against the whole production stack, per runtime, scenario and target.
 * @param {Results} results @param {string[]} stacks
 * @returns {AblationRow[]}
 */
function ablationRows(results, stacks) {
  const variants = stacks.filter((stack) => omittedPart(stack) !== null);
  /** @type {AblationRow[]} */
  const rows = [];
  const keys = new Set(results.runs.map((run) => `${run.runtime}\u0000${run.scenario}\u0000${run.target}`));
  for (const key of keys) {
    const [runtime, scenario, target] = key.split('\u0000');
    const own = results.runs.filter(
      (run) => run.runtime === runtime && run.scenario === scenario && run.target === target,
    );
    const cpuByRound = (/** @type {string} */ stack) =>
      new Map(own.filter((run) => run.stack === stack && cpuOf(run) !== null).map((run) => [run.round, cpuOf(run)]));
    const production = cpuByRound(PRODUCTION);
    for (const variant of variants) {
      const without = cpuByRound(variant);
      const ratios = [...without].flatMap(([round, cpu]) => {
        const whole = production.get(round);
        return whole && cpu ? [cpu / whole] : [];
      });
      if (ratios.length === 0) continue;
      const cpuRatio = summarize(ratios);
      rows.push({
        runtime,
        scenario,
        target,
        part: /** @type {string} */ (omittedPart(variant)),
        cpuRatio,
        costShare: 1 - cpuRatio.median,
        costInterval: cpuRatio.ci && { low: 1 - cpuRatio.ci.high, high: 1 - cpuRatio.ci.low },
        productionCpuUs: production.size ? median(/** @type {number[]} */ ([...production.values()])) : null,
      });
    }
  }
  return rows;
}

/**
 * The requests each mix run sent per route, summed over a target's rounds.
 * @param {Results} results
 * @returns {MixRow[]}
 */
function mixRows(results) {
  /** @type {Map<string, MixRow>} */
  const rows = new Map();
  for (const run of results.runs) {
    const sentByRoute = run.status === 'ok' ? run.load?.sentByRoute : undefined;
    if (!sentByRoute || !run.load) continue;
    const stack = run.stack;
    const key = [run.runtime, run.scenario, stack, run.target].join('\u0000');
    const row = rows.get(key) ?? {
      runtime: run.runtime,
      scenario: run.scenario,
      stack,
      target: run.target,
      sentByRoute: {},
      sent: 0,
      answered: 0,
    };
    for (const [route, count] of Object.entries(sentByRoute)) {
      row.sentByRoute[route] = (row.sentByRoute[route] ?? 0) + count;
      row.sent += count;
    }
    row.answered += Math.round(run.load.rps * run.load.durationSec);
    rows.set(key, row);
  }
  return [...rows.values()];
}

/**
 * @param {string} runtime @param {string} scenario @param {string} stack @param {string} target
 * @param {RunRecord[]} runs
 * @param {ReturnType<typeof designOf>} design
 * @param {number} durationSec --duration
 * @returns {TargetRow}
 */
function summarizeTarget(runtime, scenario, stack, target, runs, design, durationSec) {
  const ok = runs.filter((run) => run.status === 'ok' && run.load);
  const loads = ok.map((run) => /** @type {import('../model/results.js').LoadResult} */ (run.load));
  const medianOf = (/** @type {(number | null | undefined)[]} */ values) => {
    const present = /** @type {number[]} */ (values.filter((v) => typeof v === 'number'));
    return present.length ? median(present) : null;
  };
  const sum = (/** @type {(load: import('../model/results.js').LoadResult) => number} */ pick) =>
    loads.reduce((total, load) => total + pick(load), 0);
  const peaks = /** @type {number[]} */ (ok.map((run) => run.server?.peakRssMiB).filter((v) => typeof v === 'number'));
  const tooSlow = tooSlowRuns(runs, durationSec);
  const rpsByRound = loads.map((load) => load.rps);
  const startByRound = ok.map((run) => run.start);
  const rps = startsSummary(rpsByRound, startByRound, design, design.startsConfidenceOf(runtime, scenario, stack));
  return {
    runtime,
    scenario,
    stack,
    target,
    okRuns: ok.length,
    failedRuns: runs.length - ok.length - (tooSlow?.rounds.length ?? 0),
    tooSlow,
    rps: rps.summary,
    rpsByRound,
    startByRound,
    starts: rps.starts,
    latencyMs: {
      p50: medianOf(loads.map((l) => l.latencyMs.p50)) ?? NaN,
      p90: medianOf(loads.map((l) => l.latencyMs.p90)) ?? NaN,
      p99: medianOf(loads.map((l) => l.latencyMs.p99)) ?? NaN,
      p999: medianOf(loads.map((l) => l.latencyMs.p999)),
    },
    errors: sum((l) => l.errors),
    timeouts: sum((l) => l.timeouts),
    unexpectedStatus: sum((l) => l.unexpectedStatus),
    failedShare: Math.max(0, ...loads.map(failedShare)),
    cpuUsPerRequest: medianOf(ok.map((run) => run.server?.cpuUsPerRequest)),
    peakRssMiB: peaks.length ? Math.max(...peaks) : null,
    generatorShare: Math.max(0, ...ok.map((run) => run.generator?.cpuShare ?? 0)),
    saturatedRuns: ok.filter((run) => run.generator?.saturated).length,
    warnings: [...new Set(loads.flatMap((l) => l.warnings ?? []))],
    state: targetState(runs),
  };
}

/**
 * @param {RunRecord[]} runs one target's
 * @param {number} durationSec --duration
 * @returns {TooSlow | null}
 */
function tooSlowRuns(runs, durationSec) {
  const slow = runs.filter((run) => run.status === 'too-slow');
  if (slow.length === 0) return null;
  return {
    rounds: slow.map((run) => run.round),
    durationSec,
    inFlight: Math.max(...slow.map((run) => run.inFlight ?? 0)),
  };
}

/**
 * @param {string} runtime @param {string} scenario @param {string} stack @param {RatioSpec} spec
 * @param {RunRecord[]} runs of this runtime, scenario and stack
 * @param {number} plannedRounds
 * @param {ReturnType<typeof designOf>} design
 * @param {number} durationSec --duration
 * @returns {RatioRow | null} null when neither target ran the scenario
 */
function ratioRow(runtime, scenario, stack, spec, runs, plannedRounds, design, durationSec) {
  /** @param {string} target */
  const byRound = (target) =>
    new Map(
      runs.filter((run) => run.target === target && run.status === 'ok' && run.load).map((run) => [run.round, run]),
    );
  const top = byRound(spec.numerator);
  const bottom = byRound(spec.denominator);
  if (!runs.some((run) => run.target === spec.numerator) || !runs.some((run) => run.target === spec.denominator))
    return null;
  const values = [];
  const startByRound = [];
  /** @type {[number[], number[]]} */
  const logRps = [[], []];
  /** @type {{ numerator: number[], denominator: number[] }} ratios by which target ran first */
  const byOrder = { numerator: [], denominator: [] };
  const missingRounds = [];
  const failedAnswerRounds = [];
  const saturatedRounds = [];
  const neighbourRounds = [];
  /** @type {Parameters<typeof pairState>[0]} */
  const paired = [];
  let someFailedAnswers = false;
  let neighbourShare = 0;
  for (let round = 1; round <= plannedRounds; round++) {
    const run = top.get(round);
    const other = bottom.get(round);
    const above = run?.load?.rps;
    const below = other?.load?.rps;
    if (!run || !other || !above || !below) {
      missingRounds.push(round);
      continue;
    }
    values.push(above / below);
    startByRound.push(run.start);
    paired.push({ round, numerator: run, denominator: other });
    logRps[0].push(Math.log(above));
    logRps[1].push(Math.log(below));
    // runs loaded together share their slot: neither went first
    if (run.slot !== other.slot) (run.slot < other.slot ? byOrder.numerator : byOrder.denominator).push(above / below);
    const pair = [run, other];
    if (pair.some((r) => failedShare(/** @type {LoadResult} */ (r.load)) > FAILED_ANSWER_LIMIT))
      failedAnswerRounds.push(round);
    someFailedAnswers ||= pair.some((r) => failedShare(/** @type {LoadResult} */ (r.load)) > 0);
    if (pair.some((r) => r.generator?.saturated)) saturatedRounds.push(round);
    const neighbours = Math.max(...pair.map((r) => r.neighbours?.cpuShare ?? 0));
    if (neighbours > NEIGHBOUR_CPU_LIMIT) neighbourRounds.push(round);
    neighbourShare = Math.max(neighbourShare, neighbours);
  }
  const { summary, starts } = startsSummary(
    values,
    startByRound,
    design,
    design.startsConfidenceOf(runtime, scenario, stack),
  );
  const conditions = { failedAnswers: failedAnswerRounds.length > 0, saturated: saturatedRounds.length > 0 };
  const tooSlow = [spec.numerator, spec.denominator].flatMap((target) => {
    const slow = tooSlowRuns(
      runs.filter((run) => run.target === target),
      durationSec,
    );
    return slow ? [{ target, ...slow }] : [];
  });
  return {
    ...spec,
    runtime,
    scenario,
    stack,
    summary,
    byRound: values,
    startByRound,
    starts,
    verdict: spec.judged ? (tooSlow.length ? 'too slow' : verdict(summary, conditions)) : null,
    measuredVerdict: spec.judged ? measuredVerdict(summary) : null,
    pairCorrelation: correlation(...logRps),
    missingRounds,
    tooSlow,
    failedAnswerRounds,
    someFailedAnswers,
    saturatedRounds,
    neighbourRounds,
    neighbourShare,
    order: orderEffect(byOrder.numerator, byOrder.denominator),
    state: pairState(paired),
    stop: design.stopOf(runtime, scenario, stack),
  };
}

/**
 * The summary of a series with the design's unit: with several starts, the per-start analysis, its estimate and its
 * interval (the start as the unit) in place of the per-round ones.
 * @param {number[]} values positive, in round order @param {number[]} startByRound
 * @param {ReturnType<typeof designOf>} design @param {number} confidence the start-level interval's
 * @returns {{ summary: Summary, starts: import('./starts.js').StartAnalysis | null }}
 */
function startsSummary(values, startByRound, design, confidence) {
  const rounds = design.summarize(values);
  if (design.starts === 1) return { summary: rounds, starts: null };
  const starts = analyzeStarts(values, startByRound, confidence);
  const interval = starts.interval;
  // coverage: what the design holds, which under the budget is 95 % at the stricter level; nothing is widened, since
  // rounds of one start correlate through its level, which the starts' spread already holds
  const summary = interval
    ? {
        ...rounds,
        median: interval.estimate,
        ci: { low: interval.low, high: interval.high, coverage: CONFIDENCE },
        widened: false,
      }
    : { ...rounds, ci: null, widened: false };
  return { summary, starts };
}

/**
 * @param {number[]} numeratorFirst ratios of the rounds where the numerator ran first
 * @param {number[]} denominatorFirst
 * @returns {OrderEffect | null}
 */
function orderEffect(numeratorFirst, denominatorFirst) {
  if (!numeratorFirst.length && !denominatorFirst.length) return null;
  const shift = shiftInterval(numeratorFirst.map(Math.log), denominatorFirst.map(Math.log));
  return {
    numeratorFirst: { n: numeratorFirst.length, median: median(numeratorFirst) },
    denominatorFirst: { n: denominatorFirst.length, median: median(denominatorFirst) },
    shift,
    differs: Boolean(shift && shift.coverage >= CONFIDENCE && (shift.low > 0 || shift.high < 0)),
  };
}

/**
 * The share of a run's requests that did not get the expected answer: connection errors, timeouts, other statuses.
 * @param {LoadResult} load
 */
function failedShare(load) {
  const failed = load.errors + load.timeouts + load.unexpectedStatus;
  const attempted = load.requests + load.errors + load.timeouts;
  return attempted > 0 ? failed / attempted : 0;
}
