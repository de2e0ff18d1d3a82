import { DRIFT_CONFIDENCE, drifts } from '../../../bench/maths/trend.js';
import { seededNormal } from '../support/noise.js';

describe('a drift in a short series', () => {
  it('is a steady slide, not a noisy level', () => {
    expect(drifts([2171, 1604, 1270])).toBe(true);
    expect(drifts([1150, 1120, 1130])).toBe(false);
    expect(drifts([60, 60, 60])).toBe(false);
    // consistent but within the tolerance two levels are told apart by: a quiet server's last few tenths of a µs
    expect(drifts([9.1, 9.0, 8.9, 8.9])).toBe(false);
    expect(drifts([10, 20])).toBe(false);
  });

  it('reads flat lognormal noise as a drift in at most 1 − its confidence of series (seeded)', () => {
    const normal = seededNormal(3);
    const trials = 2000;
    let drifting = 0;
    for (let trial = 0; trial < trials; trial++)
      if (drifts(Array.from({ length: 4 }, () => 100 * Math.exp(0.1 * normal())))) drifting++;
    expect(drifting / trials).toBeGreaterThan(0);
    expect(drifting / trials).toBeLessThan(1 - DRIFT_CONFIDENCE + 0.03);
  });
});
