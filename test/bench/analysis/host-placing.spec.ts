import { analyze } from '../../../bench/analysis/analyze.js';
import { type ReferenceHost, hostPlacing, hostWords, referenceEntries } from '../../../bench/analysis/host-placing.js';
import type { CpuIdentity } from '../../../bench/model/records.js';
import { hostTable } from '../../../bench/report/host-table.js';
import { plainText } from '../../../bench/report/rich-table.js';
import { ENVIRONMENT, results } from '../support/synthetic-results.js';

const XEON: CpuIdentity = {
  vendor: 'GenuineIntel',
  family: 6,
  model: 167,
  modelName: 'Intel(R) Xeon(R)',
  stepping: 1,
  microcode: '0x1',
  caches: [],
};
const EPYC: CpuIdentity = {
  ...XEON,
  vendor: 'AuthenticAMD',
  family: 23,
  model: 49,
  modelName: 'AMD EPYC',
  stepping: 0,
};

/** A run of hello at `ratio` on a host, with the references it recorded when it started. */
function runOn(cpu: CpuIdentity, ratio: number, referenceHosts?: ReferenceHost[]) {
  const run = results((round) => ratio * (1 + (round % 3) / 100), { starts: 4 });
  return {
    ...run,
    environment: { ...ENVIRONMENT, host: { cpu, kernel: '6.8.0', virtualization: { vm: 'kvm', container: null } } },
    ...(referenceHosts ? { referenceHosts } : {}),
  };
}

/** The index entries a committed run on `cpu` reading `ratio` would give. */
function reference(run: string, cpu: CpuIdentity, ratio: number): ReferenceHost[] {
  const committed = runOn(cpu, ratio);
  return referenceEntries(run, committed, analyze(committed).ratios);
}

describe("a run's host placed among the committed hosts", () => {
  const index = [...reference('results/reference/xeon', XEON, 2.07), ...reference('results/reference/epyc', EPYC, 2.0)];

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

  it('says in one sentence where the host stands: its headline, the span the committed hosts read, and which side', () => {
    const analysis = analyze(runOn(XEON, 1.51, index));
    const table = hostTable(analysis);
    const intro = plainText(table.intro!);
    expect(intro).toMatch(
      /^node@20 .*: this host, Intel family 6 model 167 stepping 1, microcode 0x1: 1\.53× \(.*\); the committed hosts read 2\.02×–2\.09×, this host below every one \(results\/reference\/xeon ran on this CPU\)\./,
    );
    expect(table.rows.map((row) => plainText(row[5]))).toEqual([
      'this run',
      'results/reference/xeon (2026-01-01)',
      'results/reference/epyc (2026-01-01)',
    ]);
  });

  it('places nothing for a run that recorded no references, or whose runtime line no reference ran', () => {
    expect(hostPlacing(runOn(XEON, 1.51), analyze(runOn(XEON, 1.51)).ratios)).toBeNull();
    const otherLine = index.map((entry) => ({ ...entry, runtime: 'node@26.12.1' }));
    expect(hostPlacing(runOn(XEON, 1.51, otherLine), analyze(runOn(XEON, 1.51, otherLine)).ratios)).toBeNull();
    expect(hostTable(analyze(runOn(XEON, 1.51))).rows).toEqual([]);
  });

  it('names a CPU by its vendor, family, model, stepping and microcode', () => {
    expect(hostWords(EPYC)).toBe('AMD family 23 model 49 stepping 0, microcode 0x1');
    expect(hostWords({ ...EPYC, vendor: null, family: null, model: null, stepping: null, microcode: null })).toBe(
      'AMD EPYC',
    );
  });
});
