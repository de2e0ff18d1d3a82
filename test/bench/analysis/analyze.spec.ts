import { analyze, blockGlance, standing } from '../../../bench/analysis/analyze.js';
import { NEIGHBOUR_CPU_LIMIT } from '../../../bench/analysis/rows.js';
import { FAILED_ANSWER_LIMIT } from '../../../bench/analysis/verdict.js';
import type { Results } from '../../../bench/model/results.js';
import { ROUNDS, results, wobble, type SyntheticResults } from '../support/synthetic-results.js';

const judged = (input: Results) => analyze(input).ratios.find((r) => r.judged)!;
const run = (input: SyntheticResults, target: string, round: number) =>
  input.runs.find((r) => r.target === target && r.round === round)!;

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
    load!.unexpectedStatus = Math.ceil(load!.requests * FAILED_ANSWER_LIMIT * 2);
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
    input.runs = input.runs.filter((r) => !(r.target === 'nest-express' && r.round === 5));
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

  it('reads runs that could not record their neighbours (null, as readResults gives older results) as having none', () => {
    const input = results(() => 2);
    for (const r of input.runs) r.neighbours = null;
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
    input.runs = input.runs.filter((r) => r.round <= 4);
    input.options.rounds = 4;
    const row = judged(input);
    expect(row.order!.shift!.coverage).toBeLessThan(0.95);
    expect(row.order!.differs).toBe(false);
  });
});

describe("a block's glance, for the run's log", () => {
  const block = { runtime: 'node@20', scenario: 'hello', stack: 'bare' };

  it("is the compared pair's ratio with its interval, its verdict, and where standing() puts it", () => {
    const input = results(() => 2);
    const row = judged(input);
    expect(blockGlance(input, block)).toEqual({
      pair: 'nest-fastify ÷ nest-express',
      ratio: expect.closeTo(row.summary.median, 6),
      interval: { low: expect.any(Number), high: expect.any(Number) },
      verdict: 'holds',
      standing: 'decided',
    });
    expect(standing(input, block)).toBe('decided');
  });

  it('is decided where the interval lies within 5 % of the edge it reaches across: the look lets a borderline block go', () => {
    const input = results((round) => (round % 2 ? 1.46 : 1.54));
    expect(blockGlance(input, block)).toMatchObject({ verdict: 'borderline at 1.5×', standing: 'decided' });
    expect(standing(input, block)).toBe('decided');
  });

  it('reads open while the interval reaches across a band, and is null where nothing was measured', () => {
    const input = results((round) => (round % 2 ? 1.2 : 1.9));
    expect(blockGlance(input, block)).toMatchObject({ verdict: 'inconclusive', standing: 'undecided' });
    expect(blockGlance(input, { ...block, runtime: 'bun@1' })).toBeNull();
    expect(standing(input, { ...block, runtime: 'bun@1' })).toBe('unjudged');
  });
});
