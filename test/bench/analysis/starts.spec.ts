import { compareAnalyses } from '../../../bench/analysis/comparison.js';
import { analyze } from '../../../bench/analysis/analyze.js';
import { sequentialSummary } from '../../../bench/analysis/sequential.js';
import {
  BUDGETED_STARTS_CONFIDENCE,
  SLOWED_START_FACTOR,
  STOP_RULE,
  analyzeStarts,
  slowedStarts,
  startInterval,
  startMeans,
  varianceSplit,
} from '../../../bench/analysis/starts.js';
import { RECORDED_BEFORE_STOP_RULE, type Results, upgradeResults } from '../../../bench/model/results.js';
import { AUTOCORRELATION_LIMIT, summarize } from '../../../bench/analysis/stats.js';
import { type BlockChoice, FIRST_LOOK_STARTS, MAX_STARTS, designOf } from '../../../bench/model/design.js';
import { wantsAnotherStart } from '../../../bench/run/designs/budget.js';
import {
  BORDERLINE_MARGIN,
  HOLDS_MIN,
  edgeWithin,
  isBorderline,
  measuredVerdict,
} from '../../../bench/analysis/verdict.js';
import { MIN_STEADY_ROUNDS } from '../../../bench/run/designs/steady-block.js';
import { DEFAULT_BUDGET_SEC, DEFAULT_STARTS } from '../../../bench/run/options.js';
import { seededNormal } from '../support/noise.js';
import { results } from '../support/synthetic-results.js';
import { startsTable } from '../../../bench/report/starts-table.js';
import { verdictTable } from '../../../bench/report/tables.js';

/**
 * The noise of the Fastify ÷ Express log ratio on products, measured on this machine with --starts 8 (docs/method.md,
 * "Starts as the unit"): the standard deviation of a start's own level, and of a round about it.
 */
const MEASURED = { between: 0.19, within: 0.46 };
/** The same starts' level with the rounds of a quiet host (the per-round CV of 15 % the other simulations model). */
const QUIET_ROUNDS = { between: 0.19, within: 0.15 };
/** What a start and a round cost in that run, seconds: a start's boot and warm-up, a round of its four pairs. */
const MEASURED_COST = { startSec: 12, roundSec: 3 };
/** The default run's on this machine (docs/method.md): a start's boot and warm-up of its 16 pairs, and a round of them. */
const DEFAULT_RUN_COST = { startSec: 34, roundSec: 9 };
const TRUE_RATIO = 1.8;
const TRIALS = 2000;
/** Seeded and counted, never timed: the limit only keeps a loaded machine from failing them. */
const SIMULATION_TIMEOUT_MS = 240_000;

/** A start's rounds: its own level, drawn once, and each round's noise about it. */
function startRounds(normal: () => number, rounds: number, noise = MEASURED, truth = TRUE_RATIO) {
  const level = noise.between * normal();
  return Array.from({ length: rounds }, () => truth * Math.exp(level + noise.within * normal()));
}

const covers = (ci: { low: number; high: number } | null) =>
  ci !== null && ci.low <= TRUE_RATIO && TRUE_RATIO <= ci.high;

/**
 * One run under the --starts budget: a start's steady rounds in each start (steady-block.js), starts while the next
 * one fits (wantsAnotherStart), at the given costs; returns the rounds with their starts.
 */
function budgetedStartsRun(
  normal: () => number,
  minStarts: number,
  budgetSec: number,
  { noise = MEASURED, cost = MEASURED_COST } = {},
) {
  const values: number[] = [];
  const starts: number[] = [];
  const startSec = cost.startSec + MIN_STEADY_ROUNDS * cost.roundSec;
  let spentSec = 0;
  for (let start = 0; ; start++) {
    for (const value of startRounds(normal, MIN_STEADY_ROUNDS, noise)) {
      values.push(value);
      starts.push(start);
    }
    spentSec += startSec;
    if (!wantsAnotherStart({ startsSoFar: start + 1, minStarts, budgetSec, spentSec, nextStartSec: startSec }))
      return { values, starts };
  }
}

