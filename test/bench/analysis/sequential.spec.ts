import { LOOKS, LOOK_CONFIDENCE, sequentialInterval, sequentialSummary } from '../../../bench/analysis/sequential.js';
import { signedRankInterval } from '../../../bench/analysis/stats.js';
import { isBorderline, measuredVerdict } from '../../../bench/analysis/verdict.js';
import { MAX_BUDGET_ROUNDS, MIN_BUDGET_ROUNDS, ROUNDS_PER_STEP } from '../../../bench/model/design.js';
import { spendBudget } from '../../../bench/run/designs/budget.js';
import { pairKey } from '../../../bench/model/keys.js';
import type { Pair } from '../../../bench/run/plan.js';
import { lognormalRounds, seededNormal } from '../support/noise.js';

const NOISE_CV = 0.15;
/** Seeded and counted, never timed: the limit only keeps a loaded machine from failing them. */
const SIMULATION_TIMEOUT_MS = 240_000;

const pair = (target: string): Pair => ({ target, scenario: 'hello', stack: 'bare' });
const block = [pair('nest-express'), pair('nest-fastify')];

/** Every pair's run took `seconds`, as runRound reports it. */
const tookEach = (pairs: Pair[], seconds: number) => new Map(pairs.map((p) => [pairKey(p), seconds]));

/**
 * One simulated scenario under the budgeted round loop itself: each round takes a second, the budget would hold more
 * than the round cap, and the scenario stops as the bench stops it, once its interval lies in one verdict band.
 */
