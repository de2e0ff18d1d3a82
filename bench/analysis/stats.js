// @ts-check
// Robust summaries of a handful of rounds: median, spread, and a reproducible bootstrap interval for the median.

export const CONFIDENCE = 0.95;
export const BOOTSTRAP_RESAMPLES = 10_000;
/** Fixed so that the same results.json always renders the same intervals. */
export const BOOTSTRAP_SEED = 0x5eed;

/** @param {number[]} values */
function sorted(values) {
  return [...values].sort((a, b) => a - b);
}

/**
 * Quantile by linear interpolation between closest ranks (the R-7 / numpy default).
 * @param {number[]} sortedValues ascending
 * @param {number} q in [0, 1]
 */
function quantileOfSorted(sortedValues, q) {
  const position = (sortedValues.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sortedValues[below] + (sortedValues[above] - sortedValues[below]) * (position - below);
}

/**
 * @param {number[]} values
 * @param {number} q in [0, 1]
 */
export function quantile(values, q) {
  if (values.length === 0) return NaN;
  return quantileOfSorted(sorted(values), q);
}

/** @param {number[]} values */
export function median(values) {
  return quantile(values, 0.5);
}

/** @param {number[]} values */
export function mean(values) {
  return values.length ? values.reduce((sum, v) => sum + v, 0) / values.length : NaN;
}

/**
 * Coefficient of variation: sample standard deviation over the mean; NaN below two values.
 * @param {number[]} values
 */
export function coefficientOfVariation(values) {
  if (values.length < 2) return NaN;
  const m = mean(values);
  const variance = values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1);
  return Math.sqrt(variance) / m;
}

/**
 * Pearson correlation of two equally long series; null below three pairs or when either series is constant.
 * @param {number[]} xs @param {number[]} ys
 * @returns {number | null}
 */
export function correlation(xs, ys) {
  if (xs.length !== ys.length)
    throw new Error(`correlation needs equally long series, got ${xs.length} and ${ys.length}`);
  if (xs.length < 3) return null;
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxx && syy ? sxy / Math.sqrt(sxx * syy) : null;
}

/**
 * mulberry32: a tiny, well-distributed 32-bit PRNG, so intervals do not depend on Math.random.
 * @param {number} seed
 * @returns {() => number} uniform in [0, 1)
 */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Percentile bootstrap confidence interval of the median: resample with replacement, take each resample's median,
 * and read the interval off the distribution of those medians. Null below two values: one round has no spread.
 * @param {number[]} values
 * @param {{ confidence?: number, resamples?: number, seed?: number }} [options]
 * @returns {{ low: number, high: number } | null}
 */
export function bootstrapMedianCI(
  values,
  { confidence = CONFIDENCE, resamples = BOOTSTRAP_RESAMPLES, seed = BOOTSTRAP_SEED } = {},
) {
  if (values.length < 2) return null;
  const random = seededRandom(seed);
  const n = values.length;
  const sample = Array.from({ length: n }, () => 0);
  const medians = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) sample[i] = values[Math.floor(random() * n)];
    medians[r] = median(sample);
  }
  const ordered = Array.from(medians).sort((a, b) => a - b);
  const tail = (1 - confidence) / 2;
  return { low: quantileOfSorted(ordered, tail), high: quantileOfSorted(ordered, 1 - tail) };
}

/**
 * The summary reported for any per-round series (req/s of one target, or a ratio).
 * @param {number[]} values
 * @returns {{ n: number, median: number, ci: { low: number, high: number } | null, cv: number }}
 */
export function summarize(values) {
  return {
    n: values.length,
    median: median(values),
    ci: bootstrapMedianCI(values),
    cv: coefficientOfVariation(values),
  };
}
