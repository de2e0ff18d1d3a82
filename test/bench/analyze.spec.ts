import { analyze, NEIGHBOUR_CPU_LIMIT } from '../../bench/analysis/analyze.js';
import { orderTable } from '../../bench/report/tables.js';
import { plainText } from '../../bench/report/rich-table.js';
import { FAILED_ANSWER_LIMIT } from '../../bench/analysis/verdict.js';

const ROUNDS = 12;
const EXPRESS_RPS = 10_000;

/** A small, fixed wobble per round, so intervals have width but every ratio stays well inside its band. */
const wobble = (round: number) => 1 + ((round * 7) % 5) / 100;

/**
 * results.json for Nest-Express and Nest-Fastify on one scenario: in odd rounds Express runs first, in even rounds
 * Fastify, as the plan's rotation does; Fastify's ratio in each round comes from `ratioOf`.
 */
function results(ratioOf: (round: number, expressFirst: boolean) => number) {
  const runs = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const expressFirst = round % 2 === 1;
    const express = EXPRESS_RPS * wobble(round);
    for (const [target, rps, slot] of [
      ['nest-express', express, expressFirst ? 1 : 2],
      ['nest-fastify', express * ratioOf(round, expressFirst), expressFirst ? 2 : 1],
    ] as const) {
      const durationSec = 0.5;
      runs.push({
        runtime: 'node@20',
        target,
        scenario: 'hello',
        round,
        slot,
        startedAt: '2026-01-01T00:00:00.000Z',
        status: 'ok',
        failure: null,
        load: {
          requests: Math.round(rps * durationSec),
          statusCounts: { 200: Math.round(rps * durationSec) },
          durationSec,
          rps,
          latencyMs: { p50: 1, p90: 2, p99: 3, p999: 4, mean: 1, max: 5 },
          errors: 0,
          timeouts: 0,
          unexpectedStatus: 0,
          generatorCpuSec: 0.3,
          warnings: [],
        },
        server: { cpuUsPerRequest: 50, peakRssMiB: 80, peakRssWindow: 'run' },
        generator: { cpuShare: 0.6, saturated: false },
        neighbours: { busiest: 'raw-node', cpuShare: 0 },
      });
    }
  }
  return {
    plan: { runtimes: ['node@20'] },
    options: { rounds: ROUNDS, scenarios: ['hello'], targets: ['nest-express', 'nest-fastify'] },
    runs,
  } as any;
}

const judged = (input: any) => analyze(input).ratios.find((r) => r.judged)!;
const run = (input: any, target: string, round: number) =>
  input.runs.find((r: any) => r.target === target && r.round === round);

describe('downgrade rules, applied to the judged ratio', () => {
  it('a clean run keeps the band its interval lies in', () => {
    const row = judged(results(() => 2));
    expect(row.verdict).toBe('holds');
    expect(row.measuredVerdict).toBe('holds');
    expect([row.failedAnswerRounds, row.saturatedRounds, row.missingRounds, row.neighbourRounds]).toEqual([
      [],
      [],
      [],
      [],
    ]);
  });

  it(`a round where one side's failed requests exceed ${FAILED_ANSWER_LIMIT * 100} % makes the verdict inconclusive`, () => {
    const input = results(() => 2);
    const load = run(input, 'nest-express', 4).load;
    load.unexpectedStatus = Math.ceil(load.requests * FAILED_ANSWER_LIMIT * 2);
    const row = judged(input);
    expect(row.failedAnswerRounds).toEqual([4]);
    expect(row.measuredVerdict).toBe('holds');
    expect(row.verdict).toBe('inconclusive');
  });

  it('timeouts and connection errors count as failed requests as well', () => {
    const input = results(() => 2);
    run(input, 'nest-fastify', 2).load.timeouts = 100;
    run(input, 'nest-express', 9).load.errors = 100;
    expect(judged(input).failedAnswerRounds).toEqual([2, 9]);
  });

  it('failures below the limit are noted but leave the verdict standing', () => {
    const input = results(() => 2);
    run(input, 'nest-express', 4).load.errors = 1;
    const row = judged(input);
    expect(row.someFailedAnswers).toBe(true);
    expect(row.failedAnswerRounds).toEqual([]);
    expect(row.verdict).toBe('holds');
  });

  it('a saturated generator makes "holds" inconclusive and leaves "understated" standing', () => {
    for (const [ratio, expected] of [
      [2, 'inconclusive'],
      [3.2, 'understated'],
    ] as const) {
      const input = results(() => ratio);
      run(input, 'nest-fastify', 7).generator.saturated = true;
      const row = judged(input);
      expect(row.saturatedRounds).toEqual([7]);
      expect(row.verdict).toBe(expected);
    }
  });
});