function coverage(seed: number, interval: (normal: () => number) => { low: number; high: number } | null): number {
  const normal = seededNormal(seed);
  let covered = 0;
  for (let trial = 0; trial < TRIALS; trial++) if (covers(interval(normal))) covered++;
  return covered / TRIALS;
}

describe('the noise split by level', () => {
  it('recovers the between-start and within-start variances it was given, over many seeded starts', () => {
    const normal = seededNormal(11);
    const values: number[] = [];
    const starts: number[] = [];
    for (let start = 0; start < 2000; start++)
      for (const value of startRounds(normal, 6)) {
        values.push(value);
        starts.push(start);
      }
    const split = varianceSplit(values, starts)!;
    expect(Math.abs(Math.sqrt(split.between) - MEASURED.between)).toBeLessThan(0.02);
    expect(Math.abs(Math.sqrt(split.within) - MEASURED.within)).toBeLessThan(0.02);
  });

  it('puts no variance between starts whose rounds all sit at one level', () => {
    const split = varianceSplit([2, 2.1, 2.05, 2.1, 2, 2.05], [0, 0, 0, 1, 1, 1])!;
    expect(split.between).toBe(0);
    expect(split.betweenShare).toBe(0);
  });

  it('flags starts that fall into two groups, and not starts spread evenly', () => {
    const twoGroups = analyzeStarts([1.2, 1.21, 1.8, 1.79, 1.2, 1.19, 1.8, 1.82], [0, 0, 1, 1, 2, 2, 3, 3]);
    expect(twoGroups.twoGroups).toBe(true);
    expect(twoGroups.perStart.map((s) => s.value.toFixed(2))).toEqual(['1.20', '1.79', '1.19', '1.81']);
    const spread = analyzeStarts([1.2, 1.21, 1.4, 1.41, 1.6, 1.59, 1.8, 1.82], [0, 0, 1, 1, 2, 2, 3, 3]);
    expect(spread.twoGroups).toBe(false);
  });

  it('has no interval with one start: its level cannot be told from the answer', () => {
    expect(startInterval(startMeans([1.8, 1.9, 1.7], [0, 0, 0]))).toBeNull();
  });
});

describe('coverage with the noise measured between starts and within a start (seeded)', () => {
  it(
    "today's design, one start, covers the true ratio far less than 95 %: its rounds share the start's level",
    () => {
      const fixed = coverage(1, (normal) => summarize(startRounds(normal, 12)).ci);
      const budgeted = coverage(2, (normal) => sequentialSummary(startRounds(normal, 24)).ci);
      const quietFixed = coverage(6, (normal) => summarize(startRounds(normal, 12, QUIET_ROUNDS)).ci);
      expect(fixed).toBeLessThan(0.85);
      expect(budgeted).toBeLessThan(0.94);
      expect(quietFixed).toBeLessThan(0.5);
    },
    SIMULATION_TIMEOUT_MS,
  );

  it(
    'four starts of four rounds cover it in 95 % of runs',
    () => {
      const fourByFour = coverage(3, (normal) => {
        const values = [0, 1, 2, 3].flatMap(() => startRounds(normal, 4));
        return analyzeStarts(values, [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]).interval;
      });
      expect(fourByFour).toBeGreaterThanOrEqual(0.94);
      expect(fourByFour).toBeLessThanOrEqual(0.96);
    },
    SIMULATION_TIMEOUT_MS,
  );

  it(
    "the default run's starts, their steady rounds each, at the default run's measured costs, cover it in 95 % of runs",
    () => {
      const byDefault = coverage(8, (normal) => {
        const { values, starts } = budgetedStartsRun(normal, DEFAULT_STARTS, DEFAULT_BUDGET_SEC, {
          cost: DEFAULT_RUN_COST,
        });
        return analyzeStarts(values, starts).interval;
      });
      expect(byDefault).toBeGreaterThanOrEqual(0.94);
      expect(byDefault).toBeLessThanOrEqual(0.96);
    },
    SIMULATION_TIMEOUT_MS,
  );
});