async function budgetedRun(rounds: number[]) {
  let seen = 0;
  const [stop] = await spendBudget({
    pairs: block,
    budgetSec: 2 * MAX_BUDGET_ROUNDS,
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
  let banded = 0;
  let rounds = 0;
  for (let trial = 0; trial < trials; trial++) {
    const { stop, summary } = await budgetedRun(lognormalRounds(normal, MAX_BUDGET_ROUNDS, ratio, NOISE_CV, phi));
    if (summary.ci!.low <= ratio && ratio <= summary.ci!.high) covered++;
    if (stop.stoppedOn === 'decided') decided++;
    if (stop.stoppedOn === 'decided' && !isBorderline(measuredVerdict(summary))) banded++;
    rounds += stop.rounds;
  }
  return {
    coverage: covered / trials,
    decided: decided / trials,
    banded: banded / trials,
    meanRounds: rounds / trials,
  };
}

describe('group-sequential interval for the centre of the log ratios', () => {
  it('looks where the budget loop looks: at the minimum rounds, then every second round up to the cap', () => {
    expect(LOOKS[0]).toBe(MIN_BUDGET_ROUNDS);
    expect(LOOKS.at(-1)).toBe(MAX_BUDGET_ROUNDS);
    expect(LOOKS.slice(1).map((look, i) => look - LOOKS[i])).toEqual(LOOKS.slice(1).map(() => ROUNDS_PER_STEP));
  });

  it('is unbounded while too few rounds can reach the per-look confidence, and bounded from 12 rounds', () => {
    const logs = lognormalRounds(seededNormal(1), 12, 1.2, 0.05).map(Math.log);
    expect(sequentialInterval(logs.slice(0, 10))).toMatchObject({ low: -Infinity, high: Infinity });
    const at12 = sequentialInterval(logs)!;
    expect(Number.isFinite(at12.low) && Number.isFinite(at12.high)).toBe(true);
  });

  it('is the signed-rank interval at the per-look confidence when the rounds show no autocorrelation', () => {
    // alternating rounds: lag-1 autocorrelation far below zero, nothing to widen for
    const logs = Array.from({ length: 16 }, (_, i) => 0.4 + (i % 2 ? 0.05 : -0.05) * (1 + i / 16));
    const { low, high } = signedRankInterval(logs, LOOK_CONFIDENCE)!;
    expect(sequentialInterval(logs)).toMatchObject({ low, high });
  });

  it('widens the interval for rounds that drift', () => {
    const logs = Array.from({ length: 16 }, (_, i) => 0.4 + 0.01 * i);
    const plain = signedRankInterval(logs, LOOK_CONFIDENCE)!;
    const interval = sequentialInterval(logs)!;
    expect(interval.low).toBeLessThan(plain.low);
    expect(interval.high).toBeGreaterThan(plain.high);
  });

  it.each([
    ['independent rounds', 0],
    ['a drifting host (AR(1), φ = 0.5), the case the per-look confidence was chosen for', 0.5],
  ])('covers the centre at every look at once in at least 95 % of series with %s', (_host, phi) => {
    const normal = seededNormal(21);
    const trials = 2000;
    let allCovered = 0;
    for (let trial = 0; trial < trials; trial++) {
      const logs = lognormalRounds(normal, MAX_BUDGET_ROUNDS, 1, NOISE_CV, phi).map(Math.log);
      const coveredAt = (look: number) => {
        const { low, high } = sequentialInterval(logs.slice(0, look))!;
        return low <= 0 && 0 <= high;
      };
      if (LOOKS.every(coveredAt)) allCovered++;
    }
    expect(allCovered / trials).toBeGreaterThanOrEqual(0.95);
  });

  it('does not exist for one round', () => {
    expect(sequentialInterval([0.4])).toBeNull();
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

  it('stops an undecided scenario at the round cap even when the budget would hold more rounds', async () => {
    const { stops } = await spend(() => 'undecided', { budgetSec: 1e6 });
    expect(stops.map((s) => [s.rounds, s.stoppedOn])).toEqual([
      [MAX_BUDGET_ROUNDS, 'budget'],
      [MAX_BUDGET_ROUNDS, 'budget'],
      [MAX_BUDGET_ROUNDS, 'budget'],
    ]);
  });

  it('records no stop for a scenario still running when interrupted', async () => {
    const { stops } = await spend(() => 'undecided', { interruptAfter: 7 });
    expect(stops).toEqual([]);
  });
});

describe('coverage under the budget\u2019s stopping rule (lognormal noise, CV 15 %, at most MAX_BUDGET_ROUNDS rounds)', () => {
  it.each([
    [1.2, 'inside "does not hold"', 'independent rounds', 0],
    [1.45, 'just below the edge of "holds"', 'independent rounds', 0],
    [1.5, 'on the edge between "does not hold" and "holds"', 'independent rounds', 0],
    [2, 'inside "holds"', 'independent rounds', 0],
    [3, 'inside "understated"', 'independent rounds', 0],
    [1.2, 'inside "does not hold"', 'a drifting host (AR(1), φ = 0.5)', 0.5],
    [1.45, 'just below the edge of "holds"', 'a drifting host (AR(1), φ = 0.5)', 0.5],
    [1.5, 'on the edge between "does not hold" and "holds"', 'a drifting host (AR(1), φ = 0.5)', 0.5],
    [2, 'inside "holds"', 'a drifting host (AR(1), φ = 0.5)', 0.5],
    [3, 'inside "understated"', 'a drifting host (AR(1), φ = 0.5)', 0.5],
  ])(
    'covers %s× (%s) at the stop in at least 95 % of runs with %s',
    async (ratio, _where, _host, phi) => {
      const { coverage } = await simulate(phi ? 7 : 0x5eed, 500, ratio, phi);
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
        const { stop, summary } = await budgetedRun(lognormalRounds(normal, MAX_BUDGET_ROUNDS, 1.1, NOISE_CV));
        if (stop.stoppedOn === 'decided' && stop.rounds < MAX_BUDGET_ROUNDS) early++;
        if (measuredVerdict(summary) === 'does not hold') right++;
      }
      expect(early / trials).toBeGreaterThan(0.9);
      expect(right / trials).toBeGreaterThan(0.9);
    },
    SIMULATION_TIMEOUT_MS,
  );

  it(
    'stops a scenario whose ratio sits on a band edge only as borderline at that edge, never in a band',
    async () => {
      const { decided, banded } = await simulate(3, 300, 1.5, 0);
      // the borderline margin (BORDERLINE_MARGIN) is what the method reaches: most runs know the edge before the cap
      expect(decided).toBeGreaterThan(0.5);
      expect(banded).toBeLessThan(0.05);
    },
    SIMULATION_TIMEOUT_MS,
  );
});
