import { MIN_ROUNDS_FOR_VERDICT, band, measuredVerdict, verdict } from '../../bench/analysis/verdict.js';

const clean = { failedAnswers: false, saturated: false };

describe('bands of the Fastify / Express ratio', () => {
  it.each([
    [1.49, 'does not hold'],
    [1.5, 'holds'],
    [2.0, 'holds'],
    [2.5, 'holds'],
    [2.51, 'understated'],
    [0.9, 'does not hold'],
  ])('%s× is "%s"', (ratio, expected) => {
    expect(band(ratio)).toBe(expected);
  });
});

describe('verdict from a median and its interval', () => {
  it('is the band when the whole interval lies in it', () => {
    expect(verdict({ n: 12, median: 1.9, ci: { low: 1.8, high: 2.0 } }, clean)).toBe('holds');
    expect(verdict({ n: 12, median: 1.2, ci: { low: 1.1, high: 1.3 } }, clean)).toBe('does not hold');
    expect(verdict({ n: 12, median: 3.1, ci: { low: 2.9, high: 3.3 } }, clean)).toBe('understated');
  });

  it('is inconclusive when the interval reaches into another band', () => {
    expect(verdict({ n: 12, median: 1.55, ci: { low: 1.45, high: 1.62 } }, clean)).toBe('inconclusive');
    expect(verdict({ n: 12, median: 2.45, ci: { low: 2.3, high: 2.6 } }, clean)).toBe('inconclusive');
  });

  it('is inconclusive without an interval (a single round)', () => {
    expect(verdict({ n: 1, median: 2.0, ci: null }, clean)).toBe('inconclusive');
  });

  it('is inconclusive with fewer rounds than a distribution-free 95 % interval needs, however tight the values', () => {
    expect(MIN_ROUNDS_FOR_VERDICT).toBe(6);
    expect(verdict({ n: 5, median: 2.0, ci: { low: 1.99, high: 2.01 } }, clean)).toBe('inconclusive');
    expect(verdict({ n: 6, median: 2.0, ci: { low: 1.99, high: 2.01 } }, clean)).toBe('holds');
  });
});

describe('conditions that downgrade a verdict', () => {
  const holds = { n: 12, median: 1.9, ci: { low: 1.8, high: 2.0 } };
  const doesNotHold = { n: 12, median: 1.2, ci: { low: 1.1, high: 1.3 } };
  const understated = { n: 12, median: 3.1, ci: { low: 2.9, high: 3.3 } };

  it('failed answers leave no verdict: holds, does not hold and understated all become inconclusive', () => {
    for (const ratio of [holds, doesNotHold, understated]) {
      expect(measuredVerdict(ratio)).not.toBe('inconclusive');
      expect(verdict(ratio, { failedAnswers: true, saturated: false })).toBe('inconclusive');
    }
  });

  it('a saturated generator keeps "understated" as a lower bound', () => {
    expect(verdict(understated, { failedAnswers: false, saturated: true })).toBe('understated');
  });

  it('a saturated generator makes "holds" and "does not hold" inconclusive: the true ratio may be higher', () => {
    expect(verdict(holds, { failedAnswers: false, saturated: true })).toBe('inconclusive');
    expect(verdict(doesNotHold, { failedAnswers: false, saturated: true })).toBe('inconclusive');
  });

  it('failed answers outweigh the saturation rule', () => {
    expect(verdict(understated, { failedAnswers: true, saturated: true })).toBe('inconclusive');
  });
});
