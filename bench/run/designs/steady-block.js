// @ts-check
// One block of a server start: the targets of one scenario on one stack, measured in alternating short runs (a round:
// each target once, the order swapping every round) until each target's cost per request and young generation have
// reached a steady state, the last changepoint far enough back (Barrett et al., OOPSLA 2017). Rounds before it are
// warm-up; the rounds from it on are the block's measurements.
import { steadyState } from '../../maths/changepoints.js';
import { drifts } from '../../maths/trend.js';
import { instanceName } from '../../model/stacks.js';

/**
 * A fresh server's first runs on a route are its slowest, the second still well above its level (the default run's
 * series in docs/method.md); a changepoint or drift test on a few points cannot isolate segments that short, so those
 * rounds are warm-up always and the tests look at the rounds after them.
 */
export const ALWAYS_WARM_UP_ROUNDS = 2;
/** The fewest steady rounds a block keeps unless told otherwise (--rounds with --starts). */
export const MIN_STEADY_ROUNDS = 3;
/** The fewest points the drift test looks at. */
const DRIFT_WINDOW = 3;
/**
 * A level is judged only from as many rounds again as it must hold: a step that falls between the rounds judged
 * earlier and the steady ones is then a changepoint between two whole segments. With fewer, a noisy level still
 * falling by half read as flat on a slower host (docs/method.md, "Steady state judged too soon").
 */
const JUDGED_PER_STEADY_ROUND = 2;
/** A segment as short as the steady rounds: a step then shows as soon as the rounds judged can hold two. */
const MIN_SEGMENT_ROUNDS = MIN_STEADY_ROUNDS;
/** A block whose targets have not settled by then ends anyway, its last steady rounds' worth flagged. */
export const MAX_BLOCK_ROUNDS = 12;

/**
 * The rounds a block runs before the steady-state test first judges it: the warm-up rounds, then twice the rounds it
 * keeps. A block capped here is judged once, and never runs on in search of a steady state.
 * @param {number} steadyRounds
 */
export const firstJudgementRounds = (steadyRounds) => ALWAYS_WARM_UP_ROUNDS + JUDGED_PER_STEADY_ROUND * steadyRounds;
/** A target that answers nothing in this many rounds in a row ends its block: more rounds will not change that. */
const FAILED_ROUNDS_TO_STOP = 2;

/**
 * @typedef {import('../../model/results.js').RunRecord} RunRecord
 * @typedef {import('../../model/records.js').SteadyClass} SteadyClass
 * @typedef {import('../../model/records.js').TargetWarmUp} TargetWarmUp
 * @typedef {object} BlockOutcome
 * @property {RunRecord[][]} rounds each round's records, in the order they ran
 * @property {number} steadyFrom 0-based: the first round that counts as a measurement
 * @property {boolean} steady false: the block reached its cap (or its targets stopped answering) first
 * @property {Record<string, TargetWarmUp>} byTarget
 */

/**
 * @param {object} plan
 * @param {string[]} plan.targets the block's servers, by instanceName
 * @param {string[]} [plan.judged] the servers whose steady state ends the block (the compared pair); the others' series
 *   are recorded and classed but do not hold the block: their ratios are shown beside the verdict, not judged
 * @param {(round: number) => Promise<RunRecord[] | null>} plan.runRound one run per target; null when interrupted
 * @param {number} [plan.steadyRounds] the steady rounds it keeps
 * @param {number} [plan.maxRounds] where it ends unsettled, never before its first judgement; by default
 *   MAX_BLOCK_ROUNDS, or its first judgement and as many rounds again as it keeps where that is more
 * @returns {Promise<BlockOutcome | null>} null when interrupted
 */
export async function measureBlock({
  targets,
  judged = targets,
  runRound,
  steadyRounds = MIN_STEADY_ROUNDS,
  maxRounds: cap,
}) {
  const firstJudgement = firstJudgementRounds(steadyRounds);
  const maxRounds =
    cap === undefined ? Math.max(MAX_BLOCK_ROUNDS, firstJudgement + steadyRounds) : Math.max(cap, firstJudgement);
  /** @type {RunRecord[][]} */
  const rounds = [];
  for (let round = 0; round < maxRounds; round++) {
    const records = await runRound(round);
    if (records === null) return null;
    rounds.push(records);
    if (stoppedAnswering(rounds, targets)) return outcome(rounds, targets, judged, steadyRounds, 'silent');
    if (rounds.length < firstJudgement) continue;
    const settled = outcome(rounds, targets, judged, steadyRounds, 'open');
    if (rounds.length - settled.steadyFrom >= steadyRounds && settled.steady) return settled;
  }
  return outcome(rounds, targets, judged, steadyRounds, 'cap');
}

