import { CONFIDENCE, summarize } from '../../../bench/analysis/stats.js';
import {
  BORDERLINE_MARGIN,
  DECIDED_VERDICTS,
  HOLDS_MAX,
  HOLDS_MIN,
  MARGIN_BEFORE_RECORDED,
  MIN_ROUNDS_FOR_VERDICT,
  PRECISION_TARGET,
  band,
  edgeWithin,
  isBorderline,
  marginOf,
  measuredVerdict,
  verdict,
} from '../../../bench/analysis/verdict.js';

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

  it('is inconclusive when the interval reaches into another band beyond the margin', () => {
    expect(verdict({ n: 12, median: 1.55, ci: { low: 1.25, high: 1.9 } }, clean)).toBe('inconclusive');
    expect(verdict({ n: 12, median: 2.45, ci: { low: 2.0, high: 3.0 } }, clean)).toBe('inconclusive');
  });

  it('is inconclusive without an interval (a single round)', () => {
    expect(verdict({ n: 1, median: 2.0, ci: null }, clean)).toBe('inconclusive');
  });

  it('gives no verdict on one round fewer than MIN_ROUNDS_FOR_VERDICT, however tight the ratios, and one on that many', () => {
    // per-round ratios within 1 % of 2×: deep inside the band where the claim holds
    const ratios = Array.from({ length: MIN_ROUNDS_FOR_VERDICT }, (_, i) => 2 + ((i % 3) - 1) * 0.02);
    expect(verdict(summarize(ratios.slice(1)), clean)).toBe('inconclusive');
    expect(verdict(summarize(ratios), clean)).toBe('holds');
  });

  it('asks for the fewest rounds whose widest interval covers the median with 95 %, whatever their distribution', () => {
    // min..max of n values misses the median only when all n fall on one side of it: 2 × 0.5^n
    const coverage = (rounds: number) => 1 - 2 * 0.5 ** rounds;
    expect(coverage(MIN_ROUNDS_FOR_VERDICT)).toBeGreaterThanOrEqual(CONFIDENCE);
    expect(coverage(MIN_ROUNDS_FOR_VERDICT - 1)).toBeLessThan(CONFIDENCE);
  });
});

describe('borderline: an interval across an edge but within the margin of it', () => {
  it('names the edge when the interval reaches across it and lies within the margin either side', () => {
    expect(verdict({ n: 12, median: 1.49, ci: { low: 1.45, high: 1.54 } }, clean)).toBe('borderline at 1.5×');
    expect(verdict({ n: 12, median: 2.52, ci: { low: 2.44, high: 2.6 } }, clean)).toBe('borderline at 2.5×');
  });

  it('is decided, and says which edge', () => {
    expect(DECIDED_VERDICTS).toEqual(expect.arrayContaining(['borderline at 1.5×', 'borderline at 2.5×']));
    expect(isBorderline('borderline at 1.5×')).toBe(true);
    expect(isBorderline('holds')).toBe(false);
    expect(edgeWithin({ low: 1.45, high: 1.54 })).toBe(HOLDS_MIN);
    expect(edgeWithin({ low: 2.45, high: 2.54 })).toBe(HOLDS_MAX);
  });

  it('reaches exactly the margin on the log scale, edge ÷ (1 + margin) to edge × (1 + margin), and no further', () => {
    const [low, high] = [HOLDS_MIN / (1 + BORDERLINE_MARGIN), HOLDS_MIN * (1 + BORDERLINE_MARGIN)];
    expect(measuredVerdict({ n: 12, median: 1.5, ci: { low, high } })).toBe('borderline at 1.5×');
    expect(measuredVerdict({ n: 12, median: 1.5, ci: { low: low * 0.999, high } })).toBe('inconclusive');
    expect(measuredVerdict({ n: 12, median: 1.5, ci: { low, high: high * 1.001 } })).toBe('inconclusive');
  });

  it('decides every interval as precise as the method aims at, wherever it lies: in a band or borderline', () => {
    // an interval read at the precision target (half its width over its estimate) is estimate ÷ f to estimate × f
    const f = PRECISION_TARGET + Math.sqrt(1 + PRECISION_TARGET ** 2);
    for (let estimate = 1.1; estimate < 3.2; estimate *= 1.001) {
      const ci = { low: estimate / f, high: estimate * f };
      expect((ci.high - ci.low) / 2 / estimate).toBeCloseTo(PRECISION_TARGET, 12);
      expect(measuredVerdict({ n: 12, median: estimate, ci })).not.toBe('inconclusive');
    }
    // a little wider, centred just beyond an edge, it is not decided
    expect(measuredVerdict({ n: 12, median: 1.5 * f, ci: { low: 1.5 * 0.99, high: 1.5 * f * f * 1.02 } })).toBe(
      'inconclusive',
    );
  });

  it('judges a run by the margin it recorded, and a run that recorded none by the 5 % margin its report was built at', () => {
    const atEdge = { n: 12, median: 1.54, ci: { low: 1.43, high: 1.66 } };
    expect(measuredVerdict(atEdge, marginOf({ borderlineMargin: BORDERLINE_MARGIN }))).toBe('borderline at 1.5×');
    expect(measuredVerdict(atEdge, marginOf({ borderlineMargin: 0.05 }))).toBe('inconclusive');
    expect(marginOf(null)).toBe(MARGIN_BEFORE_RECORDED);
    expect(marginOf({})).toBe(MARGIN_BEFORE_RECORDED);
    expect(measuredVerdict(atEdge, marginOf(undefined))).toBe('inconclusive');
  });

  it('leaves an interval inside one band to its band, however near the edge', () => {
    expect(verdict({ n: 12, median: 1.53, ci: { low: 1.51, high: 1.56 } }, clean)).toBe('holds');
    expect(verdict({ n: 12, median: 1.47, ci: { low: 1.44, high: 1.49 } }, clean)).toBe('does not hold');
  });

  it('needs the rounds any verdict needs, and falls to failed answers and a saturated generator', () => {
    const atEdge = { n: 12, median: 1.49, ci: { low: 1.45, high: 1.54 } };
    expect(verdict({ ...atEdge, n: MIN_ROUNDS_FOR_VERDICT - 1 }, clean)).toBe('inconclusive');
    expect(verdict(atEdge, { failedAnswers: true, saturated: false })).toBe('inconclusive');
    // a saturated generator holds the ratio down: the truth may lie above the margin
    expect(verdict(atEdge, { failedAnswers: false, saturated: true })).toBe('inconclusive');
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
