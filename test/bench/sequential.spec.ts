import { capital, confidenceSequence, predictableScales, sequentialSummary } from '../../bench/analysis/sequential.js';
import { measuredVerdict } from '../../bench/analysis/verdict.js';
import { MIN_BUDGET_ROUNDS, ROUNDS_PER_STEP, pairKey, spendBudget } from '../../bench/run/budget.js';
import type { Pair } from '../../bench/run/plan.js';
import { lognormalRounds, seededNormal } from './support/noise.js';

const NOISE_CV = 0.15;
/** Rounds a simulated scenario may reach before its budget is spent: twice the fixed design's 12. */
const MAX_ROUNDS = 24;
/** Seeded and counted, never timed: the limit only keeps a loaded machine from failing them. */
const SIMULATION_TIMEOUT_MS = 60_000;

const pair = (target: string): Pair => ({ target, scenario: 'hello', stack: 'bare' });
const block = [pair('nest-express'), pair('nest-fastify')];

/** Every pair's run took `seconds`, as runRound reports it. */
const tookEach = (pairs: Pair[], seconds: number) => new Map(pairs.map((p) => [pairKey(p), seconds]));

/**
 * One simulated scenario under the budgeted round loop itself: each round takes a second, the budget is MAX_ROUNDS
 * seconds, and the scenario stops as the bench stops it, once the confidence sequence lies in one verdict band.
 */
async function budgetedRun(rounds: number[]) {
  let seen = 0;
  const [stop] = await spendBudget({
    pairs: block,
    budgetSec: MAX_ROUNDS,
    clock: () => seen,
    standing: () =>
      measuredVerdict(sequentialSummary(rounds.slice(0, seen))) === 'inconclusive' ? 'undecided' : 'decided',
    runRound: async (pairs) => {
      seen++;
      return tookEach(pairs, 1 / pairs.length);
    },
  });
  const summary = sequentialSummary(rounds.slice(0, stop.rounds));
  return { stop, summary };
}

/** Runs `trials` simulated scenarios; coverage: how often the stopped interval holds the true ratio. */
async function simulate(seed: number, trials: number, ratio: number, phi: number) {
  const normal = seededNormal(seed);
  let covered = 0;
  let decided = 0;
  let rounds = 0;
  for (let trial = 0; trial < trials; trial++) {
    const { stop, summary } = await budgetedRun(lognormalRounds(normal, MAX_ROUNDS, ratio, NOISE_CV, phi));
    if (summary.ci!.low <= ratio && ratio <= summary.ci!.high) covered++;
    if (stop.stoppedOn === 'decided') decided++;
    rounds += stop.rounds;
  }
  return { coverage: covered / trials, decided: decided / trials, meanRounds: rounds / trials };
}

describe('confidence sequence for the centre of the log ratios', () => {
  it('bets on the sign alone until three earlier rounds give a scale, and only on earlier rounds', () => {
    const values = [0, 1, 2, 10, 3];
    const scales = predictableScales(values);
    expect(scales.slice(0, 3)).toEqual([0, 0, 0]);
    expect(scales[3]).toBeGreaterThan(0);
    // a wild fourth round does not set its own scale
    expect(predictableScales([0, 1, 2, 1000, 3])[3]).toBe(scales[3]);
  });

  it('starts every bettor at a capital of 1 and grows the one betting on the side the rounds fall', () => {
    expect(capital([], [], 0, 1)).toBe(1);
    const values = [1, 2, 1.5, 1.2, 1.8];
    const scales = predictableScales(values);
    expect(capital(values, scales, 0, 1)).toBeGreaterThan(1);
    expect(capital(values, scales, 0, -1)).toBeLessThan(1);
  });

  it('moves no further for a wild round than for a merely high one', () => {
    const calm = [0.4, 0.42, 0.38, 0.41, 0.39, 0.4, 0.43, 0.37, 0.4, 0.41, 0.39, 0.42, 0.38, 0.41, 0.4, 0.39];
    const high = confidenceSequence([...calm, 1])!;
    const wild = confidenceSequence([...calm, 50])!;
    expect(wild.low).toBeCloseTo(high.low, 4);
    expect(wild.high).toBeCloseTo(high.high, 4);
    expect(high.high).toBeLessThan(0.5);
  });

  it('is unbounded until the rounds could rule anything out, and narrows as rounds come', () => {
    const normal = seededNormal(1);
    const logs = lognormalRounds(normal, 20, 1.2, 0.05).map(Math.log);
    expect(confidenceSequence(logs.slice(0, 4))).toMatchObject({ low: -Infinity, high: Infinity });
    const at12 = confidenceSequence(logs.slice(0, 12))!;
    const at20 = confidenceSequence(logs)!;
    expect(Number.isFinite(at12.low) && Number.isFinite(at12.high)).toBe(true);
    expect(at20.high - at20.low).toBeLessThan(at12.high - at12.low);
  });

  it('does not exist for one round', () => {
    expect(confidenceSequence([0.4])).toBeNull();
  });
});

