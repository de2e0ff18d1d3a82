// @ts-check
// The rounds design: after the warm-up, --rounds paired, rotated rounds, each timed run right after an untimed burst
// on the same target.
import { blockKey, pairKey } from '../../model/keys.js';
import { roundOrder } from '../plan.js';
import { afterLoad, burst, warmUp } from '../session.js';
import { timedRun } from '../timed-run.js';

/** @typedef {import('../plan.js').Pair} Pair */
/** @typedef {import('../runtime-plan.js').RuntimePlan} RuntimePlan */
/** @typedef {import('../runtime-plan.js').RunState} RunState */

/**
 * The warm-up, then --rounds rounds of the pairs, on the first start's servers; then a line per block.
 * @param {RuntimePlan} plan
 * @param {RunState} state
 * @param {Pair[]} pairs verified
 * @returns {Promise<boolean>} false when interrupted
 */
export async function measureRounds(plan, state, pairs) {
  const { options, progress, runtimeKey } = plan;
  if (!(await warmUp(plan, state, pairs, 0))) return false;
  for (let round = 0; round < options.rounds; round++)
    if ((await runRound(plan, state, pairs, round, 0)) === null) return false;
  for (const block of new Map(pairs.map((pair) => [blockKey(pair), pair])).values()) {
    if (state.troubled.has(blockKey(block))) continue;
    const { scenario, stack } = block;
    const glance = plan.glance({ runtime: runtimeKey, scenario, stack });
    progress.block({ runtime: runtimeKey, scenario, stack, rounds: options.rounds, glance, stand: 'final' });
  }
  return true;
}

/**
 * One round of these pairs, in the round's rotated order: each timed run right after its burst.
 * @param {RuntimePlan} plan
 * @param {RunState} state
 * @param {Pair[]} pairs
 * @param {number} round 0-based
 * @param {number} start 0-based: the server start these servers are
 * @returns {Promise<Map<string, number> | null>} each pair's wall seconds (burst, run and drain) by pairKey; null when
 *   interrupted
 */
export async function runRound(plan, state, pairs, round, start) {
  const { options, design, record: recorder, progress, runtimeKey } = plan;
  const of = design.roundsPerStart === null ? '' : `/${design.roundsPerStart * design.starts}`;
  /** @type {Map<string, number>} */
  const took = new Map();
  for (const [index, pair] of roundOrder(pairs, round, plan.targets).entries()) {
    if (plan.signal.aborted) return null;
    if (state.troubled.has(blockKey(pair))) continue;
    const startedAt = performance.now();
    const plannedSec = state.fittedLoads.get(blockKey(pair))?.durationSec ?? options.durationSec;
    const step = { runtime: runtimeKey, phase: `round ${round + 1}${of}`, ...pair, plannedSec };
    progress.start(step);
    const place = { round: round + 1, start };
    const burstLoad = await burst(plan, state, pair);
    if (
      burstLoad !== undefined &&
      !(await afterLoad(plan, state, pairs, pair, { ...place, phase: 'burst' }, burstLoad))
    ) {
      progress.finish(step);
      continue;
    }
    const record = await timedRun(plan, state, pair, { round: round + 1, slot: index + 1, start });
    if (plan.signal.aborted) return null; // a run cut short by Ctrl-C is no measurement
    await afterLoad(plan, state, pairs, pair, { ...place, phase: 'round' }, record.load);
    if (record.status !== 'ok')
      progress.log(
        `${runtimeKey} ${pair.target} × ${pair.scenario} round ${round + 1} ${record.status === 'failed' ? 'failed' : 'too slow'}: ${record.failure?.reason}`,
      );
    recorder.runs([record]);
    progress.finish(step);
    took.set(pairKey(pair), (performance.now() - startedAt) / 1000);
  }
  return took;
}
