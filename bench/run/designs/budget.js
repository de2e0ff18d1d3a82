// @ts-check
// The budgeted design: every scenario (× stack) runs the minimum rounds, then two more at a time, one in each order,
// while its verdict is open, the next two rounds fit in what is left of the budget, and it is below the round cap.
// Whether a verdict is open is the analysis' call, handed in by bin/ (run/ does not reach into analysis/).
import { runRound } from './rounds.js';
import { warmUp } from '../session.js';
import { blockKey, pairKey } from '../../model/keys.js';

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

/** @typedef {import('../plan.js').Pair} Pair */
/** @typedef {import('../targets.js').ServedTarget} ServedTarget */
/** @typedef {import('../session.js').PlannedSession} PlannedSession */
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
 * The warm-up, then rounds under the budget on the first start's servers, each block's stop recorded in results.stops.
 * @param {PlannedSession} session
 * @param {Map<string, ServedTarget>} running
 * @param {Pair[]} pairs verified
 * @param {number} budgetSec
 * @returns {Promise<boolean>} false when interrupted
 */
export async function measureBudget(session, running, pairs, budgetSec) {
  const { results, runtimeKey } = session;
  if (!(await warmUp(session, running, pairs, 0))) return false;
  const stops = await spendBudget({
    pairs,
    budgetSec,
    standing: (block) => session.standing({ runtime: runtimeKey, ...block }),
    runRound: (active, round) => runRound(session, running, active, round, 0),
  });
  (results.stops ??= []).push(...stops.map((stop) => ({ runtime: runtimeKey, ...stop })));
  session.save();
  return !session.signal.aborted;
}

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

/**
 * The starts after which the budget first asks whether a compared block is decided: with fewer a t interval has no
 * spread to go on; at three, a row far from a band's edge already decides at the stop's level.
 */
export const FIRST_LOOK_STARTS = 3;

/** The most starts a run makes: each costs a boot and a warm-up of every server. */
export const MAX_STARTS = 12;

/**
 * Whether a run with --starts makes one more start: without a budget, the starts asked for; under one, those and more
 * (up to MAX_STARTS) while the next start's boot and first block fit in what is left of it, so that the default keeps
 * its time on any host. It never looks at the ratios, so no interval pays for looking.
 * @param {{ startsSoFar: number, minStarts: number, budgetSec: number | null, spentSec: number, nextStartSec: number }} plan
 *   spentSec: since the first boot; nextStartSec: a start's boot and its first block
 */
export function wantsAnotherStart({ startsSoFar, minStarts, budgetSec, spentSec, nextStartSec }) {
  if (budgetSec === null) return startsSoFar < minStarts;
  return startsSoFar < MAX_STARTS && spentSec + nextStartSec <= budgetSec;
}
/**
 * What set a start's rounds. Earlier runs: the default before the noise was split, the budget alone, or the variance
 * split (only "variance" made the rounds depend on the numbers measured). Now: "steady", each block's rounds running
 * until its targets reached a steady state (steady-block.js), which never looks at the ratios.
 * @typedef {'default' | 'variance' | 'budget' | 'steady'} BlockChoice
 */