describe('rounds under a budget', () => {
  const pairs = ['hello', 'json', 'raw'].flatMap((scenario) =>
    ['nest-express', 'nest-fastify'].map((target) => ({ target, scenario, stack: 'bare' })),
  );
  type Standing = (block: { scenario: string }, rounds: number) => 'decided' | 'undecided' | 'unjudged';
  /** Decided from the given round on; scenarios not named have no verdict to decide. */
  const decidedFrom =
    (round: Record<string, number>): Standing =>
    ({ scenario }, rounds) =>
      scenario in round ? (rounds >= round[scenario] ? 'decided' : 'undecided') : 'unjudged';

  /** spendBudget on a clock that advances by each round's runs; returns the stops and the scenarios of every round. */
  async function spend(standing: Standing, { budgetSec = 1000, secondsPerRun = 0.5, interruptAfter = Infinity } = {}) {
    let clock = 0;
    const ran: string[][] = [];
    const stops = await spendBudget({
      pairs,
      budgetSec,
      clock: () => clock,
      standing: (block) => standing(block, ran.length),
      runRound: async (active) => {
        if (ran.length >= interruptAfter) return null;
        clock += active.length * secondsPerRun;
        ran.push([...new Set(active.map((p) => p.scenario))]);
        return tookEach(active, secondsPerRun);
      },
    });
    return { stops, ran, clock };
  }

  it('runs every scenario the minimum rounds, then stops each once decided, and one without a verdict at once', async () => {
    const { stops, ran } = await spend(decidedFrom({ hello: 4, json: 9 }));
    expect(stops).toEqual([
      { scenario: 'hello', stack: 'bare', rounds: MIN_BUDGET_ROUNDS, stoppedOn: 'decided' },
      { scenario: 'raw', stack: 'bare', rounds: MIN_BUDGET_ROUNDS, stoppedOn: 'unjudged' },
      { scenario: 'json', stack: 'bare', rounds: 10, stoppedOn: 'decided' },
    ]);
    expect(ran.slice(MIN_BUDGET_ROUNDS)).toEqual([['json'], ['json'], ['json'], ['json']]);
  });

  it('adds rounds two at a time, so every scenario stops after as many Express-first as Fastify-first rounds', async () => {
    const { stops } = await spend(decidedFrom({ hello: 7, json: 11, raw: 8 }));
    expect(stops.map((s) => s.rounds % ROUNDS_PER_STEP)).toEqual([0, 0, 0]);
  });

  it('stops the undecided scenarios on the budget when their next two rounds would not fit', async () => {
    const { stops, clock } = await spend(() => 'undecided', { budgetSec: 30 });
    // 3 s a round: 8 rounds take 24 s, two more would end at 30 s, two beyond that would not fit
    expect(stops.map((s) => [s.rounds, s.stoppedOn])).toEqual([
      [10, 'budget'],
      [10, 'budget'],
      [10, 'budget'],
    ]);
    expect(clock).toBeLessThanOrEqual(30);
  });

  it('records no stop for a scenario still running when interrupted', async () => {
    const { stops } = await spend(() => 'undecided', { interruptAfter: 7 });
    expect(stops).toEqual([]);
  });
});

describe('coverage under the budget\u2019s stopping rule (lognormal noise, CV 15 %, at most 24 rounds)', () => {
  it.each([
    [1.5, 'on the edge between "does not hold" and "holds"', 'independent rounds', 0],
    [2, 'inside "holds"', 'independent rounds', 0],
    [1.2, 'inside "does not hold"', 'independent rounds', 0],
    [1.5, 'on the edge between "does not hold" and "holds"', 'a drifting host (AR(1), φ = 0.5)', 0.5],
    [2, 'inside "holds"', 'a drifting host (AR(1), φ = 0.5)', 0.5],
  ])(
    'covers %s× (%s) in at least 95 % of runs with %s',
    async (ratio, _where, _host, phi) => {
      const { coverage } = await simulate(phi ? 7 : 0x5eed, 1000, ratio, phi);
      expect(coverage).toBeGreaterThanOrEqual(0.95);
    },
    SIMULATION_TIMEOUT_MS,
  );

  it(
    'stops a clearly decided scenario before its budget is spent, and in the right band',
    async () => {
      const normal = seededNormal(11);
      let early = 0;
      let right = 0;
      const trials = 500;
      for (let trial = 0; trial < trials; trial++) {
        const { stop, summary } = await budgetedRun(lognormalRounds(normal, MAX_ROUNDS, 1.1, NOISE_CV));
        if (stop.stoppedOn === 'decided' && stop.rounds < MAX_ROUNDS) early++;
        if (measuredVerdict(summary) === 'does not hold') right++;
      }
      expect(early / trials).toBeGreaterThan(0.9);
      expect(right / trials).toBeGreaterThan(0.9);
    },
    SIMULATION_TIMEOUT_MS,
  );

  it(
    'spends the budget on a scenario whose ratio sits on a band edge',
    async () => {
      const { decided, meanRounds } = await simulate(3, 300, 1.5, 0);
      expect(decided).toBeLessThan(0.05);
      expect(meanRounds).toBeGreaterThan(MAX_ROUNDS - 1);
    },
    SIMULATION_TIMEOUT_MS,
  );
});
