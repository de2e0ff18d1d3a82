import { analyzeLoadCurve } from '../../../bench/analysis/latency-curve.js';
import { cpuPerThousandTable, latencyCurveTable } from '../../../bench/report/load-curve-tables.js';
import { plainText, type Table } from '../../../bench/report/rich-table.js';
import type { CurveRunRecord } from '../../../bench/model/results.js';
import { openLoopRun } from '../support/open-loop-runs.js';
import { results as syntheticResults } from '../support/synthetic-results.js';

const RATE = 1000;
const DURATION_SEC = 1;

function curveRun(
  target: string,
  round: number,
  cpuUsPerRequest: number,
  { timeouts = 0, failed = false }: { timeouts?: number; failed?: boolean } = {},
): CurveRunRecord {
  const run = openLoopRun({
    rate: RATE,
    answered: failed ? 0 : RATE * DURATION_SEC,
    timeouts,
    durationSec: DURATION_SEC,
  });
  return {
    runtime: 'node@20',
    scenario: 'hello',
    target,
    level: { share: null, rps: RATE },
    round,
    slot: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
    status: failed ? 'failed' : 'ok',
    failure: failed ? { reason: 'no response completed in 10.00 s' } : null,
    run,
    server: failed ? null : { cpuShare: null, cpuUsPerRequest, peakRssMiB: 100, peakRssWindow: 'run' },
    generatorFlag: null,
  };
}

/** Express costing `expressUs` and Fastify `fastifyUs` of CPU per request, over two rounds, plus `extra` runs. */
function analysis(expressUs: number, fastifyUs: number, extra: ReturnType<typeof curveRun>[] = []) {
  const runs = [1, 2].flatMap((round) => [
    curveRun('nest-express', round, expressUs),
    curveRun('nest-fastify', round, fastifyUs),
  ]);
  const results = {
    ...syntheticResults(() => 2),
    runs: [],
    loadCurve: {
      plans: [
        {
          runtime: 'node@20',
          scenario: 'hello',
          capacityRps: { 'nest-express': 5000, 'nest-fastify': 9000 },
          basis: null,
          levels: [{ share: null, rps: RATE }],
        },
      ],
      runs: [...runs, ...extra],
    },
  };
  return analyzeLoadCurve(results);
}

const noteOf = (table: Table, row = 0) => plainText(table.rows[row].at(-1)!);

describe('the CPU per 1,000 req/s table', () => {
  it('explains a cost above one core: one core cannot serve 1,000 req/s at it', () => {
    // 1,500 µs per request is 150 % of a core at 1,000 req/s
    const table = cpuPerThousandTable(analysis(1500, 500));
    expect(plainText(table.rows[0][4])).toBe('150.0 %');
    expect(noteOf(table)).toMatch(/one core cannot serve 1,000 req\/s/);
  });

  it('adds no such note where both adapters stay within one core', () => {
    expect(noteOf(cpuPerThousandTable(analysis(900, 500)))).toBe('');
  });

  it('reports timeouts, a failed run’s included, beside the CPU they are left out of', () => {
    const curve = analysis(900, 500, [
      curveRun('nest-fastify', 3, 500, { timeouts: 4 }),
      curveRun('nest-fastify', 4, 500, { timeouts: 5, failed: true }),
    ]);
    expect(noteOf(cpuPerThousandTable(curve))).toBe('Nest-Fastify: 9 timeout(s), 0 error(s)');
  });
});

describe('the load-curve latency table', () => {
  it('counts timeouts in their column and says the percentiles they reach are lower bounds', () => {
    const table = latencyCurveTable(analysis(900, 500, [curveRun('nest-fastify', 3, 500, { timeouts: 7 })]));
    const fastify = table.rows.findIndex((row) => row[4] === 'nest-fastify');
    expect(table.rows[fastify][10]).toBe('0 / 7 / 0');
    expect(noteOf(table, fastify)).toMatch(/7 request\(s\) timed out: .* lower bounds/);
    const express = table.rows.findIndex((row) => row[4] === 'nest-express');
    expect(noteOf(table, express)).toBe('');
  });

  it('says which runs were run again after the generator missed its schedule, and keeps the reruns in the latencies', () => {
    const missed = { ...curveRun('nest-fastify', 3, 500), generatorFlag: '2.0 % of requests left over 1 ms late' };
    missed.run!.lateness = { ...missed.run!.lateness, late: 20, share: 0.02 };
    const rerun = { ...curveRun('nest-fastify', 3, 500), missedAttempt: missed };
    const table = latencyCurveTable(analysis(900, 500, [rerun]));
    const fastify = table.rows.findIndex((row) => row[4] === 'nest-fastify');
    expect(noteOf(table, fastify)).toBe('1 run(s) run again after the generator missed its schedule');
  });
});
