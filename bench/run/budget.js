// @ts-check
// The budgeted design: every scenario (× stack) runs the minimum rounds, then two more at a time, one in each order,
// while its verdict is open, the next two rounds fit in what is left of the budget, and it is below the round cap.
// Whether a verdict is open is the analysis' call, handed in by bin/ (run/ does not reach into analysis/).

/**
 * Rounds every scenario runs before any may stop: even, so each adapter has gone first equally often, and no fewer
 * than a verdict needs (bench/analysis/verdict.js).
 */
export const MIN_BUDGET_ROUNDS = 6;
/** Rounds added at a time after the minimum: one in each order, so every stop leaves the orders balanced. */
export const ROUNDS_PER_STEP = 2;
/**
 * The most rounds any scenario runs, however much budget is left: the budgeted intervals are calibrated for looks up
 * to here (bench/analysis/sequential.js), so a scenario that reaches it has spent its budget of looks.
 */
export const MAX_BUDGET_ROUNDS = 24;

/** @typedef {import('./plan.js').Pair} Pair */
/** @typedef {{ scenario: string, stack: string }} Block the pairs of one scenario on one stack, which stop together */
/**
 * Where a block's verdict stands after its rounds so far: decided (its interval lies inside one band), undecided, or
 * unjudged (it holds no judged pair, so nothing can decide it: it runs the minimum rounds).
 * @typedef {'decided' | 'undecided' | 'unjudged'} Standing
 *
 * Why a block ran no further rounds.
 * @typedef {object} BlockStop
 * @property {string} scenario
 * @property {string} stack
 * @property {number} rounds the rounds it ran
 * @property {'decided' | 'budget' | 'unjudged'} stoppedOn decided: its verdict was settled; budget: the next two
 *   rounds did not fit, or it reached MAX_BUDGET_ROUNDS; unjudged: it had no verdict to settle
 */

/** @param {Block} block */
const blockKey = ({ scenario, stack }) => `${scenario}\u0000${stack}`;
/** @param {Pair} pair */
export const pairKey = (pair) => `${pair.target}\u0000${blockKey(pair)}`;

/**
 * @param {Pair[]} pairs
 * @returns {Block[]} in order of first appearance
 */
function blocksOf(pairs) {
  const blocks = new Map(pairs.map((pair) => [blockKey(pair), { scenario: pair.scenario, stack: pair.stack }]));
  return [...blocks.values()];
}

/**
 * @typedef {object} BudgetPlan
 * @property {Pair[]} pairs the verified pairs
 * @property {number} budgetSec seconds from the first round's start; the minimum rounds run even when they take longer
 * @property {(block: Block) => Standing} standing after the rounds recorded so far
 * @property {(pairs: Pair[], round: number) => Promise<Map<string, number> | null>} runRound runs one round
 *   (0-based) of these pairs and returns each pair's wall seconds by pairKey, or null when interrupted
 * @property {() => number} [clock] seconds, monotonic
 */

/**
 * Run rounds under the budget.
 * @param {BudgetPlan} plan
 * @returns {Promise<BlockStop[]>} one per block that stopped; none for blocks still running at an interruption
 */
export async function spendBudget({ pairs, budgetSec, standing, runRound, clock = () => performance.now() / 1000 }) {
  const startedAt = clock();
  /** @type {Map<string, { seconds: number, runs: number }>} */
  const runTimes = new Map();
  /** @type {BlockStop[]} */
  const stops = [];
  let active = pairs;
  let round = 0;
  /** @param {(block: Block) => BlockStop['stoppedOn'] | null} why null: keeps running */
  const stopBlocks = (why) => {
    const stopping = new Set();
    for (const block of blocksOf(active)) {
      const stoppedOn = why(block);
      if (stoppedOn === null) continue;
      stops.push({ ...block, rounds: round, stoppedOn });
      stopping.add(blockKey(block));
    }
    active = active.filter((pair) => !stopping.has(blockKey(pair)));
  };
  while (active.length) {
    if (round >= MIN_BUDGET_ROUNDS && round % ROUNDS_PER_STEP === 0) {
      stopBlocks((block) => {
        const now = standing(block);
        return now === 'undecided' ? null : now;
      });
      const nextStepSec = ROUNDS_PER_STEP * active.reduce((sum, pair) => sum + meanRunSec(runTimes, pair), 0);
      if (active.length && (round >= MAX_BUDGET_ROUNDS || clock() - startedAt + nextStepSec > budgetSec))
        stopBlocks(() => 'budget');
      if (!active.length) break;
    }
    const took = await runRound(active, round);
    if (took === null) return stops;
    for (const [key, seconds] of took) {
      const sofar = runTimes.get(key) ?? { seconds: 0, runs: 0 };
      runTimes.set(key, { seconds: sofar.seconds + seconds, runs: sofar.runs + 1 });
    }
    round++;
  }
  return stops;
}

