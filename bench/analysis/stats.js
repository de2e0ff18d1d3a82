// @ts-check
// Robust summaries of a handful of rounds: median, spread, and distribution-free rank intervals whose coverage is exact.
import { median, quantileOfSorted, sorted } from '../maths/quantile.js';

export const CONFIDENCE = 0.95;

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
 * P(T ≤ t) for every t, where T is a rank statistic, as a function of t; exact from counts or a normal approximation.
 * @callback RankCdf
 * @param {number} t
 * @returns {number}
 */

/** Above this many values the exact null distributions give way to their normal approximations, which agree to the
 * interval's rank there, while the exact tables grow with the cube of the count. */
const EXACT_LIMIT = 50;

/** @param {number} z */
function standardNormalCdf(z) {
  // Abramowitz & Stegun 7.1.26 through erf: absolute error below 1.5e-7, far below a rank's worth of probability
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/**
 * @param {number} mean @param {number} variance
 * @returns {RankCdf} with a continuity correction
 */
function normalRankCdf(mean, variance) {
  return (t) => standardNormalCdf((t + 0.5 - mean) / Math.sqrt(variance));
}

/** @param {Float64Array} probabilities P(T = t) for t = 0, 1, … @returns {RankCdf} */
function cdfOf(probabilities) {
  const cumulative = new Float64Array(probabilities.length);
  let total = 0;
  probabilities.forEach((p, t) => {
    total += p;
    cumulative[t] = total;
  });
  return (t) => (t < 0 ? 0 : t >= cumulative.length ? 1 : cumulative[t]);
}

/** @type {Map<number, RankCdf>} signed-rank distributions by n, each built once: a sequential analysis asks again at every look */
const signedRankCdfs = new Map();

/**
 * Null distribution of the Wilcoxon signed-rank statistic T+ for n values: each rank 1..n counts with probability ½.
 * @param {number} n
 * @returns {RankCdf}
 */
function signedRankCdf(n) {
  let cdf = signedRankCdfs.get(n);
  if (!cdf) {
    cdf = signedRankCdfOf(n);
    signedRankCdfs.set(n, cdf);
  }
  return cdf;
}

/** @param {number} n @returns {RankCdf} */
function signedRankCdfOf(n) {
  const max = (n * (n + 1)) / 2;
  if (n > EXACT_LIMIT) return normalRankCdf(max / 2, (n * (n + 1) * (2 * n + 1)) / 24);
  let probabilities = new Float64Array(max + 1);
  probabilities[0] = 1;
  for (let rank = 1; rank <= n; rank++) {
    const next = new Float64Array(max + 1);
    for (let t = 0; t <= max; t++) next[t] = (probabilities[t] + (t >= rank ? probabilities[t - rank] : 0)) / 2;
    probabilities = next;
  }
  return cdfOf(probabilities);
}

/**
 * Null distribution of the Mann–Whitney statistic U for samples of m and n values (every interleaving equally likely).
 * @param {number} m @param {number} n
 * @returns {RankCdf}
 */
function rankSumCdf(m, n) {
  if (Math.min(m, n) > EXACT_LIMIT / 2) return normalRankCdf((m * n) / 2, (m * n * (m + n + 1)) / 12);
  // P_{i,j}(u) = i/(i+j) · P_{i-1,j}(u - j) + j/(i+j) · P_{i,j-1}(u): the largest value comes from the first or second sample
  /** @type {Float64Array[]} indexed by j, for the current i */
  let row = Array.from({ length: n + 1 }, () => Float64Array.of(1));
  for (let i = 1; i <= m; i++) {
    /** @type {Float64Array[]} */
    const next = [Float64Array.of(1)];
    for (let j = 1; j <= n; j++) {
      const p = new Float64Array(i * j + 1);
      const fromFirst = row[j];
      const fromSecond = next[j - 1];
      for (let u = 0; u <= i * j; u++) {
        p[u] =
          ((u >= j && u - j < fromFirst.length ? fromFirst[u - j] : 0) * i +
            (u < fromSecond.length ? fromSecond[u] : 0) * j) /
          (i + j);
      }
      next.push(p);
    }
    row = next;
  }
  return cdfOf(row[n]);
}

/**
 * The rank k of the interval [k-th smallest, k-th largest] among the statistic's candidate values: the largest k with
 * P(T ≤ k - 1) ≤ (1 - confidence) / 2, at least 1 (then the interval is the widest there is, below the confidence).
 * @param {RankCdf} cdf @param {number} confidence
 * @returns {{ k: number, coverage: number }} coverage: what the interval achieves, 1 - 2 P(T ≤ k - 1)
 */
function criticalRank(cdf, confidence) {
  const tail = (1 - confidence) / 2;
  let k = 1;
  while (cdf(k) <= tail) k++;
  return { k, coverage: 1 - 2 * cdf(k - 1) };
}

/**
 * @typedef {{ low: number, high: number, coverage: number }} Interval coverage: the confidence the interval actually
 *   has, from the exact distribution of its rank statistic (below the asked-for one when there are too few values)
 */

/**
 * Hodges–Lehmann interval for the centre of a symmetric distribution, from the Wilcoxon signed-rank test: the k-th
 * smallest and k-th largest of the n(n+1)/2 Walsh averages (x_i + x_j) / 2, i ≤ j. Distribution-free for symmetric noise
 * (apply it to log ratios, whose noise is), exact in its coverage, and narrower than order statistics of the median.
 * Null below two values: one round has no spread.
 * @param {number[]} values
 * @param {number} [confidence]
 * @returns {Interval | null}
 */
export function signedRankInterval(values, confidence = CONFIDENCE) {
  const n = values.length;
  if (n < 2) return null;
  // a typed array sorts by value natively, without a comparator call per comparison
  const walsh = new Float64Array((n * (n + 1)) / 2);
  let next = 0;
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) walsh[next++] = (values[i] + values[j]) / 2;
  walsh.sort();
  const { k, coverage } = criticalRank(signedRankCdf(n), confidence);
  return { low: walsh[k - 1], high: walsh[walsh.length - k], coverage };
}