describe('the budget stops measuring a decided row (seeded)', () => {
  /**
   * The noise of the log ratio with the pair loaded together and the headline primed, from the default runs on two
   * hosts (docs/experiments/stop-rule/splits.txt): the quietest row's and the one noisiest within a start.
   */
  const TOGETHER = { hello: { between: 0.027, within: 0.055 }, catalogProduction: { between: 0.039, within: 0.227 } };

  /** The bench's verdict on an interval of a row's starts: a band, borderline, or inconclusive. */
  const verdictOf = (interval: { estimate: number; low: number; high: number }, rounds: number) =>
    measuredVerdict({ n: rounds, median: interval.estimate, ci: interval });

  /**
   * One row under the default design: steady rounds on each start, a look after each from FIRST_LOOK_STARTS on, a
   * stop once the interval at the stop rule's deciding level decides (lies in one band, or is borderline), reported at
   * its level for stopped rows; else at its end level.
   */
  /** analyzeStarts' interval with no start left out, without the rest of its analysis the rule never reads. */
  const intervalAt = (values: number[], starts: number[], level: number) =>
    startInterval(startMeans(values, starts), level)!;

  function sequentialRow(
    normal: () => number,
    truth: number,
    noise: { between: number; within: number },
    startsThatFit: number,
  ) {
    const values: number[] = [];
    const starts: number[] = [];
    for (let start = 0; start < startsThatFit; start++) {
      for (const value of startRounds(normal, MIN_STEADY_ROUNDS, noise, truth)) {
        values.push(value);
        starts.push(start);
      }
      if (start + 1 >= FIRST_LOOK_STARTS && start + 1 < startsThatFit) {
        const look = intervalAt(values, starts, STOP_RULE.decideConfidence);
        if (verdictOf(look, values.length) !== 'inconclusive')
          return { interval: intervalAt(values, starts, STOP_RULE.stoppedConfidence), starts: start + 1 };
      }
    }
    return { interval: intervalAt(values, starts, STOP_RULE.endConfidence!), starts: startsThatFit };
  }

  function sequentialCoverage(
    seed: number,
    truth: number,
    noise: { between: number; within: number },
    startsThatFit: number,
    trials = TRIALS,
  ) {
    const normal = seededNormal(seed);
    let covered = 0;
    let startsUsed = 0;
    let borderline = 0;
    let wrongBorderline = 0;
    for (let trial = 0; trial < trials; trial++) {
      const { interval, starts } = sequentialRow(normal, truth, noise, startsThatFit);
      if (interval.low <= truth && truth <= interval.high) covered++;
      startsUsed += starts;
      if (isBorderline(verdictOf(interval, starts * MIN_STEADY_ROUNDS))) {
        borderline++;
        if (edgeWithin({ low: truth, high: truth }) === null) wrongBorderline++;
      }
    }
    return {
      coverage: covered / trials,
      meanStarts: startsUsed / trials,
      borderline: borderline / trials,
      wrongBorderline: wrongBorderline / trials,
    };
  }
  /** On the edge the rule's coverage sits within a point of 95 %: enough rows that the estimate's own error is small. */
  const EDGE_TRIALS = 10_000;

  it(
    'covers a ratio inside a band in at least 95 % of runs, and stops most of them early',
    () => {
      for (const [seed, truth, noise] of [
        [21, 1.2, QUIET_ROUNDS],
        [22, TRUE_RATIO, QUIET_ROUNDS],
        [24, TRUE_RATIO, TOGETHER.hello],
        [25, 1.2, TOGETHER.catalogProduction],
      ] as const) {
        const { coverage: covered, meanStarts } = sequentialCoverage(seed, truth, noise, 8);
        expect(covered).toBeGreaterThanOrEqual(0.95);
        expect(meanStarts).toBeLessThan(8);
      }
    },
    SIMULATION_TIMEOUT_MS,
  );

  it(
    'covers a ratio on the edge between two bands in at least 95 % of runs, however many starts fit',
    () => {
      let seed = 30;
      for (const noise of [QUIET_ROUNDS, TOGETHER.hello, TOGETHER.catalogProduction])
        for (const startsThatFit of [4, 8, MAX_STARTS])
          expect(sequentialCoverage(seed++, 1.5, noise, startsThatFit, EDGE_TRIALS).coverage).toBeGreaterThanOrEqual(
            0.95,
          );
    },
    SIMULATION_TIMEOUT_MS,
  );

  describe('a row known to sit at a band edge is decided borderline (seeded)', () => {
    /** The split with the most variance between starts (docs/experiments/stop-rule/splits.txt). */
    const PURCHASES = { between: 0.053, within: 0.109 };
    /** True ratios 2 % beyond the margin of the 1.5× edge, either side. */
    const BEYOND_MARGIN = {
      below: HOLDS_MIN / (1 + BORDERLINE_MARGIN) / 1.02,
      above: HOLDS_MIN * (1 + BORDERLINE_MARGIN) * 1.02,
    };

    it(
      'covers a ratio within the margin of the edge, and just beyond it, in at least 95 % of runs',
      () => {
        let seed = 60;
        for (const noise of [TOGETHER.hello, PURCHASES])
          for (const truth of [BEYOND_MARGIN.below, 1.4, 1.6, BEYOND_MARGIN.above])
            expect(sequentialCoverage(seed++, truth, noise, 8).coverage).toBeGreaterThanOrEqual(0.95);
      },
      SIMULATION_TIMEOUT_MS,
    );

    it(
      'decides most rows on the edge borderline once a quiet row has its starts, in fewer starts than fit',
      () => {
        const { borderline, meanStarts } = sequentialCoverage(70, 1.5, TOGETHER.hello, MAX_STARTS);
        expect(borderline).toBeGreaterThan(0.5);
        expect(meanStarts).toBeLessThan(MAX_STARTS);
      },
      SIMULATION_TIMEOUT_MS,
    );

    it(
      'rarely calls a ratio just beyond the margin borderline',
      () => {
        const { wrongBorderline } = sequentialCoverage(71, BEYOND_MARGIN.above, TOGETHER.hello, MAX_STARTS);
        expect(wrongBorderline).toBeLessThan(0.01);
      },
      SIMULATION_TIMEOUT_MS,
    );
  });
});

