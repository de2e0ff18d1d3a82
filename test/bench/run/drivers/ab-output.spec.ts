import { readFileSync } from 'node:fs';
import { parseAbOutput } from '../../../../bench/run/drivers/ab-output.js';

// Real output recorded on the development machine (2-vCPU AMD EPYC VM) with the drivers' own arguments.
const fixture = (name: string) => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8');

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