/**
 * Hodges–Lehmann estimate and interval of the shift from `before` to `after` (how much larger `after` runs), from the
 * Mann–Whitney test: the median and the k-th smallest and largest of all differences after_j − before_i. Null when
 * either side is empty.
 * @param {number[]} before @param {number[]} after
 * @param {number} [confidence]
 * @returns {(Interval & { estimate: number }) | null}
 */
export function shiftInterval(before, after, confidence = CONFIDENCE) {
  if (!before.length || !after.length) return null;
  const differences = sorted(before.flatMap((x) => after.map((y) => y - x)));
  const { k, coverage } = criticalRank(rankSumCdf(before.length, after.length), confidence);
  return {
    estimate: quantileOfSorted(differences, 0.5),
    low: differences[k - 1],
    high: differences[differences.length - k],
    coverage,
  };
}

/**
 * Lag-1 autocorrelation: how much one round's value predicts the next one's. Near 0, rounds are independent as the
 * interval assumes; high, the host drifted slowly and the rounds carry less information than their count says.
 * Null below three values or for a constant series.
 * @param {number[]} values in round order
 * @returns {number | null}
 */
export function lag1Autocorrelation(values) {
  if (values.length < 3) return null;
  const m = mean(values);
  let lagged = 0;
  let total = 0;
  values.forEach((v, i) => {
    total += (v - m) ** 2;
    if (i > 0) lagged += (v - m) * (values[i - 1] - m);
  });
  return total ? lagged / total : null;
}

/**
 * Above this lag-1 autocorrelation the interval is widened and flagged: independent rounds seldom reach it by chance,
 * rounds on a drifting host often (test/bench/analysis/stats.spec.ts simulates both).
 */
export const AUTOCORRELATION_LIMIT = 0.3;
/** Keeps the widening finite when a short series looks almost perfectly correlated. */
const MAX_CORRECTED_RHO = 0.9;

/**
 * The share of information correlated rounds carry: an AR(1) series with coefficient ρ carries (1 − ρ) / (1 + ρ) as
 * much as independent values (1 for ρ ≤ 0; ρ is capped at MAX_CORRECTED_RHO).
 * @param {number} rho
 */
export function informationShare(rho) {
  const capped = Math.max(0, Math.min(MAX_CORRECTED_RHO, rho));
  return (1 - capped) / (1 + capped);
}

/**
 * Widening for correlated rounds: the interval grows by the square root of the inverse of the information share. ρ is
 * estimated from the rounds and, as lag-1 estimates from a dozen values run low by about (1 + 4ρ) / n, corrected by
 * that much before use.
 * @param {number} lag1 @param {number} n
 */
export function autocorrelationWidening(lag1, n) {
  return Math.sqrt(1 / informationShare(lag1 + (1 + 4 * lag1) / n));
}

/**
 * The interval stretched about `centre` by `factor`, each side keeping its own length.
 * @template {{ low: number, high: number }} I
 * @param {I} interval @param {number} centre @param {number} factor
 * @returns {I}
 */
export function stretched(interval, centre, factor) {
  return {
    ...interval,
    low: centre - (centre - interval.low) * factor,
    high: centre + (interval.high - centre) * factor,
  };
}

/**
 * The summary reported for any per-round series of positive values (req/s of one target, or a ratio), in round order.
 * The interval is the signed-rank interval of the log values (noise on rates is multiplicative), mapped back; widened
 * around the median when the rounds are autocorrelated.
 * @param {number[]} values
 * @returns {{ n: number, median: number, ci: Interval | null, cv: number, lag1: number | null, widened: boolean }}
 */
export function summarize(values) {
  const mid = median(values);
  const logScale = values.every((v) => v > 0);
  const toScale = (/** @type {number} */ v) => (logScale ? Math.log(v) : v);
  const fromScale = (/** @type {number} */ v) => (logScale ? Math.exp(v) : v);
  const interval = signedRankInterval(values.map(toScale));
  const lag1 = lag1Autocorrelation(values.map(toScale));
  const widened = interval !== null && lag1 !== null && lag1 > AUTOCORRELATION_LIMIT;
  const scaled =
    interval && widened
      ? stretched(interval, toScale(mid), autocorrelationWidening(/** @type {number} */ (lag1), values.length))
      : interval;
  const ci = scaled && { low: fromScale(scaled.low), high: fromScale(scaled.high), coverage: scaled.coverage };
  return { n: values.length, median: mid, ci, cv: coefficientOfVariation(values), lag1, widened };
}

/**
 * mulberry32: a small, well-distributed 32-bit generator, so that an interval found by resampling is the
 * same every time the same results are analysed, and a simulation test cannot flake.
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
