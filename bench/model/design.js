// @ts-check
// How a run spends its rounds (the Design, resolved once from the options and recorded with the plan), the constants
// the run designs (bench/run/designs/) run under, and the words for why a block stopped.

/**
 * The levels of a budgeted run's sequential rule with starts (analysis/starts.js STOP_RULE), recorded as
 * results.stopRule: a row decides at decideConfidence and is reported at stoppedConfidence; endConfidence null: the
 * level of the run's design; borderlineMargin: a look also stopped a row whose interval lay within it of a band's edge,
 * and verdicts took it (absent: 5 %, the margin the reports of runs from before it was recorded were built with);
 * slowedStartFactor: a start on which both compared servers spent this many times their CPU per request on the row's
 * median start was left out of the row (absent: none was); headlineConfidence: the level of the headline, which no
 * look stops (absent: endConfidence).
 * @typedef {{ decideConfidence: number, stoppedConfidence: number, endConfidence: number | null, borderlineMargin?: number,
 *   slowedStartFactor?: number, headlineConfidence?: number }} StopRule
 */

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

/**
 * The starts after which the budget first asks whether a compared block is decided: with fewer a t interval has no
 * spread to go on; at three, a row far from a band's edge already decides at the stop's level.
 */
export const FIRST_LOOK_STARTS = 3;

/** The most starts a run makes: each costs a boot and a warm-up of every server. */
export const MAX_STARTS = 12;

/**
 * What each connection should see in a block's run (--starts), at the rate of the warm-up round it is fitted on. A
 * server whose answers leave in waves (gzip streams them, docs/runtimes.md) completes a run's requests in whole waves
 * of its connections: a run of two or three waves reads one of two or three rates, the same server alternating between
 * them from round to round (docs/method.md, "Runs a few waves long"). A steady server answers at least twice as fast as
 * on those rounds, so its runs hold twice as many waves.
 */
export const ANSWERS_PER_CONNECTION_IN_A_BLOCK = 10;

/**
 * Where a block's verdict stands after its rounds so far: decided (its interval lies inside one band), undecided, or
 * unjudged (it holds no judged pair, so nothing can decide it: it runs the minimum rounds).
 * @typedef {'decided' | 'undecided' | 'unjudged'} Standing
 *
 * A block's verdict so far, as the log shows it at the block's end.
 * @typedef {object} Glance
 * @property {string} pair the compared pair's ratio, `nest-fastify ÷ nest-express`
 * @property {number | null} ratio null: too slow to measure
 * @property {{ low: number, high: number } | null} interval null: too few rounds for one
 * @property {string} verdict what the numbers say so far: holds, understated, does not hold, inconclusive, too slow
 * @property {Standing} standing
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
 * What set a start's rounds. Earlier runs: the default before the noise was split, the budget alone, or the variance
 * split (only "variance" made the rounds depend on the numbers measured). Now: "steady", each block's rounds running
 * until its targets reached a steady state (steady-block.js), which never looks at the ratios.
 * @typedef {'default' | 'variance' | 'budget' | 'steady'} BlockChoice
 */

/**
 * The constants a design ran under, recorded with it.
 * @typedef {object} DesignLimits
 * @property {number} minRounds MIN_BUDGET_ROUNDS
 * @property {number} roundsPerStep ROUNDS_PER_STEP
 * @property {number} maxRounds MAX_BUDGET_ROUNDS
 * @property {number} firstLookStarts FIRST_LOOK_STARTS
 * @property {number} maxStarts MAX_STARTS
 */

/**
 * rounds: one server start, every pair runs `roundsPerStart` rounds; budget: one start, rounds two at a time while the
 * budget lasts, with group-sequential per-round intervals; starts: the servers start afresh `starts` times, each start
 * a block of rounds, the start being the interval's unit; budgeted-starts: starts as long as the budget lasts (at least
 * `starts`), a look after each letting a decided block go.
 * @typedef {'rounds' | 'budget' | 'starts' | 'budgeted-starts'} DesignKind
 */

/**
 * How a run spends its rounds: resolved once from the options (designOf) and recorded as results.plan.design, so every
 * stage reads the design instead of working it out from the flags again.
 * @typedef {object} Design
 * @property {DesignKind} kind
 * @property {number} starts server starts asked for: 1 unless the kind is over starts
 * @property {number | null} roundsPerStart the fixed rounds of each start; null: the budget (or a steady state) decides
 * @property {number | null} budgetPerRuntimeSec seconds per runtime from its first server start; null: no budget
 * @property {DesignLimits} limits
 */

/**
 * The design the options ask for.
 * @param {{ rounds: number, budgetSec: number | null, starts: number }} options
 * @returns {Design}
 */
export function designOf({ rounds, budgetSec: budgetPerRuntimeSec, starts }) {
  return {
    kind: kindOf(starts, budgetPerRuntimeSec),
    starts,
    roundsPerStart: budgetPerRuntimeSec === null ? rounds : null,
    budgetPerRuntimeSec,
    limits: {
      minRounds: MIN_BUDGET_ROUNDS,
      roundsPerStep: ROUNDS_PER_STEP,
      maxRounds: MAX_BUDGET_ROUNDS,
      firstLookStarts: FIRST_LOOK_STARTS,
      maxStarts: MAX_STARTS,
    },
  };
}

/**
 * @param {number} starts @param {number | null} budgetPerRuntimeSec
 * @returns {DesignKind}
 */
function kindOf(starts, budgetPerRuntimeSec) {
  if (starts > 1) return budgetPerRuntimeSec === null ? 'starts' : 'budgeted-starts';
  return budgetPerRuntimeSec === null ? 'rounds' : 'budget';
}

/**
 * The design as read from results.json: runs before the fourth kind recorded a budget over starts as 'starts'.
 * @param {Design} design @returns {Design}
 */
export function upgradeDesign(design) {
  return { ...design, kind: kindOf(design.starts, design.budgetPerRuntimeSec) };
}

/** Whether the design starts the servers afresh more than once, each start a block of rounds. @param {Design} design */
export const overStarts = (design) => design.kind === 'starts' || design.kind === 'budgeted-starts';
