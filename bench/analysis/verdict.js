// @ts-check
// The docs' claim, "almost two times better", turned into bands a Fastify/Express ratio falls in.

/** Below this, Fastify is not "almost two times" faster. */
export const HOLDS_MIN = 1.5;
/** Above this, Fastify leads by more than the docs say. */
export const HOLDS_MAX = 2.5;

/**
 * Below 6 values no interval of the median reaches 95 % without assumptions on the distribution (the widest one, from
 * the smallest to the largest value, covers 1 - 2 × 0.5^n: 93.75 % for 5), so fewer rounds never give a verdict.
 */
export const MIN_ROUNDS_FOR_VERDICT = 6;

/** @typedef {'holds' | 'understated' | 'does not hold' | 'inconclusive'} Verdict */

/**
 * @param {number} ratio
 * @returns {Exclude<Verdict, 'inconclusive'>}
 */
export function band(ratio) {
  if (ratio < HOLDS_MIN) return 'does not hold';
  if (ratio > HOLDS_MAX) return 'understated';
  return 'holds';
}

/**
 * The verdict for a ratio's median and confidence interval: the band they share, or inconclusive when the interval
 * reaches into another band or rests on fewer than MIN_ROUNDS_FOR_VERDICT rounds.
 * @param {{ n: number, median: number, ci: { low: number, high: number } | null }} ratio
 * @returns {Verdict}
 */
export function verdict({ n, median, ci }) {
  if (n < MIN_ROUNDS_FOR_VERDICT || !ci || !Number.isFinite(median)) return 'inconclusive';
  const bands = new Set([band(ci.low), band(median), band(ci.high)]);
  return bands.size === 1 ? band(median) : 'inconclusive';
}