describe('a start the host slowed', () => {
  /** Four starts of three rounds: each round's two servers' CPU µs per request, start by start. */
  const cpuOf = (perStart: Array<[number, number]>) => perStart.flatMap((cpu) => [cpu, cpu, cpu]);
  const startsOf = (count: number) => Array.from({ length: count * 3 }, (_, i) => Math.floor(i / 3));

  it("finds the start whose two servers both spent the factor or more of their median start's CPU per request", () => {
    const slowed = slowedStarts(
      cpuOf([
        [50, 30],
        [100, 60],
        [48, 31],
        [52, 29],
      ]),
      startsOf(4),
      SLOWED_START_FACTOR,
    );
    expect(slowed.map((s) => s.start)).toEqual([1]);
    expect(slowed[0].slowdown[0]).toBeCloseTo(100 / 51, 12);
    expect(slowed[0].slowdown[1]).toBeCloseTo(60 / 30.5, 12);
  });

  it('keeps a start where one server alone got dearer (its own JIT or heap), or both by less than the factor', () => {
    const oneServer = cpuOf([
      [50, 30],
      [100, 31],
      [48, 31],
    ]);
    expect(slowedStarts(oneServer, startsOf(3), SLOWED_START_FACTOR)).toEqual([]);
    const both = cpuOf([
      [50, 30],
      [70, 42],
      [48, 31],
    ]);
    expect(slowedStarts(both, startsOf(3), SLOWED_START_FACTOR)).toEqual([]);
  });

  it('judges nothing below three starts, or when some start has no CPU read', () => {
    const twoStarts = cpuOf([
      [50, 30],
      [100, 60],
    ]);
    expect(slowedStarts(twoStarts, startsOf(2), SLOWED_START_FACTOR)).toEqual([]);
    const unread = [
      ...cpuOf([
        [50, 30],
        [100, 60],
      ]),
      null,
      null,
      null,
    ];
    expect(slowedStarts(unread, startsOf(3), SLOWED_START_FACTOR)).toEqual([]);
  });

  it('leaves the slowed start out of the per-start ratios, the split and the interval, and keeps what it read', () => {
    const values = [1.5, 1.52, 1.51, 1.7, 1.68, 1.69, 1.49, 1.5, 1.51, 1.52, 1.53, 1.5];
    const slowed = [{ start: 1, slowdown: [2, 1.9] as [number, number] }];
    const all = analyzeStarts(values, startsOf(4));
    const kept = analyzeStarts(values, startsOf(4), 0.95, slowed);
    expect(kept.perStart.map((s) => s.start)).toEqual([0, 2, 3]);
    expect(kept.interval!.df).toBe(2);
    expect(kept.interval!.high - kept.interval!.low).toBeLessThan(all.interval!.high - all.interval!.low);
    expect(kept.leftOut).toEqual([{ start: 1, value: expect.closeTo(1.69, 2), slowdown: [2, 1.9] }]);
  });

  it('in a run that recorded the rule, the row and its report leave the start out and say why; without it, keep it', () => {
    const levels = [1, 1.1, 0.98, 1.02];
    const run = results((round, _, start) => 1.55 * levels[start] * (1 + (round % 3) / 100), { starts: 4 });
    const slowedRun = {
      ...run,
      runs: run.runs.map((r) => (r.start === 1 ? { ...r, server: { ...r.server, cpuUsPerRequest: 110 } } : r)),
    };
    const withRule = { ...slowedRun, stopRule: STOP_RULE };
    const row = analyze(withRule).ratios.find((r) => r.judged)!;
    expect(row.starts!.perStart.map((s) => s.start)).toEqual([0, 2, 3]);
    expect(row.summary.n).toBe(9);
    const note = JSON.stringify(startsTable(analyze(withRule)).rows[0].at(-1));
    expect(note).toContain('start 2 (');
    expect(note).toContain('left out: both servers spent 2.2× and 2.2× the CPU per request of their median start');
    const before = analyze(slowedRun).ratios.find((r) => r.judged)!;
    expect(before.starts!.perStart).toHaveLength(4);
    expect(before.starts!.leftOut).toEqual([]);
  });
});

