import { readFileSync } from 'node:fs';
import { fromArtilleryReport } from '../../../../bench/run/drivers/artillery-report.js';

// A real report (artillery 2.0.21 run --output, the bench's script and processor: 4 connections for 1 s on a loaded
// 2-vCPU machine), cut to its aggregate.
const report = () => JSON.parse(readFileSync(new URL('../../fixtures/artillery-report.json', import.meta.url), 'utf8'));

describe("Artillery's report (with bench/run/drivers/artillery-processor.mjs)", () => {
  it("takes the run's length and Artillery's CPU from the processor's window, the rest from Artillery's own metrics", () => {
    const result = fromArtilleryReport(report(), 200, { durationSec: 1, cpuSec: 3.5 });
    expect(result).toEqual({
      requests: 34,
      statusCounts: { 200: 34 },
      durationSec: 1.2,
      rps: 34 / 1.2,
      latencyMs: { p50: 70.1, p90: 125.2, p99: 172.5, p999: 172.5, mean: 77.4, max: 250 },
      errors: 0,
      timeouts: 0,
      unexpectedStatus: 0,
      generatorCpuSec: 0.1433,
      protocol: 'http/1.1',
    });
  });

  it('counts errors by kind apart from timeouts, and another status as unexpected', () => {
    const withErrors = report();
    Object.assign(withErrors.aggregate.counters, {
      'errors.ETIMEDOUT': 2,
      'errors.ECONNRESET': 3,
      'http.codes.503': 6,
    });
    withErrors.aggregate.counters['http.responses'] = 40;
    const result = fromArtilleryReport(withErrors, 200, { durationSec: 1, cpuSec: 3.5 });
    expect([result.errors, result.timeouts, result.unexpectedStatus, result.requests]).toEqual([3, 2, 6, 40]);
  });

  it("falls back to the asked length and the whole process's CPU without the processor's metrics", () => {
    const bare = report();
    delete bare.aggregate.summaries['bench.window_ms'];
    delete bare.aggregate.summaries['bench.cpu_ms'];
    const result = fromArtilleryReport(bare, 200, { durationSec: 1, cpuSec: 3.5 });
    expect([result.durationSec, result.generatorCpuSec]).toEqual([1, 3.5]);
  });
});
