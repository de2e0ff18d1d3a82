import { readFileSync } from 'node:fs';
import { fromAutocannonResult } from '../../../../bench/run/drivers/autocannon.js';

// Real output recorded on the development machine (2-vCPU AMD EPYC VM) with the drivers' own arguments.
const fixture = (name: string) => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8');

describe('autocannon result object', () => {
  it('is reduced to a load result: total responses over measured duration, p99.9 from p99_9', () => {
    const raw = JSON.parse(fixture('autocannon-404.json'));
    const result = fromAutocannonResult(raw, 404, 0.5);
    expect(result.requests).toBe(13396);
    expect(result.durationSec).toBe(1.04);
    expect(result.rps).toBeCloseTo(13396 / 1.04, 9);
    expect(result.latencyMs).toEqual({ p50: 0, p90: 1, p99: 11, p999: 32, mean: 0.48, max: 53 });
    expect(result.statusCounts).toEqual({ 404: 13396 });
    expect(result.unexpectedStatus).toBe(0);
    expect(result.generatorCpuSec).toBe(0.5);
  });

  it('counts only responses with the expected status as throughput (autocannon counts by status)', () => {
    const raw = JSON.parse(fixture('autocannon-404.json'));
    const result = fromAutocannonResult(raw, 200, 0);
    expect(result.rps).toBe(0);
    expect(result.unexpectedStatus).toBe(13396);
  });

  it('counts timeouts apart from other errors (autocannon counts a timeout as both)', () => {
    const raw = { ...JSON.parse(fixture('autocannon-404.json')), errors: 7, timeouts: 3 };
    const result = fromAutocannonResult(raw, 200, 0);
    expect(result.errors).toBe(4);
    expect(result.timeouts).toBe(3);
  });
});
