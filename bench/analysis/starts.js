// @ts-check
// Server starts as the unit of replication: a server start sets a level its rounds share (its JIT, its heap), so rounds
// of one start are not independent replicates of the answer. Per row: each start's ratio, how the variance splits
// between starts and within a start (one-way random effects), and an interval whose unit is the start (Student's t on
// the per-start means of the log values, starts − 1 degrees of freedom). See docs/method.md, "Starts as the unit".
import { median } from '../maths/quantile.js';
import { studentQuantile } from '../maths/student.js';
import { CONFIDENCE, mean } from './stats.js';
import { BORDERLINE_MARGIN } from './verdict.js';

/**
 * @typedef {object} StartMean one server start's rounds of a series
 * @property {number} start 0-based
 * @property {number} n its rounds
 * @property {number} logMean mean of its log values
 *
 * @typedef {object} VarianceSplit one-way random-effects estimate on the log scale
 * @property {number} between σ²_b: the variance of a start's own level; 0 when the starts differ no more than their
 *   rounds explain
 * @property {number} within σ²_w: the variance of a round about its start's level
 * @property {number} betweenShare between ÷ (between + within)
 *
 * @typedef {object} StartAnalysis
 * @property {Array<{ start: number, n: number, value: number }>} perStart each start's geometric mean, in start order
 * @property {VarianceSplit | null} split null below two starts or when no start has two rounds
 * @property {{ estimate: number, low: number, high: number, coverage: number, df: number } | null} interval on the
 *   values' scale: the geometric mean of the per-start means and its t interval; null below two starts
 * @property {boolean} twoGroups the starts fall into two separate groups (a bimodal JIT or heap outcome)
 * @property {SlowedStart[]} leftOut starts the host slowed (slowedStarts), left out of everything above
 *
 * @typedef {object} SlowedStart a start whose compared servers both spent far more CPU per request than on the row's
 *   other starts
 * @property {number} start 0-based
 * @property {number} value its geometric mean ratio, as it would have counted
 * @property {[number, number]} slowdown each server's CPU per request on it ÷ its median over the row's starts
 */

/**
 * @param {number[]} values positive, one per round
 * @param {number[]} starts each value's start, 0-based
 * @returns {StartMean[]} in start order
 */
export function startMeans(values, starts) {
  /** @type {Map<number, number[]>} */
  const byStart = new Map();
  values.forEach((value, i) => byStart.set(starts[i], [...(byStart.get(starts[i]) ?? []), Math.log(value)]));
  return [...byStart]
    .sort(([a], [b]) => a - b)
    .map(([start, logs]) => ({ start, n: logs.length, logMean: mean(logs) }));
}

/**
 * The ANOVA estimate of the two variance components, with n₀ for unequal rounds per start.
 * @param {number[]} values positive @param {number[]} starts
 * @returns {VarianceSplit | null}
 */
export function varianceSplit(values, starts) {
  const groups = startMeans(values, starts);
  const total = values.length;
  const k = groups.length;
  if (k < 2 || total - k < 1) return null;
  const grand = mean(values.map(Math.log));
  const meanOf = new Map(groups.map((g) => [g.start, g.logMean]));
  const withinSquares = values.reduce(
    (sum, v, i) => sum + (Math.log(v) - /** @type {number} */ (meanOf.get(starts[i]))) ** 2,
    0,
  );
  const betweenSquares = groups.reduce((sum, g) => sum + g.n * (g.logMean - grand) ** 2, 0);
  const within = withinSquares / (total - k);
  const n0 = (total - groups.reduce((sum, g) => sum + g.n ** 2, 0) / total) / (k - 1);
  const between = Math.max(0, (betweenSquares / (k - 1) - within) / n0);
  return { between, within, betweenShare: between + within > 0 ? between / (between + within) : 0 };
}

/**
 * The t interval of the mean of the per-start log means: each start one observation, so its spread carries both the
 * start's level and its rounds' noise, whatever their sizes.
 * @param {StartMean[]} groups
 * @param {number} [confidence]
 * @returns {StartAnalysis['interval']}
 */
