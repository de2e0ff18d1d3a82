import { readFileSync } from 'node:fs';
import { parseAbOutput } from '../../bench/run/drivers/ab-output.js';
import { fromAutocannonResult } from '../../bench/run/drivers/autocannon.js';
import { parseWrkOutput } from '../../bench/run/drivers/wrk-output.js';

// Real output recorded on the development machine (2-vCPU AMD EPYC VM) with the drivers' own arguments.
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('wrk output (with bench/run/drivers/wrk.lua)', () => {
  it('reads requests, duration, rate and latency percentiles in ms from the result line', () => {
    const result = parseWrkOutput(fixture('wrk-hello.txt'));
    expect(result.requests).toBe(50346);
    expect(result.durationSec).toBeCloseTo(1.002693, 9);
    expect(result.rps).toBeCloseTo(50346 / 1.002693, 6);
    expect(result.latencyMs).toEqual({ p50: 0.637, p90: 7.938, p99: 92, p999: 139.621, mean: 5.0717, max: 167.815 });
    expect([result.errors, result.timeouts, result.non2xx]).toEqual([0, 0, 0]);
  });

  it('counts 4xx/5xx responses (wrk "status errors") as non-2xx, not as errors', () => {
    const result = parseWrkOutput(fixture('wrk-404.txt'));
    expect(result.non2xx).toBe(98048);
    expect(result.requests).toBe(98048);
    expect(result.errors).toBe(0);
  });

  it('reads a POST run driven through the Lua script', () => {
    const result = parseWrkOutput(fixture('wrk-orders-post.txt'));
    expect(result.requests).toBe(3053);
    expect(result.non2xx).toBe(0);
    expect(result.latencyMs.p999).toBe(33.33);
  });

  it('fails loudly when wrk printed no result line', () => {
    expect(() => parseWrkOutput('unable to connect to 127.0.0.1:3100 Connection refused\n')).toThrow(/no result line/);
  });
});

describe('ab output (stdout and the -e percentile CSV)', () => {
  it('reads requests, duration, percentiles and mean; p99.9 does not exist in ab', () => {
    const result = parseAbOutput(fixture('ab-hello.txt'), fixture('ab-hello.csv'));
    expect(result.requests).toBe(47297);
    expect(result.durationSec).toBe(1);
    expect(result.rps).toBe(47297);
    expect(result.latencyMs).toEqual({ p50: 0.854, p90: 1.595, p99: 4.174, p999: null, mean: 1.057, max: 28.294 });
    expect([result.errors, result.timeouts, result.non2xx]).toEqual([0, 0, 0]);
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
    expect(result.non2xx).toBe(5095);
    expect(result.warnings).toEqual([expect.stringMatching(/kept only 0 of 5095 requests/)]);
  });

  it('fails loudly on output that is not an ab report', () => {
    expect(() => parseAbOutput('apr_socket_connect(): Connection refused (111)\n', '')).toThrow(/Complete requests/);
  });
});

describe('autocannon result object', () => {
  it('is reduced to a load result: total responses over measured duration, p99.9 from p99_9', () => {
    const raw = JSON.parse(fixture('autocannon-404.json'));
    const result = fromAutocannonResult(raw, 0.5);
    expect(result.requests).toBe(13396);
    expect(result.durationSec).toBe(1.04);
    expect(result.rps).toBeCloseTo(13396 / 1.04, 9);
    expect(result.latencyMs).toEqual({ p50: 0, p90: 1, p99: 11, p999: 32, mean: 0.48, max: 53 });
    expect(result.non2xx).toBe(13396);
    expect(result.generatorCpuSec).toBe(0.5);
  });

  it('counts timeouts apart from other errors (autocannon counts a timeout as both)', () => {
    const raw = { ...JSON.parse(fixture('autocannon-404.json')), errors: 7, timeouts: 3 };
    const result = fromAutocannonResult(raw, 0);
    expect(result.errors).toBe(4);
    expect(result.timeouts).toBe(3);
  });
});