describe('how many starts a run makes', () => {
  it('under a budget makes starts while the next one fits, the starts asked for included; without one, those asked', () => {
    const plan = { minStarts: 4, budgetSec: 100, spentSec: 95, nextStartSec: 10 };
    expect(wantsAnotherStart({ ...plan, startsSoFar: 2 })).toBe(false);
    expect(wantsAnotherStart({ ...plan, startsSoFar: 4, spentSec: 50 })).toBe(true);
    expect(wantsAnotherStart({ ...plan, startsSoFar: MAX_STARTS, spentSec: 0 })).toBe(false);
    expect(wantsAnotherStart({ ...plan, startsSoFar: 3, budgetSec: null })).toBe(true);
    expect(wantsAnotherStart({ ...plan, startsSoFar: 4, budgetSec: null, spentSec: 0 })).toBe(false);
  });
});

describe('compare between two runs of the same code (seeded)', () => {
  /** A run whose Fastify ÷ Express rounds come from the measured noise: `starts` starts sharing its twelve rounds. */
  function sameCodeRun(normal: () => number, starts: number) {
    const levels = Array.from({ length: starts }, () => MEASURED.between * normal());
    return results((_, __, start) => TRUE_RATIO * Math.exp(levels[start] + MEASURED.within * normal()), { starts });
  }

  /** The share of judged rows whose change interval excludes none, over seeded pairs of runs. */
  function shareBeyond(seed: number, starts: number) {
    const normal = seededNormal(seed);
    const trials = 300;
    let beyond = 0;
    for (let trial = 0; trial < trials; trial++) {
      const ratio = compareAnalyses(analyze(sameCodeRun(normal, starts)), analyze(sameCodeRun(normal, starts))).find(
        (c) => c.judged,
      )!;
      if (ratio.change!.low > 0 || ratio.change!.high < 0) beyond++;
    }
    return beyond / trials;
  }

  it(
    'with three or four starts a run, excludes no change in at most the nominal 5 % of rows; one start a run, by rounds, far more',
    () => {
      const byStarts = shareBeyond(5, 4);
      expect(shareBeyond(9, DEFAULT_STARTS)).toBeLessThanOrEqual(0.06);
      const byRoundsOfOneStart = shareBeyond(7, 1);
      expect(byStarts).toBeLessThanOrEqual(0.06);
      expect(byRoundsOfOneStart).toBeGreaterThan(0.15);
    },
    SIMULATION_TIMEOUT_MS,
  );
});

