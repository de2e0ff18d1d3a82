import { readFileSync } from 'node:fs';
import { parseAbOutput } from '../../bench/run/drivers/ab-output.js';
import { fromAutocannonResult } from '../../bench/run/drivers/autocannon.js';
import { parseWrkOutput } from '../../bench/run/drivers/wrk-output.js';

// Real output recorded on the development machine (2-vCPU AMD EPYC VM) with the drivers' own arguments.
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

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

describe('ab output (stdout and the -e percentile CSV)', () => {
  it('reads requests, duration, percentiles and mean; p99.9 does not exist in ab', () => {
    const result = parseAbOutput(fixture('ab-hello.txt'), fixture('ab-hello.csv'));
    expect(result.requests).toBe(47297);
    expect(result.durationSec).toBe(1);
    expect(result.rps).toBe(47297);
    expect(result.latencyMs).toEqual({ p50: 0.854, p90: 1.595, p99: 4.174, p999: null, mean: 1.057, max: 28.294 });
    expect([result.errors, result.timeouts, result.unexpectedStatus]).toEqual([0, 0, 0]);
    expect(result.warnings).toEqual([]);
  });

  it('does not count "Length" failures (bodies of varying length) as errors', () => {
    const result = parseAbOutput(fixture('ab-queries.txt'), fixture('ab-queries.csv'));
    expect(result.requests).toBe(215);
    expect(result.errors).toBe(0);
    expect(result.latencyMs.p50).toBe(33.53);
  });

  it('reads non-2xx responses and warns when connections were not kept alive', () => {
    const result = parseAbOutput(fixture('ab-post-404.txt'), fixture('ab-post-404.csv'));
    expect(result.unexpectedStatus).toBe(5095);
    expect(result.rps).toBe(0);
    expect(result.statusCounts).toBeNull();
    expect(result.warnings).toEqual([expect.stringMatching(/kept only 0 of 5095 requests/)]);
  });

  it('fails loudly on output that is not an ab report', () => {
    expect(() => parseAbOutput('apr_socket_connect(): Connection refused (111)\n', '')).toThrow(/Complete requests/);
  });
});

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