/**
 * @param {RunRecord[][]} rounds @param {string[]} targets @param {string[]} judged @param {number} steadyRounds
 * @param {'open' | 'cap' | 'silent'} ending open: the block may go on; cap: it reached its cap; silent: a
 *   target stopped answering, whose failed runs the report needs, warm-up or not
 * @returns {BlockOutcome}
 */
function outcome(rounds, targets, judged, steadyRounds, ending) {
  /** @type {Record<string, TargetWarmUp>} */
  const byTarget = {};
  let steadyFrom = ALWAYS_WARM_UP_ROUNDS;
  let steady = true;
  for (const target of targets) {
    const runs = rounds.map((records) => records.find((record) => instanceName(record) === target));
    const cpuUsPerRequest = runs.map(costPerRequest);
    const youngMiB = runs.map((run) => run?.state?.heapBefore?.youngMiB ?? null);
    const cost = steadyOf(cpuUsPerRequest, steadyRounds, 'no steady state');
    const young = steadyOf(youngMiB, steadyRounds, 'flat');
    const from =
      cost.steadyFrom === null || young.steadyFrom === null ? null : Math.max(cost.steadyFrom, young.steadyFrom);
    byTarget[target] = {
      classification: from === null ? 'no steady state' : cost.classification,
      steadyFrom: from,
      cpuUsPerRequest,
      youngMiB,
    };
    if (!judged.includes(target)) continue;
    if (from === null) steady = false;
    else steadyFrom = Math.max(steadyFrom, from);
  }
  if (ending === 'open') return { rounds, steadyFrom, steady, byTarget };
  // no steady state within the block: its last rounds stand in, flagged
  const floor = ending === 'silent' ? 0 : ALWAYS_WARM_UP_ROUNDS;
  return { rounds, steadyFrom: Math.max(floor, rounds.length - steadyRounds), steady: false, byTarget };
}

/**
 * A series' steady state after the warm-up rounds.
 * @param {Array<number | null>} series @param {number} steadyRounds
 * @param {SteadyClass} unread what a series with no value after the warm-up rounds counts as: a runtime that reports
 *   no young generation leaves it flat; a target that never answered has no steady state
 * @returns {{ steadyFrom: number | null, classification: SteadyClass }}
 */
function steadyOf(series, steadyRounds, unread) {
  const known = series.flatMap((value, round) =>
    value === null || round < ALWAYS_WARM_UP_ROUNDS ? [] : [{ value, round }],
  );
  if (known.length === 0)
    return unread === 'flat'
      ? { steadyFrom: ALWAYS_WARM_UP_ROUNDS, classification: 'flat' }
      : { steadyFrom: null, classification: 'no steady state' };
  const values = known.map((point) => point.value);
  const found = steadyState(values, { minSegmentLength: MIN_SEGMENT_ROUNDS, minSteadyLength: steadyRounds });
  // a level still sliding is not steady, however few points the changepoint test had to see it with
  const from = found.steadyFrom;
  if (
    from === null ||
    values.length < DRIFT_WINDOW ||
    drifts(values.slice(Math.min(from, values.length - DRIFT_WINDOW)))
  )
    return { steadyFrom: null, classification: 'no steady state' };
  return { steadyFrom: known[from].round, classification: found.classification };
}

/** @param {RunRecord | undefined} run */
function costPerRequest(run) {
  if (!run || run.status !== 'ok' || !run.load?.rps) return null;
  return run.server?.cpuUsPerRequest ?? 1e6 / run.load.rps;
}

/** @param {RunRecord[][]} rounds @param {string[]} targets */
function stoppedAnswering(rounds, targets) {
  if (rounds.length < FAILED_ROUNDS_TO_STOP) return false;
  const last = rounds.slice(-FAILED_ROUNDS_TO_STOP);
  return targets.some((target) =>
    last.every((records) => records.find((record) => instanceName(record) === target)?.status !== 'ok'),
  );
}