export function startInterval(groups, confidence = CONFIDENCE) {
  const k = groups.length;
  if (k < 2) return null;
  const logs = groups.map((g) => g.logMean);
  const centre = mean(logs);
  const sd = Math.sqrt(logs.reduce((sum, x) => sum + (x - centre) ** 2, 0) / (k - 1));
  const half = studentQuantile(1 - (1 - confidence) / 2, k - 1) * (sd / Math.sqrt(k));
  return {
    estimate: Math.exp(centre),
    low: Math.exp(centre - half),
    high: Math.exp(centre + half),
    coverage: confidence,
    df: k - 1,
  };
}

/**
 * The confidence a budgeted run's start-level interval is taken at when some start's rounds came from the variance
 * split so far (results.startBlocks): how many starts fit follows from those rounds, so a run whose first starts
 * happened to agree gets fewer, longer starts; at 95 % the interval then covered a little under 95 % in the seeded
 * simulation of docs/method.md, at this level it holds 95 % across the noise splits simulated there.
 */
export const BUDGETED_STARTS_CONFIDENCE = 0.97;

/**
 * A start on which both compared servers spent at least this many times their CPU per request on the row's median
 * start ran on a core the host had slowed: the two servers share that core, and neither's code changed (docs/method.md,
 * "A start the host slowed").
 */
export const SLOWED_START_FACTOR = 1.5;
/** Below this many starts there is no median start for one to stand against. */
const STARTS_TO_JUDGE_SLOWED = 3;

/**
 * The starts whose compared servers both spent at least `factor` times their CPU per request on the row's median
 * start. Judged on the servers' CPU alone, never on the ratio; rounds without both servers' CPU count for nothing, and a
 * row where some start has none is judged on none.
 * @param {Array<[number, number] | null>} cpuByRound each round's two servers' CPU µs per request, as the values
 * @param {number[]} starts each round's start
 * @param {number} factor
 * @returns {Array<{ start: number, slowdown: [number, number] }>} in start order
 */
export function slowedStarts(cpuByRound, starts, factor) {
  /** @type {Map<number, Array<[number, number]>>} */
  const byStart = new Map();
  cpuByRound.forEach((cpu, i) => byStart.set(starts[i], [...(byStart.get(starts[i]) ?? []), ...(cpu ? [cpu] : [])]));
  const perStart = [...byStart]
    .sort(([a], [b]) => a - b)
    .map(([start, cpus]) => ({
      start,
      cpu: [0, 1].map((side) => (cpus.length ? median(cpus.map((c) => c[side])) : NaN)),
    }));
  if (perStart.length < STARTS_TO_JUDGE_SLOWED || perStart.some((s) => !s.cpu.every(Number.isFinite))) return [];
  const typical = [0, 1].map((side) => median(perStart.map((s) => s.cpu[side])));
  return perStart
    .map(({ start, cpu }) => ({
      start,
      slowdown: /** @type {[number, number]} */ (cpu.map((c, side) => c / typical[side])),
    }))
    .filter(({ slowdown }) => slowdown.every((x) => x >= factor));
}

/**
 * The sequential rule of a budgeted run with starts: from the first look on, a compared row whose start-level interval
 * at decideConfidence lies inside one band stops, and is reported at stoppedConfidence (an interval inside the one that
 * decided it, so in the same band); a row measured to the end is reported at endConfidence. Looking after every start
 * costs coverage, most where the truth sits on a band's edge, since any interval that misses it decides; these levels
 * hold 95 % on the edge and inside the bands, up to MAX_STARTS starts, at the variance splits docs/method.md simulates
 * ("The stop rule's coverage"; 3 % beside an edge its noisiest twelve-start cells read 94.7–94.9 %, "Borderline"). A row whose interval at decideConfidence lies within borderlineMargin of a band's edge, in no one band,
 * is decided too, borderline (verdict.js), and stops; the simulation covers that stop as well. A run records the rule
 * it used (results.stopRule).
 * @typedef {import('../model/design.js').StopRule} StopRule
 * @type {StopRule}
 */
export const STOP_RULE = Object.freeze({
  decideConfidence: 0.995,
  stoppedConfidence: 0.98,
  endConfidence: BUDGETED_STARTS_CONFIDENCE,
  borderlineMargin: BORDERLINE_MARGIN,
  slowedStartFactor: SLOWED_START_FACTOR,
  headlineConfidence: CONFIDENCE,
});

