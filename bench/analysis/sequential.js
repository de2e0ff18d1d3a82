// @ts-check
// An interval for the centre of per-round log ratios that stays valid however many rounds are looked at and whenever
// the rounds stop: a confidence sequence from betting on the sign of each round's deviation, clipped to a robust
// scale (see docs/method.md, "The interval under a time budget").
import { CONFIDENCE, coefficientOfVariation, informationShare, lag1Autocorrelation, median } from './stats.js';

/**
 * The bets the capital is spread over: a fixed grid of stakes, so no stake has to be tuned to noise not yet seen.
 * Averaging the products of several stakes is itself a martingale, and loses little against the best stake in hindsight.
 * Stakes stop at MAX_STAKE: larger ones decide a little sooner on independent rounds, but compound the runs of
 * same-signed rounds a drifting host makes (the simulations in test/bench/sequential.spec.ts chose it).
 */
const STAKE_COUNT = 12;
const MAX_STAKE = 0.75;
const STAKES = Object.freeze(Array.from({ length: STAKE_COUNT }, (_, i) => ((i + 1) / STAKE_COUNT) * MAX_STAKE));
/**
 * A round's deviation counts in full up to this many robust standard deviations of the rounds before it, and no more:
 * one wild round moves the capital no further than a round just past that, as the median ignores outliers.
 */
export const CLIP_SCALES = 1.5;
/** Below this many earlier rounds there is no scale to clip to: the round bets on its sign alone. */
const MIN_ROUNDS_FOR_SCALE = 3;
/** MAD × this estimates a normal standard deviation. */
const MAD_TO_SD = 1.4826;
/** Bisection steps for each bound: the search range halves each time, far below a displayed digit. */
const BISECTION_STEPS = 24;

/**
 * Each round's scale, from the rounds before it only (a scale taken from the round itself would let it choose its
 * own bet): MAD × 1.4826 × CLIP_SCALES, or 0 (bet on the sign) while there are too few rounds or they are all equal.
 * @param {number[]} values in round order
 * @returns {number[]}
 */
export function predictableScales(values) {
  return values.map((_, i) => {
    if (i < MIN_ROUNDS_FOR_SCALE) return 0;
    const past = values.slice(0, i);
    const centre = median(past);
    return median(past.map((v) => Math.abs(v - centre))) * MAD_TO_SD * CLIP_SCALES;
  });
}

/**
 * The values pulled in to the clip around their median, as the bets see them: an outlier's size then moves the
 * autocorrelation estimate no more than it moves the bets.
 * @param {number[]} values
 */
function winsorized(values) {
  const centre = median(values);
  const clip = median(values.map((v) => Math.abs(v - centre))) * MAD_TO_SD * CLIP_SCALES;
  return values.map((v) => Math.max(centre - clip, Math.min(centre + clip, v)));
}

/**
 * The bettor's capital against "the centre is `centre`" when betting that rounds lie above it (direction 1) or below
 * it (direction −1): the average over STAKES of ∏ (1 + stake × ψ), ψ the round's clipped deviation in [−1, 1]. When the
 * rounds are independent and symmetric about `centre`, every ψ has mean 0 given the rounds before, the capital is a
 * martingale that starts at 1, and by Ville's inequality it ever reaches 1/a with probability at most a.
 * Non-increasing in `centre` for direction 1, non-decreasing for −1.
 * @param {number[]} values @param {number[]} scales from predictableScales(values)
 * @param {number} centre @param {1 | -1} direction
 */
export function capital(values, scales, centre, direction) {
  const psis = values.map((value, i) => {
    const deviation = value - centre;
    return direction * (scales[i] > 0 ? Math.max(-1, Math.min(1, deviation / scales[i])) : Math.sign(deviation));
  });
  let total = 0;
  for (const stake of STAKES) {
    let product = 1;
    for (const psi of psis) product *= 1 + stake * psi;
    total += product;
  }
  return total / STAKES.length;
}

/**
 * The confidence sequence at the rounds seen so far: every centre neither bettor has yet disproved at (1 − confidence)
 * / 2. Its bounds are infinite until the rounds could disprove anything. Null below two values, as the fixed interval.
 * @param {number[]} values in round order (log ratios)
 * @param {number} [confidence]
 * @returns {{ low: number, high: number, coverage: number } | null} coverage: the confidence it holds at any stopping
 *   time, under its assumptions
 */
export function confidenceSequence(values, confidence = CONFIDENCE) {
  if (values.length < 2) return null;
  // capital^share ≥ 2/(1 − confidence): a share ≤ 1 only ever raises the bar, so the sequence stays valid for
  // independent rounds, and on drifting rounds it discounts the capital by the information they lack. The lag-1
  // estimate is taken as it comes: the fixed design's small-sample correction would raise the bar for about half of
  // all independent series too
  const lag1 = lag1Autocorrelation(winsorized(values));
  const threshold = (2 / (1 - confidence)) ** (1 / (lag1 === null ? 1 : informationShare(lag1)));
  const scales = predictableScales(values);
  const lowest = Math.min(...values);
  const highest = Math.max(...values);
  const centre = median(values);
  // this far beyond the values every round's ψ is ±1: each bettor holds the most it ever can there
  const reach = Math.max(highest - lowest, ...scales) + 1;
  const low =
    capital(values, scales, lowest - reach, 1) < threshold
      ? -Infinity
      : boundary((c) => capital(values, scales, c, 1) >= threshold, lowest - reach, centre);
  const high =
    capital(values, scales, highest + reach, -1) < threshold
      ? Infinity
      : boundary((c) => capital(values, scales, c, -1) < threshold, centre, highest + reach);
  return { low, high, coverage: confidence };
}

/**
 * The point where a monotone test turns from true to false, between `from` (true) and `to` (false).
 * @param {(centre: number) => boolean} holds @param {number} from @param {number} to
 */
function boundary(holds, from, to) {
  let [inside, outside] = [from, to];
  for (let step = 0; step < BISECTION_STEPS; step++) {
    const middle = (inside + outside) / 2;
    if (holds(middle)) inside = middle;
    else outside = middle;
  }
  return (inside + outside) / 2;
}

/**
 * The summary of a budgeted run's rounds: as stats.js summarize, with the confidence sequence of the log values as
 * the interval (it discounts drift itself, so it is never widened).
 * @param {number[]} values positive, in round order
 * @returns {ReturnType<typeof import('./stats.js').summarize>}
 */
export function sequentialSummary(values) {
  const logs = values.map(Math.log);
  const sequence = confidenceSequence(logs);
  return {
    n: values.length,
    median: median(values),
    ci: sequence && { low: Math.exp(sequence.low), high: Math.exp(sequence.high), coverage: sequence.coverage },
    cv: coefficientOfVariation(values),
    lag1: lag1Autocorrelation(logs),
    widened: false,
  };
}
