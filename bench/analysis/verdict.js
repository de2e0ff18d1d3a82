// @ts-check
// The docs' claim, "almost two times better", turned into bands a Fastify/Express ratio falls in, and the conditions
// under which a measured band is not a verdict.

/** Below this, Fastify is not "almost two times" faster. */
export const HOLDS_MIN = 1.5;
/** Above this, Fastify leads by more than the docs say. */
export const HOLDS_MAX = 2.5;

/**
 * The half-width the default run aims at for the headline (issue 55 §5: hello · bare's median half-width within ±8 %),
 * as the reports give it: half the interval's width over its estimate.
 */
export const PRECISION_TARGET = 0.08;
/** The factor either side of its estimate that an interval read at PRECISION_TARGET reaches, on the log scale. */
const TARGET_FACTOR = PRECISION_TARGET + Math.sqrt(1 + PRECISION_TARGET ** 2);
/**
 * A ratio whose interval lies within this factor either side of a band's edge, and in no one band, is known to be at
 * that edge: borderline (two one-sided tests against the edge ± the margin). It is as wide as an interval at the
 * precision target that reaches across an edge can lie from it (TARGET_FACTOR², 17 %), so that every interval the
 * method aims at decides. Why: docs/method.md, "Borderline".
 */
export const BORDERLINE_MARGIN = TARGET_FACTOR ** 2 - 1;
/**
 * The margin of the runs judged before a run recorded its own (results.stopRule.borderlineMargin), as their reports
 * were rendered: the first borderline rule, 2026-12-07.
 */
export const MARGIN_BEFORE_RECORDED = 0.05;

/**
 * The borderline margin a run was judged by: its stop rule's, else the one before the margin was recorded.
 * @param {{ borderlineMargin?: number } | null | undefined} stopRule the run's (results.stopRule)
 */
export function marginOf(stopRule) {
  return stopRule?.borderlineMargin ?? MARGIN_BEFORE_RECORDED;
}

/** The edges between the bands, lowest first. */
export const BAND_EDGES = Object.freeze([HOLDS_MIN, HOLDS_MAX]);

/**
 * Below 6 values no signed-rank interval reaches 95 %: the widest one, from the smallest to the largest value, covers
 * 1 - 2 × 0.5^n, 93.75 % for 5 (bench/analysis/stats.js reports each interval's exact coverage). Fewer rounds never
 * give a verdict.
 */
export const MIN_ROUNDS_FOR_VERDICT = 6;

/**
 * A round whose errors, timeouts and unexpected statuses exceed this share of its requests failed too often to say
 * what the route's speed is: the failures may be quicker or slower than answers, and the server spent time on them.
 */
export const FAILED_ANSWER_LIMIT = 0.001;

/**
 * too slow: a target answered nothing within some round's run, so there is no ratio to judge (analyze.js sets it).
 * borderline at E×: the interval lies within the run's margin of the edge E, on both sides of it or touching it.
 * @typedef {'holds' | 'understated' | 'does not hold' | Borderline | 'inconclusive' | 'too slow'} Verdict
 * @typedef {'borderline at 1.5×' | 'borderline at 2.5×'} Borderline
 */

/**
 * The verdict of a ratio known to sit at a band's edge.
 * @param {number} edge one of BAND_EDGES
 * @returns {Borderline}
 */
export function borderlineAt(edge) {
  return /** @type {Borderline} */ (`borderline at ${edge}×`);
}

/** The borderline verdicts, one per edge. */
export const BORDERLINE_VERDICTS = Object.freeze(BAND_EDGES.map(borderlineAt));

/**
 * Whether a verdict says the ratio sits at a band's edge.
 * @param {string | null | undefined} verdict
 */
export function isBorderline(verdict) {
  return /** @type {readonly string[]} */ (BORDERLINE_VERDICTS).includes(verdict ?? '');
}

/** Verdicts a run decides: the others leave the question open. */
export const DECIDED_VERDICTS = Object.freeze(['holds', 'understated', 'does not hold', ...BORDERLINE_VERDICTS]);

/**
 * What the rounds went through, beyond their numbers.
 * @typedef {object} Conditions
 * @property {boolean} failedAnswers some round exceeded FAILED_ANSWER_LIMIT on either side
 * @property {boolean} saturated the load generator was saturated in some round
 */

/**
 * @param {number} ratio
 * @returns {Exclude<Verdict, 'inconclusive' | 'too slow'>}
 */
export function band(ratio) {
  if (ratio < HOLDS_MIN) return 'does not hold';
  if (ratio > HOLDS_MAX) return 'understated';
  return 'holds';
}

/**
 * The edge an interval lies within the margin of, on the ratio's log scale (E ÷ (1 + margin) to E × (1 + margin));
 * null when it lies near none.
 * @param {{ low: number, high: number }} ci
 * @param {number} [margin]
 * @returns {number | null}
 */
export function edgeWithin({ low, high }, margin = BORDERLINE_MARGIN) {
  return BAND_EDGES.find((edge) => low >= edge / (1 + margin) && high <= edge * (1 + margin)) ?? null;
}

/**
 * What the numbers alone say: the band the median and its interval share; else borderline when the interval lies
 * within the margin of the edge it reaches across; else inconclusive, as when it rests on fewer than
 * MIN_ROUNDS_FOR_VERDICT rounds.
 * @param {{ n: number, median: number, ci: { low: number, high: number } | null }} ratio
 * @param {number} [margin] the run's (marginOf)
 * @returns {Verdict}
 */
export function measuredVerdict({ n, median, ci }, margin = BORDERLINE_MARGIN) {
  if (n < MIN_ROUNDS_FOR_VERDICT || !ci || !Number.isFinite(median)) return 'inconclusive';
  const bands = new Set([band(ci.low), band(median), band(ci.high)]);
  if (bands.size === 1) return band(median);
  const edge = edgeWithin(ci, margin);
  return edge === null ? 'inconclusive' : borderlineAt(edge);
}

/**
 * The verdict after the conditions: failed answers leave no verdict standing (the throughput of either side is not
 * the route's alone). A saturated generator can only hold back the faster side, so the ratio can only read low:
 * "understated" stands as a lower bound, and every other verdict, borderline included, becomes inconclusive.
 * @param {{ n: number, median: number, ci: { low: number, high: number } | null }} ratio
 * @param {Conditions} conditions
 * @param {number} [margin] the run's (marginOf)
 * @returns {Verdict}
 */
export function verdict(ratio, { failedAnswers, saturated }, margin = BORDERLINE_MARGIN) {
  const measured = measuredVerdict(ratio, margin);
  if (failedAnswers) return 'inconclusive';
  if (saturated && measured !== 'understated') return 'inconclusive';
  return measured;
}
