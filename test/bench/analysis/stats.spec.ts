import {
  coefficientOfVariation,
  correlation,
  lag1Autocorrelation,
  seededRandom,
  shiftInterval,
  signedRankInterval,
  summarize,
} from '../../../bench/analysis/stats.js';
import { quantile } from '../../../bench/maths/quantile.js';
import { lognormalRounds, seededNormal } from '../support/noise.js';

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

/** Every subset of the ranks 1..n, as its sum: the signed-rank statistic's null distribution by enumeration. */
function signedRankSums(n: number): number[] {
  return Array.from({ length: 2 ** n }, (_, mask) =>
    Array.from({ length: n }, (__, i) => ((mask >> i) & 1 ? i + 1 : 0)).reduce((a, b) => a + b, 0),
  );
}

/** Mann–Whitney U for every way of choosing which m of m + n sorted positions hold the first sample. */
function rankSumUs(m: number, n: number): number[] {
  const us: number[] = [];
  for (let mask = 0; mask < 2 ** (m + n); mask++) {
    const positions = Array.from({ length: m + n }, (_, i) => i).filter((i) => (mask >> i) & 1);
    if (positions.length !== m) continue;
    // U counts pairs (first-sample value, second-sample value) where the second is below the first
    us.push(positions.reduce((sum, position, index) => sum + position - index, 0));
  }
  return us;
}

const share = (values: number[], pass: (v: number) => boolean) => values.filter(pass).length / values.length;

/** The largest k with P(T ≤ k − 1) ≤ 2.5 % over an enumerated null distribution, and the coverage it gives. */
function criticalByEnumeration(statistics: number[]) {
  let k = 1;
  while (share(statistics, (t) => t <= k) <= 0.025) k++;
  return { k, coverage: 1 - 2 * share(statistics, (t) => t <= k - 1) };
}

describe('signed-rank (Hodges–Lehmann) interval', () => {
  it('reads the 14th smallest and 14th largest Walsh average at n = 12, with the exact coverage of that rank', () => {
    const values = Array.from({ length: 12 }, (_, i) => 2 ** i); // distinct Walsh averages, easy to rank by hand
    const walsh = values.flatMap((x, i) => values.slice(i).map((y) => (x + y) / 2)).sort((a, b) => a - b);
    const sums = signedRankSums(12);
    // the largest k with P(T ≤ k − 1) ≤ 2.5 %
    const k = Array.from({ length: 40 }, (_, t) => t + 1)
      .filter((t) => share(sums, (s) => s <= t - 1) <= 0.025)
      .at(-1)!;
    expect(k).toBe(14);
    expect(signedRankInterval(values)).toEqual({
      low: walsh[k - 1],
      high: walsh[walsh.length - k],
      coverage: expect.closeTo(1 - 2 * share(sums, (s) => s <= k - 1), 12),
    });
  });

  it('falls back to the widest interval, smallest to largest value, and says its lower coverage below 6 values', () => {
    expect(signedRankInterval([3, 1, 2, 5, 4])).toEqual({ low: 1, high: 5, coverage: expect.closeTo(1 - 2 / 32, 12) });
    expect(signedRankInterval([1, 2, 3, 4, 5, 6])!.coverage).toBeCloseTo(1 - 2 / 64, 12);
  });

  it('does not exist for one round', () => {
    expect(signedRankInterval([1.8])).toBeNull();
  });

  it('covers the true ratio in at least 94 % of simulated 12-round runs with lognormal noise of CV 15 %', () => {
    const normal = seededNormal(0x5eed);
    const trials = 10_000;
    let covered = 0;
    for (let trial = 0; trial < trials; trial++) {
      const { ci } = summarize(lognormalRounds(normal, 12, 2, 0.15));
      if (ci!.low <= 2 && 2 <= ci!.high) covered++;
    }
    expect(covered / trials).toBeGreaterThanOrEqual(0.94);
    expect(covered / trials).toBeLessThanOrEqual(0.975); // and is not bought with a needlessly wide interval
  });

  it('is widened when rounds drift (AR(1), φ = 0.5), covering more often than the plain interval does', () => {
    const normal = seededNormal(7);
    const trials = 4000;
    let plain = 0;
    let reported = 0;
    let flagged = 0;
    for (let trial = 0; trial < trials; trial++) {
      const rounds = lognormalRounds(normal, 12, 2, 0.15, 0.5);
      const summary = summarize(rounds);
      const raw = signedRankInterval(rounds.map(Math.log))!;
      if (raw.low <= Math.log(2) && Math.log(2) <= raw.high) plain++;
      if (summary.ci!.low <= 2 && 2 <= summary.ci!.high) reported++;
      if (summary.widened) flagged++;
    }
    expect(reported).toBeGreaterThan(plain + 0.05 * trials);
    expect(flagged / trials).toBeGreaterThan(0.3);
  });

  it('flags independent rounds as autocorrelated only now and then', () => {
    const normal = seededNormal(11);
    const trials = 4000;
    let flagged = 0;
    for (let trial = 0; trial < trials; trial++) if (summarize(lognormalRounds(normal, 12, 2, 0.15)).widened) flagged++;
    expect(flagged / trials).toBeLessThan(0.1);
  });
});

