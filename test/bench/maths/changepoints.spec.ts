import {
  DEFAULT_MIN_STEADY_LENGTH,
  DEFAULT_TOLERANCE,
  changepoints,
  normalCost,
  steadyState,
  steadyStateOfAll,
} from '../../../bench/maths/changepoints.js';
import { seededRandom } from '../../../bench/analysis/stats.js';
import { lognormalRounds, seededNormal } from '../support/noise.js';

/** Cost per request of a settled server, and its slice-to-slice noise (the scale does not matter, the ratio does). */
const LEVEL = 100;
const NOISE_CV = 0.05;
/** A warm-up step of six noise standard deviations: slow slices before it, the steady level after. */
const STEP = 6 * NOISE_CV * LEVEL;
const FLAT_SERIES = 200;
const FALSE_POSITIVE_LIMIT = 0.05;

/** n slices of normal noise about `level` from `normal`. */
function flat(normal: () => number, n: number, level = LEVEL, cv = NOISE_CV): number[] {
  return Array.from({ length: n }, () => level * (1 + cv * normal()));
}

/** n slices whose level moves by `step` from index `at` on. */
function stepAt(normal: () => number, n: number, at: number, step: number): number[] {
  return flat(normal, n).map((value, i) => (i >= at ? value + step : value));
}

/** The least penalised cost over every segmentation of `series` into segments of at least `minLength`, tried one by one. */
function leastCostByTryingAll(series: number[], penalty: number, minLength: number): number {
  const cost = normalCost(series);
  let least = Infinity;
  for (let mask = 0; mask < 2 ** (series.length - 1); mask++) {
    const bounds = [0];
    for (let i = 1; i < series.length; i++) if (mask & (2 ** (i - 1))) bounds.push(i);
    bounds.push(series.length);
    const lengths = bounds.slice(1).map((to, i) => to - bounds[i]);
    if (lengths.some((length) => length < minLength)) continue;
    const total = bounds.slice(1).reduce((sum, to, i) => sum + cost(bounds[i], to), penalty * (bounds.length - 2));
    least = Math.min(least, total);
  }
  return least;
}

/** Share of FLAT_SERIES seeded flat series of length n in which any changepoint is found. */
function falsePositiveRate(n: number, series: (normal: () => number) => number[]): number {
  const normal = seededNormal(1000 + n);
  let found = 0;
  for (let i = 0; i < FLAT_SERIES; i++) if (changepoints(series(normal)).length > 0) found++;
  return found / FLAT_SERIES;
}

describe('changepoints (PELT, normal cost in mean and variance)', () => {
  it.each([6, 10, 20, 40])(
    'finds a changepoint in at most 1 in 20 flat normal series of %i slices at the default penalty',
    (n) => {
      expect(falsePositiveRate(n, (normal) => flat(normal, n))).toBeLessThanOrEqual(FALSE_POSITIVE_LIMIT);
    },
  );

  it.each([6, 10, 20, 40])(
    'finds a changepoint in at most 1 in 20 flat right-skewed (lognormal) series of %i slices',
    (n) => {
      const skewed = (normal: () => number) => lognormalRounds(normal, n, LEVEL, 4 * NOISE_CV);
      expect(falsePositiveRate(n, skewed)).toBeLessThanOrEqual(FALSE_POSITIVE_LIMIT);
    },
  );

  it.each([
    [12, 4],
    [20, 8],
    [40, 12],
  ])('places a step in the mean of a %i-slice series, at slice %i, within one slice', (n, at) => {
    const normal = seededNormal(n + at);
    for (let trial = 0; trial < 20; trial++) {
      const found = changepoints(stepAt(normal, n, at, -STEP));
      expect(found).toHaveLength(1);
      expect(Math.abs(found[0] - at)).toBeLessThanOrEqual(1);
    }
  });

  it('finds the least penalised cost there is: pruning never drops the best segmentation', () => {
    const random = seededRandom(9);
    for (let trial = 0; trial < 300; trial++) {
      const n = 4 + Math.floor(random() * 9);
      const minSegmentLength = 1 + Math.floor(random() * 3);
      const penalty = random() * 3 * Math.log(n);
      // Plateaus with jumps, and runs of equal values that meet the variance floor.
      let level = LEVEL;
      const series = Array.from({ length: n }, () => {
        if (random() < 0.2) level *= 0.5 + random();
        return random() < 0.3 ? level : level + Math.round(10 * random());
      });
      const found = changepoints(series, { penalty, minSegmentLength });
      const bounds = [0, ...found, n];
      const cost = normalCost(series);
      const total = bounds.slice(1).reduce((sum, to, i) => sum + cost(bounds[i], to), penalty * found.length);
      expect(total).toBeCloseTo(leastCostByTryingAll(series, penalty, minSegmentLength), 9);
    }
  });

  it('finds a change in variance alone', () => {
    const normal = seededNormal(3);
    const series = [...flat(normal, 15, LEVEL, 0.01), ...flat(normal, 15, LEVEL, 0.2)];
    const found = changepoints(series);
    expect(found).toHaveLength(1);
    expect(Math.abs(found[0] - 15)).toBeLessThanOrEqual(1);
  });

  it('places every step between plateaus of equal values exactly', () => {
    const youngGeneration = [1, 1, 1, 1, 2, 2, 2, 8, 8, 8, 8, 8, 16, 16, 16, 16, 16, 16];
    expect(changepoints(youngGeneration)).toEqual([4, 7, 12]);
  });

  it('finds none in a constant series, whose variance is zero', () => {
    expect(changepoints(Array.from({ length: 20 }, () => LEVEL))).toEqual([]);
    expect(changepoints(Array.from({ length: 20 }, () => 0))).toEqual([]);
  });

  it('finds none in a series too short to hold two segments, the empty one included', () => {
    expect(changepoints([1, 1, 9, 9, 9])).toEqual([]);
    expect(changepoints([])).toEqual([]);
  });

  it('refuses a value that is not a finite number, and options it cannot use, naming them', () => {
    expect(() => changepoints([1, 2, Number.NaN, 4])).toThrow(/series\[2\] is NaN/);
    expect(() => changepoints([1, 2, 3], { minSegmentLength: 0 })).toThrow(/minSegmentLength/);
    expect(() => changepoints([1, 2, 3], { penalty: -1 })).toThrow(/penalty/);
  });
});

