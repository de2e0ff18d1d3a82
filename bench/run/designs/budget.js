// @ts-check
// The budgeted design: every scenario (× stack) runs the minimum rounds, then two more at a time, one in each order,
// while its verdict is open, the next two rounds fit in what is left of the budget, and it is below the round cap.
// Whether a verdict is open is the analysis' call, handed in by bin/ (run/ does not reach into analysis/).
import { runRound } from './rounds.js';
import { warmUp } from '../session.js';
import { MAX_BUDGET_ROUNDS, MAX_STARTS, MIN_BUDGET_ROUNDS, ROUNDS_PER_STEP } from '../../model/design.js';
import { blockKey, pairKey } from '../../model/keys.js';

/** @typedef {import('../plan.js').Pair} Pair */
/** @typedef {import('../runtime-plan.js').RuntimePlan} RuntimePlan */
/** @typedef {import('../runtime-plan.js').RunState} RunState */
/** @typedef {import('../../model/design.js').Standing} Standing */
/** @typedef {import('../../model/design.js').BlockStop} BlockStop */
/** @typedef {{ scenario: string, stack: string }} Block the pairs of one scenario on one stack, which stop together */

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
 * @property {(stop: BlockStop) => void} [onStop] told as each block stops
 * @property {() => number} [clock] seconds, monotonic
 */

/**
 * The warm-up, then rounds under the design's budget on the first start's servers, each block's stop recorded (stops).
 * @param {RuntimePlan} plan
 * @param {RunState} state
 * @param {Pair[]} pairs verified
 * @returns {Promise<boolean>} false when interrupted
 */
export async function measureBudget(plan, state, pairs) {
  const { record, progress, runtimeKey } = plan;
  if (!(await warmUp(plan, state, pairs, 0))) return false;
  const stops = await spendBudget({
    pairs,
    budgetSec: /** @type {number} */ (plan.design.budgetPerRuntimeSec),
    standing: (block) => plan.standing({ runtime: runtimeKey, ...block }),
    runRound: (active, round) => runRound(plan, state, active, round, 0),
    onStop: ({ scenario, stack, rounds, stoppedOn }) =>
      progress.block({
        runtime: runtimeKey,
        scenario,
        stack,
        rounds,
        glance: plan.glance({ runtime: runtimeKey, scenario, stack }),
        stand: stoppedOn === 'decided' ? 'decided' : stoppedOn === 'budget' ? 'budget' : 'final',
      }),
  });
  record.stops(stops.map((stop) => ({ runtime: runtimeKey, ...stop })));
  return !plan.signal.aborted;
}

/**
 * Run rounds under the budget.
 * @param {BudgetPlan} plan
 * @returns {Promise<BlockStop[]>} one per block that stopped; none for blocks still running at an interruption
 */
export async function spendBudget({
  pairs,
  budgetSec,
  standing,
  runRound,
  onStop = () => {},
  clock = () => performance.now() / 1000,
}) {
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
      const stop = { ...block, rounds: round, stoppedOn };
      stops.push(stop);
      onStop(stop);
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
 * How many more of the headline's starts fit in `leftSec`, each costing `nextStartSec` (its boot, priming and block).
 * @param {number} leftSec @param {number} nextStartSec @param {number} startsLeft the starts MAX_STARTS still allows
 */
function headlineStartsIn(leftSec, nextStartSec, startsLeft) {
  if (leftSec < 0) return 0;
  return nextStartSec > 0 ? Math.min(startsLeft, Math.floor(leftSec / nextStartSec)) : startsLeft;
}

/**
 * Whether measuring a block beside the headline now would leave room for fewer of the headline's later starts. After
 * the first look the headline, the row a run is read for, comes first: another row's block takes only what the
 * headline's starts leave over. Timings only, never ratios, so no interval pays for it.
 * @param {{ leftSec: number, blockSec: number, nextStartSec: number, startsLeft: number }} plan leftSec: what is left
 *   of the budget; blockSec: the block's latest wall seconds; nextStartSec: a start's boot, priming and headline block
 */
export function takesHeadlineStart({ leftSec, blockSec, nextStartSec, startsLeft }) {
  return (
    headlineStartsIn(leftSec - blockSec, nextStartSec, startsLeft) < headlineStartsIn(leftSec, nextStartSec, startsLeft)
  );
}
