// @ts-check
// The interval of a budgeted run, where the rounds a scenario gets depend on what its interval showed: a group-sequential
// design whose looks are the rounds the budget's loop looks at, each look's Hodges–Lehmann interval at one stricter
// level, chosen so that all looks together still hold 95 % (see docs/method.md, "The interval under a time budget").
import { median } from '../maths/quantile.js';
import { MAX_BUDGET_ROUNDS, MIN_BUDGET_ROUNDS, ROUNDS_PER_STEP } from '../model/design.js';
import {
  AUTOCORRELATION_LIMIT,
  CONFIDENCE,
  autocorrelationWidening,
  coefficientOfVariation,
  lag1Autocorrelation,
  signedRankInterval,
  stretched,
} from './stats.js';

/** The rounds the budget's loop looks at: the minimum, then every second round up to its cap. */
export const LOOKS = Object.freeze(
  Array.from(
    { length: (MAX_BUDGET_ROUNDS - MIN_BUDGET_ROUNDS) / ROUNDS_PER_STEP + 1 },
    (_, i) => MIN_BUDGET_ROUNDS + i * ROUNDS_PER_STEP,
  ),
);

/**
 * Every look's interval is taken at this confidence (a constant level, as in Pocock's design). Calibrated by the seeded
 * simulation of docs/method.md: with it the intervals at all LOOKS cover the centre together in at least CONFIDENCE of
 * series, with independent rounds (where the signed-rank statistic makes this hold for any symmetric noise) and with
 * AR(1) drift after the lag-1 widening, which is the case that sets it.
 */
export const LOOK_CONFIDENCE = 0.999;

/**
 * The interval at the rounds seen so far, on the scale of the values: the signed-rank interval at LOOK_CONFIDENCE,
 * stretched for lag-1 autocorrelation whenever the corrected estimate is positive (the budgeted design never trusts a
 * low estimate to mean no drift), and unbounded while too few rounds can reach LOOK_CONFIDENCE at all. Null below two
 * values, as the fixed interval.
 * @param {number[]} values in round order (log ratios)
 * @returns {{ low: number, high: number, coverage: number } | null} coverage: the confidence the design holds at any
 *   stop, under its assumptions
 */
export function sequentialInterval(values) {
  const interval = signedRankInterval(values, LOOK_CONFIDENCE);
  if (interval === null) return null;
  if (interval.coverage < LOOK_CONFIDENCE) return { low: -Infinity, high: Infinity, coverage: CONFIDENCE };
  const lag1 = lag1Autocorrelation(values);
  const factor = lag1 === null ? 1 : autocorrelationWidening(lag1, values.length);
  return { ...stretched(interval, median(values), factor), coverage: CONFIDENCE };
}

/**
 * The summary of a budgeted run's rounds: as stats.js summarize, with sequentialInterval of the log values as the
 * interval; flagged as widened, as the fixed design's, when the rounds drifted visibly.
 * @param {number[]} values positive, in round order
 * @returns {ReturnType<typeof import('./stats.js').summarize>}
 */
export function sequentialSummary(values) {
  const logs = values.map(Math.log);
  const interval = sequentialInterval(logs);
  const lag1 = lag1Autocorrelation(logs);
  return {
    n: values.length,
    median: median(values),
    ci: interval && { low: Math.exp(interval.low), high: Math.exp(interval.high), coverage: interval.coverage },
    cv: coefficientOfVariation(values),
    lag1,
    widened: lag1 !== null && lag1 > AUTOCORRELATION_LIMIT,
  };
}
