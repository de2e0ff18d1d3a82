// @ts-check
// Student's t distribution: its distribution function and quantiles, for intervals over few values.

/**
 * ln Γ(x) for x > 0, Lanczos (g = 7, nine terms): ample for the t distribution's few degrees of freedom.
 * @param {number} x
 * @returns {number}
 */
function logGamma(x) {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = c[0];
  for (let i = 1; i < 9; i++) sum += c[i] / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/**
 * The regularized incomplete beta I_x(a, b), by its continued fraction (modified Lentz).
 * @param {number} x @param {number} a @param {number} b
 * @returns {number}
 */
function incompleteBeta(x, a, b) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  if (x > (a + 1) / (a + b + 2)) return 1 - incompleteBeta(1 - x, b, a);
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x)) / a;
  const tiny = 1e-300;
  let f = 1;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = Math.abs(d) < tiny ? 1 / tiny : 1 / d;
  f = d;
  for (let m = 1; m <= 300; m++) {
    for (const numerator of [
      (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m)),
      -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1)),
    ]) {
      d = 1 + numerator * d;
      d = Math.abs(d) < tiny ? 1 / tiny : 1 / d;
      c = 1 + numerator / c;
      c = Math.abs(c) < tiny ? tiny : c;
      f *= c * d;
    }
    if (Math.abs(c * d - 1) < 1e-12) break;
  }
  return front * f;
}

/**
 * P(T ≤ t) for Student's t with df degrees of freedom.
 * @param {number} t @param {number} df
 */
export function studentCdf(t, df) {
  const tail = incompleteBeta(df / (df + t * t), df / 2, 0.5) / 2;
  return t >= 0 ? 1 - tail : tail;
}

/** Quantiles already found, by p and df: the stop rule asks the same few at every look of every row. */
const knownQuantiles = new Map();

/**
 * The p quantile of Student's t, by bisection on its distribution function.
 * @param {number} p in (0, 1) @param {number} df
 */
export function studentQuantile(p, df) {
  const key = `${p} ${df}`;
  let quantile = knownQuantiles.get(key);
  if (quantile === undefined) {
    quantile = bisectQuantile(p, df);
    knownQuantiles.set(key, quantile);
  }
  return quantile;
}

/** @param {number} p @param {number} df */
function bisectQuantile(p, df) {
  let low = -1e4;
  let high = 1e4;
  for (let i = 0; i < 200 && high - low > 1e-10; i++) {
    const middle = (low + high) / 2;
    if (studentCdf(middle, df) < p) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}
