// @ts-check
// The docs' claim, "almost two times better", turned into bands a Fastify/Express ratio falls in, and the conditions
// under which a measured band is not a verdict.

/** Below this, Fastify is not "almost two times" faster. */
export const HOLDS_MIN = 1.5;
/** Above this, Fastify leads by more than the docs say. */
export const HOLDS_MAX = 2.5;

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
 * @typedef {'holds' | 'understated' | 'does not hold' | 'inconclusive' | 'too slow'} Verdict
 */

/** Verdicts a run decides: the others leave the question open. */
export const DECIDED_VERDICTS = Object.freeze(['holds', 'understated', 'does not hold']);

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
 * What the numbers alone say: the band the median and its interval share, or inconclusive when the interval reaches
 * into another band or rests on fewer than MIN_ROUNDS_FOR_VERDICT rounds.
 * @param {{ n: number, median: number, ci: { low: number, high: number } | null }} ratio
 * @returns {Verdict}
 */
export function measuredVerdict({ n, median, ci }) {
  if (n < MIN_ROUNDS_FOR_VERDICT || !ci || !Number.isFinite(median)) return 'inconclusive';
  const bands = new Set([band(ci.low), band(median), band(ci.high)]);
  return bands.size === 1 ? band(median) : 'inconclusive';
}

/**
 * The verdict after the conditions: failed answers leave no verdict standing (the throughput of either side is not
 * the route's alone). A saturated generator can only hold back the faster side, so the ratio can only read low:
 * "understated" stands as a lower bound, and every other band becomes inconclusive.
 * @param {{ n: number, median: number, ci: { low: number, high: number } | null }} ratio
 * @param {Conditions} conditions
 * @returns {Verdict}
 */
export function verdict(ratio, { failedAnswers, saturated }) {
  const measured = measuredVerdict(ratio);
  if (failedAnswers) return 'inconclusive';
  if (saturated && measured !== 'understated') return 'inconclusive';
  return measured;
}
