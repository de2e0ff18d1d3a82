import {
  bootstrapMedianCI,
  coefficientOfVariation,
  correlation,
  median,
  quantile,
  seededRandom,
  summarize,
} from '../../bench/analysis/stats.js';

/** P(X >= k) for X ~ Binomial(n, p). */
function binomialTail(n: number, p: number, k: number): number {
  let total = 0;
  for (let j = k; j <= n; j++) {
    let coefficient = 1;
    for (let i = 1; i <= j; i++) coefficient = (coefficient * (n - j + i)) / i;
    total += coefficient * p ** j * (1 - p) ** (n - j);
  }
  return total;
}

describe('median and quantiles', () => {
  it('takes the middle value of an odd-sized sample, whatever the input order', () => {
    expect(median([5, 1, 4, 2, 3])).toBe(3);
  });

  it('averages the two middle values of an even-sized sample', () => {
    expect(median([10, 2, 4, 8])).toBe(6);
  });

  it('interpolates quantiles linearly between closest ranks', () => {
    expect(quantile([1, 2, 3, 4, 5], 0.1)).toBeCloseTo(1.4, 12);
    expect(quantile([1, 2, 3, 4, 5], 0.9)).toBeCloseTo(4.6, 12);
  });

  it('returns NaN for no values instead of a number that looks measured', () => {
    expect(median([])).toBeNaN();
  });
});

describe('coefficient of variation', () => {
  it('is the sample standard deviation over the mean', () => {
    // mean 5, sample variance 32/7
    expect(coefficientOfVariation([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(Math.sqrt(32 / 7) / 5, 12);
  });

  it('is NaN for a single value', () => {
    expect(coefficientOfVariation([3])).toBeNaN();
  });
});

describe('correlation', () => {
  it("is Pearson's r: 0.8 for a known pair of series, ±1 for exact linear relations", () => {
    expect(correlation([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(0.8, 12);
    expect(correlation([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(correlation([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
  });

  it('does not exist below three pairs or for a constant series', () => {
    expect(correlation([1, 2], [2, 1])).toBeNull();
    expect(correlation([1, 2, 3], [5, 5, 5])).toBeNull();
  });

  it('refuses series of different lengths', () => {
    expect(() => correlation([1, 2, 3], [1, 2])).toThrow(/equally long/);
  });
});

describe('bootstrap interval of the median', () => {
  it('matches the exact bootstrap distribution of the median for 21 distinct values', () => {
    // For n odd and distinct values v1 < … < vn, P(median of a resample <= v_k) = P(Binomial(n, k/n) >= (n+1)/2).
    const n = 21;
    const values = Array.from({ length: n }, (_, i) => i + 1);
    const cdf = (k: number) => binomialTail(n, k / n, (n + 1) / 2);
    const low = values.find((k) => cdf(k) >= 0.025)!;
    const high = values.find((k) => cdf(k) >= 0.975)!;
    // the exact quantiles are far enough from the 2.5 % / 97.5 % edges for 10,000 resamples to land on them
    expect(Math.min(cdf(low) - 0.025, 0.025 - cdf(low - 1))).toBeGreaterThan(0.005);
    expect(Math.min(cdf(high) - 0.975, 0.975 - cdf(high - 1))).toBeGreaterThan(0.005);

    expect(bootstrapMedianCI(values)).toEqual({ low, high });
  });

  it('is a single point when every round gave the same value', () => {
    expect(bootstrapMedianCI([1.8, 1.8, 1.8, 1.8])).toEqual({ low: 1.8, high: 1.8 });
  });

  it('does not exist for one round', () => {
    expect(bootstrapMedianCI([1.8])).toBeNull();
  });

  it('is reproducible: the same values give the same interval', () => {
    const ratios = [1.91, 1.84, 2.02, 1.77, 1.95, 1.88, 1.99];
    expect(bootstrapMedianCI(ratios)).toEqual(bootstrapMedianCI([...ratios]));
  });

  it('contains the median and narrows as the rounds agree more closely', () => {
    const spread = [1.5, 1.7, 1.9, 2.1, 2.3, 2.5, 1.6, 2.4];
    const tight = spread.map((v) => 2 + (v - 2) / 10);
    const wide = bootstrapMedianCI(spread)!;
    const narrow = bootstrapMedianCI(tight)!;
    expect(wide.low).toBeLessThanOrEqual(median(spread));
    expect(wide.high).toBeGreaterThanOrEqual(median(spread));
    expect(narrow.high - narrow.low).toBeCloseTo((wide.high - wide.low) / 10, 9);
  });
});

describe('seeded random numbers', () => {
  it('repeat for the same seed and differ for another', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const c = seededRandom(43);
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect([c(), c(), c()]).not.toEqual(first);
    expect(first.every((v) => v >= 0 && v < 1)).toBe(true);
  });
});

describe('summarize', () => {
  it('reports count, median, interval and CV of a series', () => {
    const summary = summarize([100, 110, 90]);
    expect(summary.n).toBe(3);
    expect(summary.median).toBe(100);
    expect(summary.ci).toEqual(bootstrapMedianCI([100, 110, 90]));
    expect(summary.cv).toBeCloseTo(0.1, 12);
  });
});