/**
 * Two groups need this many starts on each side.
 */
const GROUP_MIN_STARTS = 2;
/**
 * The gap between two groups must exceed this many times the wider group's own range, and this many standard errors
 * of a start's mean from its rounds alone: clusters, not a spread.
 */
const GROUP_GAP_FACTOR = 2;

/**
 * Whether the sorted per-start means break at one gap into two tight groups of at least GROUP_MIN_STARTS each.
 * @param {StartMean[]} groups @param {VarianceSplit | null} split
 */
export function splitsInTwo(groups, split) {
  if (groups.length < 2 * GROUP_MIN_STARTS || split === null) return false;
  const sorted = groups.map((g) => g.logMean).sort((a, b) => a - b);
  const meanRounds = mean(groups.map((g) => g.n));
  const roundsError = Math.sqrt(split.within / meanRounds);
  for (let cut = GROUP_MIN_STARTS; cut <= sorted.length - GROUP_MIN_STARTS; cut++) {
    const gap = sorted[cut] - sorted[cut - 1];
    const widest = Math.max(sorted[cut - 1] - sorted[0], sorted[sorted.length - 1] - sorted[cut]);
    if (gap > GROUP_GAP_FACTOR * widest && gap > GROUP_GAP_FACTOR * 2 * roundsError) return true;
  }
  return false;
}

/**
 * @param {number[]} values positive, one per round @param {number[]} starts each value's start
 * @param {number} [confidence]
 * @param {Array<{ start: number, slowdown: [number, number] }>} [slowed] starts to leave out (slowedStarts)
 * @returns {StartAnalysis}
 */
export function analyzeStarts(values, starts, confidence = CONFIDENCE, slowed = []) {
  const out = new Set(slowed.map((s) => s.start));
  const kept = values.flatMap((value, i) => (out.has(starts[i]) ? [] : [{ value, start: starts[i] }]));
  const [keptValues, keptStarts] = [kept.map((k) => k.value), kept.map((k) => k.start)];
  const groups = startMeans(keptValues, keptStarts);
  const split = varianceSplit(keptValues, keptStarts);
  const leftOutMeans = startMeans(values, starts).filter((g) => out.has(g.start));
  return {
    perStart: groups.map((g) => ({ start: g.start, n: g.n, value: Math.exp(g.logMean) })),
    split,
    interval: startInterval(groups, confidence),
    twoGroups: splitsInTwo(groups, split),
    leftOut: slowed.map(({ start, slowdown }) => ({
      start,
      value: Math.exp(leftOutMeans.find((g) => g.start === start)?.logMean ?? NaN),
      slowdown,
    })),
  };
}

/**
 * The confidence each look's interval is taken at when a budget may stop after any of `looks` starts: Bonferroni over
 * the looks, so all of them cover together in at least `confidence`, whatever the stopping rule.
 * @param {number} looks @param {number} [confidence]
 */
export function lookConfidence(looks, confidence = CONFIDENCE) {
  return 1 - (1 - confidence) / Math.max(1, looks);
}

/**
 * The pooled two-sample t interval of B's per-start log means minus A's: the change between two runs with the start
 * as the unit. Null when the two runs have fewer than three starts together.
 * @param {StartMean[]} a @param {StartMean[]} b @param {number} [confidence]
 * @returns {{ estimate: number, low: number, high: number, coverage: number, df: number } | null} on the log scale
 */
export function startShiftInterval(a, b, confidence = CONFIDENCE) {
  const df = a.length + b.length - 2;
  if (!a.length || !b.length || df < 1) return null;
  const [logsA, logsB] = [a, b].map((side) => side.map((g) => g.logMean));
  const [meanA, meanB] = [logsA, logsB].map(mean);
  const squares = [...logsA.map((x) => (x - meanA) ** 2), ...logsB.map((x) => (x - meanB) ** 2)];
  const pooled = squares.reduce((sum, s) => sum + s, 0) / df;
  const half =
    studentQuantile(1 - (1 - confidence) / 2, df) * Math.sqrt(pooled * (1 / logsA.length + 1 / logsB.length));
  const estimate = meanB - meanA;
  return { estimate, low: estimate - half, high: estimate + half, coverage: confidence, df };
}