describe('a run with several starts, analysed and reported', () => {
  const levels = [1, 1.2, 0.95, 1.15];
  const run = results((round, _, start) => 1.8 * levels[start] * (1 + (round % 3) / 100), { starts: 4 });

  it('takes the start-level interval as the row summary, centred on the per-start geometric mean', () => {
    const row = analyze(run).ratios.find((r) => r.judged)!;
    expect(row.starts!.perStart.map((s) => s.n)).toEqual([3, 3, 3, 3]);
    expect(row.summary.ci).toEqual(expect.objectContaining({ low: row.starts!.interval!.low }));
    expect(row.summary.median).toBeCloseTo(row.starts!.interval!.estimate, 12);
    expect(row.starts!.split!.betweenShare).toBeGreaterThan(0.9);
  });

  it('shows per row how the noise splits between starts and within a start, and each start ratio', () => {
    const table = startsTable(analyze(run));
    expect(table.headers).toEqual(expect.arrayContaining(['between starts', 'within a start', 'per start']));
    const [row] = table.rows;
    expect(row.slice(3, 6)).toEqual(['4 × 3', expect.stringMatching(/^9\d %$/), expect.stringMatching(/^\d %$/)]);
    expect(String(row[6]).split(', ')).toHaveLength(4);
  });

  const underBudget = (extra: Partial<Results>): Results => ({
    ...run,
    options: { ...run.options, budgetSec: 150 },
    plan: { ...run.plan, design: designOf({ ...run.options, budgetSec: 150 }) },
    startBlocks: [0, 1, 2, 3].map((start) => ({ runtime: 'node@20', start, rounds: 3, choice: 'steady' })),
    ...extra,
  });
  const decided: Results['stops'] = [
    { runtime: 'node@20', scenario: 'hello', stack: 'bare', rounds: 12, stoppedOn: 'decided' },
  ];
  const spent: Results['stops'] = [
    { runtime: 'node@20', scenario: 'hello', stack: 'bare', rounds: 12, stoppedOn: 'budget' },
  ];
  const judgedRow = (results: Results) => analyze(results).ratios.find((r) => r.judged)!;
  /** As the first schema wrote it: no stop rule, no design (readResults works it out from the options). */
  const firstSchema = (written: Results) =>
    upgradeResults({ ...written, schema: 1, plan: { ...written.plan, design: undefined } });
  const atLevel = (level: number) => {
    const row = judgedRow(run);
    return analyzeStarts(row.byRound, row.startByRound, level).interval!;
  };

  it('reports a row the budget stopped once decided at the stop rule level for stopped rows, and says so in its rounds', () => {
    const stopped = underBudget({ stops: decided, stopRule: STOP_RULE });
    expect(judgedRow(stopped).summary.ci!.low).toBeCloseTo(atLevel(STOP_RULE.stoppedConfidence).low, 12);
    expect(verdictTable(analyze(stopped)).rows[0]).toContain('12 in 4 starts, decided (98 % interval)');
  });

  it("reports a row measured to the end under the stop rule at the rule's end level, and says which", () => {
    const ended = underBudget({ stops: spent, stopRule: STOP_RULE });
    expect(judgedRow(ended).summary.ci!.low).toBeCloseTo(atLevel(STOP_RULE.endConfidence!).low, 12);
    expect(verdictTable(analyze(ended)).rows[0]).toContain('12 in 4 starts (97 % interval)');
  });

  it('shows the headline, which no look stops, at the level its rule records, and at the end level before it did', () => {
    const primes = [0, 1, 2, 3].map((start) => ({
      runtime: 'node@20',
      target: 'nest-express',
      scenario: 'hello',
      stack: 'bare',
      start,
      requests: 30_000,
      seconds: 2,
    }));
    const headline = underBudget({ stops: spent, stopRule: STOP_RULE, primes });
    expect(judgedRow(headline).summary.ci!.low).toBeCloseTo(atLevel(STOP_RULE.headlineConfidence!).low, 12);
    expect(verdictTable(analyze(headline)).rows[0]).toContain('12 in 4 starts');
    expect(verdictTable(analyze(headline)).rows[0]).not.toContain('interval)');
    const { headlineConfidence: _, ...ruleBefore } = STOP_RULE;
    const before = underBudget({ stops: spent, stopRule: ruleBefore, primes });
    expect(judgedRow(before).summary.ci!.low).toBeCloseTo(atLevel(STOP_RULE.endConfidence!).low, 12);
  });

  it('rebuilds the report of a run from before the stop rule was recorded at the levels it ran', () => {
    const written = (stops: Results['stops']) => firstSchema(underBudget({ stops }));
    const stopped = written(decided);
    expect(judgedRow(stopped).summary.ci!.low).toBeCloseTo(
      atLevel(RECORDED_BEFORE_STOP_RULE.stoppedConfidence).low,
      12,
    );
    expect(verdictTable(analyze(stopped)).rows[0]).toContain('12 in 4 starts, decided (99 % interval)');
    const ended = written(spent);
    expect(judgedRow(ended).summary.ci!.low).toBeCloseTo(atLevel(0.95).low, 12);
    expect(verdictTable(analyze(ended)).rows[0]).not.toContain('interval)');
  });

  it("widens nothing for rounds that correlate through their start's level, which the starts' spread holds", () => {
    const row = analyze(run).ratios.find((r) => r.judged)!;
    expect(row.summary.lag1).toBeGreaterThan(AUTOCORRELATION_LIMIT);
    expect(row.summary.widened).toBe(false);
  });

  it('takes the stricter level under a budget only when some start got its rounds from the variance split', () => {
    // the choices of runs from before the stop rule was recorded
    const budgeted = (choices: BlockChoice[]) =>
      firstSchema({
        ...run,
        options: { ...run.options, budgetSec: 120 },
        startBlocks: choices.map((choice, start) => ({ runtime: 'node@20', start, rounds: 3, choice })),
      });
    const interval = (results: Results) => analyze(results).ratios.find((r) => r.judged)!.summary.ci!;
    const row = analyze(run).ratios.find((r) => r.judged)!;
    const values = row.byRound;
    const starts = row.startByRound;
    const [at95, at97] = [0.95, BUDGETED_STARTS_CONFIDENCE].map(
      (level) => analyzeStarts(values, starts, level).interval!,
    );
    expect(interval(budgeted(['budget', 'budget', 'budget', 'budget'])).low).toBeCloseTo(at95.low, 12);
    expect(interval(budgeted(['default', 'default', 'variance', 'budget'])).low).toBeCloseTo(at97.low, 12);
  });

  it('shows no such table when every server started once', () => {
    expect(startsTable(analyze(results(() => 1.8))).rows).toEqual([]);
  });
});