describe('shift (two-sample Hodges–Lehmann) interval', () => {
  it('estimates the median difference and reads the exact Mann–Whitney rank for 6 and 6 values', () => {
    const before = [1, 2, 3, 4, 5, 6];
    const after = before.map((v) => v * 100);
    const differences = before.flatMap((x) => after.map((y) => y - x)).sort((a, b) => a - b);
    const us = rankSumUs(6, 6);
    const k = Array.from({ length: 36 }, (_, t) => t + 1)
      .filter((t) => share(us, (u) => u <= t - 1) <= 0.025)
      .at(-1)!;
    expect(shiftInterval(before, after)).toEqual({
      estimate: quantile(differences, 0.5),
      low: differences[k - 1],
      high: differences[differences.length - k],
      coverage: expect.closeTo(1 - 2 * share(us, (u) => u <= k - 1), 12),
    });
  });

  it('agrees with enumeration for unequal sample sizes', () => {
    const { k, coverage } = criticalByEnumeration(rankSumUs(3, 7));
    const before = [0, 10, 20];
    const after = [1, 2, 3, 4, 5, 6, 7];
    const differences = before.flatMap((x) => after.map((y) => y - x)).sort((a, b) => a - b);
    expect(shiftInterval(before, after)).toMatchObject({
      low: differences[k - 1],
      coverage: expect.closeTo(coverage, 12),
    });
  });

  it('covers a true shift of zero in about 95 % of simulated comparisons of two 12-round runs', () => {
    const normal = seededNormal(3);
    const trials = 3000;
    let covered = 0;
    for (let trial = 0; trial < trials; trial++) {
      const a = lognormalRounds(normal, 12, 2, 0.15).map(Math.log);
      const b = lognormalRounds(normal, 12, 2, 0.15).map(Math.log);
      const shift = shiftInterval(a, b)!;
      if (shift.low <= 0 && 0 <= shift.high) covered++;
    }
    expect(covered / trials).toBeGreaterThanOrEqual(0.94);
  });

  it('does not exist when either side is empty', () => {
    expect(shiftInterval([], [1, 2])).toBeNull();
  });
});

describe('lag-1 autocorrelation', () => {
  it('is positive for a slow drift, negative for alternation, null below three values', () => {
    expect(lag1Autocorrelation([1, 2, 3, 4, 5, 6])).toBeGreaterThan(0.4);
    expect(lag1Autocorrelation([1, 3, 1, 3, 1, 3])).toBeCloseTo(-5 / 6, 12);
    expect(lag1Autocorrelation([1, 2])).toBeNull();
  });
});

describe('seeded noise', () => {
  it('repeats for the same seed and differs for another', () => {
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
    expect(summary.ci).toEqual({
      low: expect.closeTo(Math.exp(signedRankInterval([100, 110, 90].map(Math.log))!.low), 9),
      high: expect.closeTo(Math.exp(signedRankInterval([100, 110, 90].map(Math.log))!.high), 9),
      coverage: 0.75,
    });
    expect(summary.cv).toBeCloseTo(0.1, 12);
  });
});
