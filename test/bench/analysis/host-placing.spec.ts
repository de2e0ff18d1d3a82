import { analyze } from '../../../bench/analysis/analyze.js';
import { hostPlacing, hostWords } from '../../../bench/analysis/host-placing.js';
import { EPYC, TWO_HOSTS, XEON, runOn } from '../support/hosts.js';

describe("a run's host placed among the committed hosts", () => {
  const index = TWO_HOSTS;

  it("indexes a committed run's headline with its CPU identity, interval and verdict", () => {
    expect(index).toEqual([
      expect.objectContaining({
        run: 'results/reference/xeon',
        cpu: expect.objectContaining({ vendor: 'GenuineIntel', family: 6, model: 167, stepping: 1, microcode: '0x1' }),
        runtime: 'node@20',
        scenario: 'hello',
        stack: 'bare',
        ratio: expect.closeTo(2.07 * 1.01, 2),
        verdict: 'holds',
      }),
      expect.objectContaining({ run: 'results/reference/epyc' }),
    ]);
    expect(index[0].cpu).not.toHaveProperty('caches');
  });

  it('places the headline beside each committed host on its runtime line, and knows its own CPU among them', () => {
    const placing = hostPlacing(runOn(XEON, 1.51, index), analyze(runOn(XEON, 1.51, index)).ratios)!;
    expect(placing.places).toHaveLength(1);
    const [place] = placing.places;
    expect(place.host).toBe('Intel family 6 model 167 stepping 1, microcode 0x1');
    expect(place.headline.ratio).toBeCloseTo(1.51 * 1.01, 2);
    expect(place.references.map((entry) => [entry.host, entry.sameHost])).toEqual([
      ['Intel family 6 model 167 stepping 1, microcode 0x1', true],
      ['AMD family 23 model 49 stepping 0, microcode 0x1', false],
    ]);
  });

  it('places nothing for a run that recorded no references, or whose runtime line no reference ran', () => {
    expect(hostPlacing(runOn(XEON, 1.51), analyze(runOn(XEON, 1.51)).ratios)).toBeNull();
    const otherLine = index.map((entry) => ({ ...entry, runtime: 'node@26.12.1' }));
    expect(hostPlacing(runOn(XEON, 1.51, otherLine), analyze(runOn(XEON, 1.51, otherLine)).ratios)).toBeNull();
  });

  it('names a CPU by its vendor, family, model, stepping and microcode', () => {
    expect(hostWords(EPYC)).toBe('AMD family 23 model 49 stepping 0, microcode 0x1');
    expect(hostWords({ ...EPYC, vendor: null, family: null, model: null, stepping: null, microcode: null })).toBe(
      'AMD EPYC',
    );
  });
});
