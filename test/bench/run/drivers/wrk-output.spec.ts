import { readFileSync } from 'node:fs';
import { parseWrkOutput } from '../../../../bench/run/drivers/wrk-output.js';

// Real output recorded on the development machine (2-vCPU AMD EPYC VM) with the drivers' own arguments.
const fixture = (name: string) => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8');

describe('wrk output (with bench/run/drivers/wrk.lua)', () => {
  it('reads requests, per-status counts, duration, rate and latency percentiles in ms from the result line', () => {
    const result = parseWrkOutput(fixture('wrk-hello.txt'), 200);
    expect(result.requests).toBe(9319);
    expect(result.statusCounts).toEqual({ 200: 9319 });
    expect(result.durationSec).toBeCloseTo(1.013943, 9);
    expect(result.rps).toBeCloseTo(9319 / 1.013943, 6);
    expect(result.latencyMs).toEqual({
      p50: 4.896,
      p90: 9.38,
      p99: 48.307,
      p999: 107.708,
      mean: 6.76177,
      max: 113.719,
    });
    expect([result.errors, result.timeouts, result.unexpectedStatus]).toEqual([0, 0, 0]);
  });

  it('counts only responses with the expected status as throughput, and the others as unexpected', () => {
    const result = parseWrkOutput(fixture('wrk-mixed-503.txt'), 200);
    expect(result.statusCounts).toEqual({ 200: 1247, 503: 138 });
    expect(result.requests).toBe(1385);
    expect(result.rps).toBeCloseTo(1247 / 1.075377, 6);
    expect(result.unexpectedStatus).toBe(138);
    expect(result.errors).toBe(0);
  });

  it('gives no throughput when every response had another status, whatever wrk counted', () => {
    const result = parseWrkOutput(fixture('wrk-404.txt'), 200);
    expect(result.requests).toBe(14726);
    expect(result.rps).toBe(0);
    expect(result.unexpectedStatus).toBe(14726);
  });

  it('counts every response of a pipelined run (10 requests per write)', () => {
    const result = parseWrkOutput(fixture('wrk-pipelined.txt'), 200);
    expect(result.statusCounts).toEqual({ 200: 12011 });
    expect(result.rps).toBeCloseTo(12011 / 1.016313, 6);
  });

  it('fails loudly when wrk printed no result line', () => {
    expect(() => parseWrkOutput('unable to connect to 127.0.0.1:3100 Connection refused\n', 200)).toThrow(
      /no result line/,
    );
  });
});
