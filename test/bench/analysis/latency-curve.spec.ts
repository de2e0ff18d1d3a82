import hdr from 'hdr-histogram-js';
import { mergedPercentiles } from '../../../bench/analysis/latency-curve.js';
import { HISTOGRAM } from '../../../bench/run/open-loop/generator.js';

/** One round's histogram, as the generator stores it: microseconds, compressed base64. */
function round(latenciesUs: number[]): string {
  const histogram = hdr.build(HISTOGRAM);
  for (const value of latenciesUs) histogram.recordValue(value);
  const encoded = hdr.encodeIntoCompressedBase64(histogram);
  histogram.destroy();
  return encoded;
}

const repeat = (value: number, times: number) => Array.from({ length: times }, () => value);

describe('load-curve percentiles', () => {
  it('come from the rounds merged, not from a median of per-round percentiles', () => {
    // two quiet rounds and one with a 2 % tail at 50 ms: each quiet round's p99 is 1 ms, the merged p99 is not
    const quiet = round(repeat(1000, 1000));
    const stalled = round([...repeat(1000, 980), ...repeat(50_000, 20)]);
    const { latencyMs, requests } = mergedPercentiles([quiet, quiet, stalled]);
    expect(requests).toBe(3000);
    expect(latencyMs.p50.value).toBeCloseTo(1, 2);
    // 20 of 3,000 answers are slow (0.67 %): above the 99th percentile's rank, below the 99.9th's
    expect(latencyMs.p99.value).toBeCloseTo(1, 2);
    expect(latencyMs.p999.value).toBeCloseTo(50, 1);
  });

  it('give an interval over rounds that contains the estimate, and none from a single round', () => {
    const rounds = [900, 1000, 1100, 1200, 1300].map((us) => round(repeat(us, 200)));
    const { latencyMs } = mergedPercentiles(rounds);
    const p50 = latencyMs.p50;
    expect(p50.ci).not.toBeNull();
    expect(p50.ci!.low).toBeLessThanOrEqual(p50.value);
    expect(p50.ci!.high).toBeGreaterThanOrEqual(p50.value);
    expect(p50.ci!.high).toBeGreaterThan(p50.ci!.low);
    expect(mergedPercentiles([rounds[0]]).latencyMs.p50.ci).toBeNull();
  });

  it('are the same every time the report is rendered', () => {
    const rounds = [round(repeat(800, 50)), round(repeat(1600, 50)), round(repeat(3200, 50))];
    expect(mergedPercentiles(rounds)).toEqual(mergedPercentiles(rounds));
  });
});