/**
 * @param {Map<string, { seconds: number, runs: number }>} runTimes @param {Pair} pair
 */
function meanRunSec(runTimes, pair) {
  const times = runTimes.get(pairKey(pair));
  return times ? times.seconds / times.runs : 0;
}

/** The most starts a run makes: each costs a boot and a warm-up of every server. */
export const MAX_STARTS = 12;

/**
 * Whether a run with --starts makes one more start: always below the starts asked for; beyond them, under a budget,
 * while the next start fits in what is left of it. It never looks at the ratios, so no interval pays for looking.
 * @param {{ startsSoFar: number, minStarts: number, budgetSec: number | null, spentSec: number, nextStartSec: number }} plan
 *   spentSec: since the first timed round; nextStartSec: a start's boot and warm-up plus its block of rounds
 */
export function wantsAnotherStart({ startsSoFar, minStarts, budgetSec, spentSec, nextStartSec }) {
  if (startsSoFar < minStarts) return true;
  return budgetSec !== null && startsSoFar < MAX_STARTS && spentSec + nextStartSec <= budgetSec;
}
/**
 * Rounds in each start until the starts so far tell how the noise splits: even, so both orders run in every start,
 * and two of each, so a start's own rounds show their spread.
 */
export const DEFAULT_ROUNDS_PER_START = 4;
/** The fewest and most rounds the budget gives one start: one in each order; a start's level bounds what more buy. */
export const MIN_ROUNDS_PER_START = 2;
export const MAX_ROUNDS_PER_START = 12;

/**
 * The rounds per start that narrow the start-level interval most for the time they take (Kalibera and Jones, 2013): the
 * variance of the mean over k starts of n rounds is (σ²_b + σ²_w / n) / k, and a start costs its boot and warm-up plus n
 * rounds, which is least per unit of precision at n = √(startCost · σ²_w / (roundCost · σ²_b)); rounded to an even
 * number within the bounds above. Without an estimate yet, the default.
 * @param {{ between: number, within: number } | null} variance on the log scale, pooled over the judged rows
 * @param {{ startSec: number, roundSec: number }} cost one start's boot and warm-up, one round of every pair
 */
export function roundsPerStart(variance, { startSec, roundSec }) {
  if (variance === null || !(roundSec > 0)) return DEFAULT_ROUNDS_PER_START;
  const best =
    variance.between > 0 ? Math.sqrt((startSec * variance.within) / (roundSec * variance.between)) : Infinity;
  return evenWithinBounds(best, Math.round);
}

/** @param {number} rounds @param {(x: number) => number} toWhole */
const evenWithinBounds = (rounds, toWhole) =>
  Math.min(MAX_ROUNDS_PER_START, Math.max(MIN_ROUNDS_PER_START, ROUNDS_PER_STEP * toWhole(rounds / ROUNDS_PER_STEP)));

/**
 * What set a start's rounds: the default before the noise was split, the budget alone (the starts still owed leave
 * room for no more than the fewest), or the variance split (roundsPerStart, under the budget's cap). Only "variance"
 * makes the rounds, and so the starts that fit, depend on the numbers measured.
 * @typedef {'default' | 'variance' | 'budget'} BlockChoice
 */

/**
 * The rounds the next start gets under a budget: roundsPerStart's, but no more than lets every start still owed to
 * --starts fit in what is left, each costing `startSec` plus its rounds; never below MIN_ROUNDS_PER_START.
 * @param {{ variance: { between: number, within: number } | null, startSec: number, roundSec: number,
 *   startsOwed: number, leftSec: number }} plan startsOwed: this start and those after it below --starts (at least 1);
 *   leftSec: what is left of the budget as this start's rounds begin; roundSec 0: not known yet
 * @returns {{ rounds: number, choice: BlockChoice }}
 */
export function roundsForStart({ variance, startSec, roundSec, startsOwed, leftSec }) {
  const preferred = roundsPerStart(variance, { startSec, roundSec });
  if (!(roundSec > 0)) return { rounds: preferred, choice: 'default' };
  const fitting = evenWithinBounds((leftSec - (startsOwed - 1) * startSec) / (startsOwed * roundSec), Math.floor);
  if (fitting === MIN_ROUNDS_PER_START) return { rounds: fitting, choice: 'budget' };
  const rounds = Math.min(fitting, preferred);
  if (variance !== null) return { rounds, choice: 'variance' };
  return { rounds, choice: fitting < preferred ? 'budget' : 'default' };
}