describe('steadyState (the classes of warmup_stats)', () => {
  it('calls flat noise flat, steady from the first slice', () => {
    const state = steadyState(flat(seededNormal(5), 20));
    expect(state).toMatchObject({ changepoints: [], steadyFrom: 0, classification: 'flat' });
    expect(state.segments).toEqual([{ from: 0, to: 20, mean: expect.closeTo(LEVEL, -1) }]);
  });

  it('calls a step down (cheaper requests) a warm-up, steady from the step', () => {
    const state = steadyState(stepAt(seededNormal(6), 20, 8, -STEP));
    expect(state.classification).toBe('warm-up');
    expect(Math.abs(state.steadyFrom! - 8)).toBeLessThanOrEqual(1);
  });

  it('calls a step up (dearer requests) a slowdown, steady from the step', () => {
    const state = steadyState(stepAt(seededNormal(7), 20, 8, STEP));
    expect(state.classification).toBe('slowdown');
    expect(Math.abs(state.steadyFrom! - 8)).toBeLessThanOrEqual(1);
  });

  it('finds no steady state when the level falls by nine tenths in the last two slices', () => {
    const normal = seededNormal(8);
    for (let trial = 0; trial < 20; trial++) {
      const state = steadyState(stepAt(normal, 20, 18, -3 * STEP));
      expect(state).toMatchObject({ steadyFrom: null, classification: 'no steady state' });
    }
  });

  it('finds no steady state in a series shorter than the steady state must be', () => {
    const state = steadyState(Array.from({ length: DEFAULT_MIN_STEADY_LENGTH - 1 }, () => LEVEL));
    expect(state).toMatchObject({ steadyFrom: null, classification: 'no steady state' });
  });

  it('calls a steady level that some earlier level was faster than a slowdown, even when another was slower', () => {
    const slow = Array.from({ length: 6 }, () => 2 * LEVEL);
    const fast = Array.from({ length: 6 }, () => LEVEL / 2);
    const steady = Array.from({ length: 6 }, () => LEVEL);
    const state = steadyState([...slow, ...fast, ...steady]);
    expect(state.changepoints).toEqual([6, 12]);
    expect(state).toMatchObject({ steadyFrom: 12, classification: 'slowdown' });
  });

  it('treats levels within the tolerance of the steady one as that level: flat, steady from the start', () => {
    const within = (1 - DEFAULT_TOLERANCE / 2) * LEVEL;
    const series = [...Array.from({ length: 8 }, () => within), ...Array.from({ length: 8 }, () => LEVEL)];
    const state = steadyState(series);
    expect(state.changepoints).toEqual([8]);
    expect(state).toMatchObject({ steadyFrom: 0, classification: 'flat' });
  });

  it('calls a change in variance alone flat: the level, not the spread, is what a warm-up changes', () => {
    const normal = seededNormal(3);
    const series = [...flat(normal, 15, LEVEL, 0.2), ...flat(normal, 15, LEVEL, 0.01)];
    const state = steadyState(series);
    expect(state.changepoints).toHaveLength(1);
    expect(state.classification).toBe('flat');
  });

  it('does not throw on a constant series, and calls it flat', () => {
    expect(steadyState(Array.from({ length: 10 }, () => LEVEL))).toMatchObject({
      steadyFrom: 0,
      classification: 'flat',
    });
  });
});

describe('steadyStateOfAll (cost per request and young-generation size together)', () => {
  const cost = [...Array.from({ length: 6 }, () => 2 * LEVEL), ...Array.from({ length: 12 }, () => LEVEL)];
  const youngGeneration = [...Array.from({ length: 10 }, () => 8), ...Array.from({ length: 8 }, () => 16)];

  it('is steady from where the last of the series settles, in the class of the first', () => {
    expect(steadyStateOfAll([cost, youngGeneration])).toMatchObject({ steadyFrom: 10, classification: 'warm-up' });
  });

  it('has no steady state while any series has none', () => {
    const stillGrowing = [...youngGeneration.slice(0, 16), 32, 32];
    expect(steadyStateOfAll([cost, stillGrowing])).toMatchObject({
      steadyFrom: null,
      classification: 'no steady state',
    });
  });
});