describe('rounds and neighbours', () => {
  it('lists the planned rounds that have no successful run of both targets', () => {
    const input = results(() => 2);
    input.runs = input.runs.filter((r: any) => !(r.target === 'nest-express' && r.round === 5));
    run(input, 'nest-fastify', 8).status = 'failed';
    const row = judged(input);
    expect(row.missingRounds).toEqual([5, 8]);
    expect(row.summary.n).toBe(ROUNDS - 2);
  });

  it(`flags the rounds where another server used more than ${NEIGHBOUR_CPU_LIMIT * 100} % of a core`, () => {
    const input = results(() => 2);
    run(input, 'nest-express', 3).neighbours = { busiest: 'raw-express', cpuShare: NEIGHBOUR_CPU_LIMIT * 3 };
    run(input, 'nest-fastify', 6).neighbours = { busiest: 'raw-express', cpuShare: NEIGHBOUR_CPU_LIMIT / 2 };
    const row = judged(input);
    expect(row.neighbourRounds).toEqual([3]);
    expect(row.neighbourShare).toBeCloseTo(NEIGHBOUR_CPU_LIMIT * 3, 12);
  });

  it('reads results written before neighbours were recorded as having none', () => {
    const input = results(() => 2);
    for (const r of input.runs) delete r.neighbours;
    expect(judged(input).neighbourRounds).toEqual([]);
  });
});

describe('order report', () => {
  it('gives the median ratio of the Express-first and of the Fastify-first rounds', () => {
    const row = judged(results((round, expressFirst) => (expressFirst ? 1.8 : 2.2) * wobble(round) ** 0.1));
    expect(row.order!.numeratorFirst.n).toBe(6);
    expect(row.order!.denominatorFirst.n).toBe(6);
    expect(row.order!.denominatorFirst.median).toBeCloseTo(1.8, 1);
    expect(row.order!.numeratorFirst.median).toBeCloseTo(2.2, 1);
  });

  it('flags the order when the two halves differ beyond their interval', () => {
    const row = judged(results((round, expressFirst) => (expressFirst ? 1.8 : 2.2) * wobble(round) ** 0.1));
    expect(row.order!.differs).toBe(true);
    expect(Math.exp(row.order!.shift!.estimate)).toBeCloseTo(1.8 / 2.2, 1);
  });

  it('does not flag the order when both halves come from the same spread', () => {
    const row = judged(results((round) => 2 * wobble(round) ** 2));
    expect(row.order!.differs).toBe(false);
  });

  it('does not flag with too few rounds for a 95 % interval of the difference, however far apart', () => {
    const input = results((_, expressFirst) => (expressFirst ? 1.8 : 2.2));
    input.runs = input.runs.filter((r: any) => r.round <= 4);
    input.options.rounds = 4;
    const row = judged(input);
    expect(row.order!.shift!.coverage).toBeLessThan(0.95);
    expect(row.order!.differs).toBe(false);
  });
});

describe('order table', () => {
  it('shows both halves and flags the scenario whose order moved the ratio', () => {
    const table = orderTable(
      analyze(results((round, expressFirst) => (expressFirst ? 1.8 : 2.2) * wobble(round) ** 0.1)),
    );
    const row = table.rows
      .find((r) => plainText(r[2]) === 'nest-fastify ÷ nest-express')!
      .map((cell) => plainText(cell));
    expect(row[3]).toMatch(/^1\.8\d× \(6\)$/);
    expect(row[4]).toMatch(/^2\.2\d× \(6\)$/);
    expect(row[6]).toBe('yes');
  });
});
