// @ts-check
// One target's row and one ratio's row of a block (a runtime, scenario and stack): their summaries over the design's
// unit, and the conditions a verdict depends on.
import { pairState, targetState } from './server-state.js';
import { median } from '../maths/quantile.js';
import { CONFIDENCE, correlation, shiftInterval, summarize } from './stats.js';
import { analyzeStarts, slowedStarts } from './starts.js';
import { FAILED_ANSWER_LIMIT, marginOf, measuredVerdict, verdict } from './verdict.js';
import { metricValue } from '../model/metrics.js';

/** @typedef {import('../model/results.js').RunRecord} RunRecord */
/** @typedef {import('../model/results.js').LoadResult} LoadResult */
/** @typedef {import('../model/design.js').BlockStop} Stop */
/** @typedef {ReturnType<typeof import('./stats.js').summarize>} Summary */

/**
 * A ratio of two targets on the scenario's metric (req/s, or CPU per request where req/s is the pace), taken within
 * each round (where both ran), so slow drift of the machine cancels.
 * @typedef {object} RatioSpec
 * @property {'adapters' | 'overhead' | 'baseline'} kind
 * @property {string} numerator
 * @property {string} denominator
 * @property {boolean} judged whether the docs' claim is judged on it
 * @property {import('../model/metrics.js').Metric} metric what it divides: above 1, the numerator did better
 */

/**
 * What the rows need of the run's design: its starts, how it summarises a series of rounds, the level of a block's
 * start-level interval, where a block stopped, and the rule its verdicts were judged by.
 * @typedef {object} RowDesign
 * @property {number} starts
 * @property {Partial<import('../model/design.js').StopRule> | null} stopRule the run's recorded rule: its borderline
 *   margin (marginOf) and the slowdown that leaves a start out; null or partial for runs that recorded none
 * @property {(values: number[]) => Summary} summarize
 * @property {(runtime: string, scenario: string, stack: string) => number} startsConfidenceOf
 * @property {(runtime: string, scenario: string, stack: string) => Stop | null} stopOf
 */

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
 * @property {Summary} latencyP99 each round's p99 (ms) summarised over the rounds, with its interval
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
 * @property {RatioSpec['metric']} metric
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
 * @property {number | null} pairCorrelation of the two targets' log values (req/s, or requests per CPU second) across
 *   rounds; near 1, the machine's swings
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
 */

/**
 * @param {string} runtime @param {string} scenario @param {string} stack @param {string} target
 * @param {RunRecord[]} runs
 * @param {RowDesign} design
 * @param {number} durationSec --duration
 * @returns {TargetRow}
 */
export function summarizeTarget(runtime, scenario, stack, target, runs, design, durationSec) {
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
    latencyP99: summarize(loads.map((l) => l.latencyMs.p99)),
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
 * @param {RowDesign} design
 * @param {number} durationSec --duration
 * @returns {RatioRow | null} null when neither target ran the scenario
 */
export function ratioRow(runtime, scenario, stack, spec, runs, plannedRounds, design, durationSec) {
  /** @param {string} target */
  const byRound = (target) =>
    new Map(
      runs.filter((run) => run.target === target && run.status === 'ok' && run.load).map((run) => [run.round, run]),
    );
  const top = byRound(spec.numerator);
  const bottom = byRound(spec.denominator);
  if (!runs.some((run) => run.target === spec.numerator) || !runs.some((run) => run.target === spec.denominator))
    return null;
  const rounds = pairedRounds(top, bottom, plannedRounds, spec.metric);
  const { values, startByRound, logValues, byOrder, missingRounds, failedAnswerRounds, saturatedRounds } = rounds;
  const slowedFactor = design.stopRule?.slowedStartFactor;
  const slowed = slowedFactor ? slowedStarts(rounds.cpuByRound, startByRound, slowedFactor) : [];
  const { summary, starts } = startsSummary(
    values,
    startByRound,
    design,
    design.startsConfidenceOf(runtime, scenario, stack),
    slowed,
  );
  const margin = marginOf(design.stopRule);
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
    verdict: spec.judged ? (tooSlow.length ? 'too slow' : verdict(summary, conditions, margin)) : null,
    measuredVerdict: spec.judged ? measuredVerdict(summary, margin) : null,
    pairCorrelation: correlation(...logValues),
    missingRounds,
    tooSlow,
    failedAnswerRounds,
    someFailedAnswers: rounds.someFailedAnswers,
    saturatedRounds,
    neighbourRounds: rounds.neighbourRounds,
    neighbourShare: rounds.neighbourShare,
    order: orderEffect(byOrder.numerator, byOrder.denominator),
    state: pairState(rounds.paired),
    stop: design.stopOf(runtime, scenario, stack),
  };
}

/**
 * The planned rounds of a pair, walked in order: each paired round's ratio on the metric, start and log values, the
 * ratios by which target went first, and the rounds a condition flags; a round without a successful run of both, or
 * without the metric measured on both, is missing.
 * @param {Map<number, RunRecord>} top the numerator's successful runs by round
 * @param {Map<number, RunRecord>} bottom the denominator's
 * @param {number} plannedRounds
 * @param {RatioSpec['metric']} metric
 */
function pairedRounds(top, bottom, plannedRounds, metric) {
  const values = [];
  const startByRound = [];
  /** @type {Array<[number, number] | null>} the two servers' CPU µs per request, where both were read */
  const cpuByRound = [];
  /** @type {[number[], number[]]} */
  const logValues = [[], []];
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
    const above = run && metricValue(metric, run);
    const below = other && metricValue(metric, other);
    if (!run || !other || !above || !below) {
      missingRounds.push(round);
      continue;
    }
    values.push(above / below);
    startByRound.push(run.start);
    const cpu = [run.server?.cpuUsPerRequest, other.server?.cpuUsPerRequest];
    cpuByRound.push(cpu.every((us) => typeof us === 'number' && us > 0) ? /** @type {[number, number]} */ (cpu) : null);
    paired.push({ round, numerator: run, denominator: other });
    logValues[0].push(Math.log(above));
    logValues[1].push(Math.log(below));
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
  return {
    values,
    startByRound,
    cpuByRound,
    logValues,
    byOrder,
    missingRounds,
    failedAnswerRounds,
    someFailedAnswers,
    saturatedRounds,
    neighbourRounds,
    neighbourShare,
    paired,
  };
}

/**
 * The summary of a series with the design's unit: with several starts, the per-start analysis, its estimate and its
 * interval (the start as the unit) in place of the per-round ones.
 * @param {number[]} values positive, in round order @param {number[]} startByRound
 * @param {RowDesign} design @param {number} confidence the start-level interval's
 * @param {Array<{ start: number, slowdown: [number, number] }>} [slowed] starts left out (starts.js slowedStarts)
 * @returns {{ summary: Summary, starts: import('./starts.js').StartAnalysis | null }}
 */
function startsSummary(values, startByRound, design, confidence, slowed = []) {
  const out = new Set(slowed.map((s) => s.start));
  const rounds = design.summarize(values.filter((_, i) => !out.has(startByRound[i])));
  if (design.starts === 1) return { summary: rounds, starts: null };
  const starts = analyzeStarts(values, startByRound, confidence, slowed);
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
