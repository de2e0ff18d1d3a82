// @ts-check
// The measurement of one runtime: plan it (its names resolved, frozen), start its servers, verify them, fit --nest-app's
// route loads, hand the state to the design its kind names (designs/: fixed rounds, rounds under a budget, or starts),
// then with --load-curve the open-loop runs (load-curve.js) on the same servers.
import { measureBudget } from './designs/budget.js';
import { measureRounds } from './designs/rounds.js';
import { measureStarts, verdictInstances } from './designs/server-starts.js';
import { measureLoadCurve } from './load-curve.js';
import { planRuntime, runState } from './runtime-plan.js';
import { fitRouteLoads, startTargets, stopAll, verifyPairs } from './session.js';
import { overStarts } from '../model/design.js';

/** What starting and verifying the targets of one runtime counts as in the time-left estimate. */
export const START_ALLOWANCE_SEC = 5;

/**
 * Each design by its kind: it runs the verified pairs on the state's servers, and says false when interrupted.
 * @type {Record<import('../model/design.js').DesignKind, (plan: import('./runtime-plan.js').RuntimePlan,
 *   state: import('./runtime-plan.js').RunState, pairs: import('./plan.js').Pair[], firstBootSec: number) => Promise<boolean>>}
 */
const DESIGNS = {
  rounds: measureRounds,
  budget: measureBudget,
  starts: measureStarts,
  'budgeted-starts': measureStarts,
};

/**
 * @param {import('./runtime-plan.js').RuntimeInput} input
 */
export async function measureRuntime(input) {
  const plan = planRuntime(input);
  const { options, design, record, progress, runtimeKey, signal, loads, curveLoads } = plan;
  const bootedAt = performance.now();
  // with starts, the first boots only the verdict's servers: the ones beside it boot on their own start, if any
  const firstBoot = overStarts(design) ? verdictInstances(plan.pairs, plan.judged) : null;
  const state = runState({ loads, options }, await startTargets(plan, 0, firstBoot));
  try {
    if (signal.aborted) return;
    const verified = await verifyPairs(plan, state, plan.pairs);
    record.verified(verified.records);
    progress.finish({ runtime: runtimeKey, phase: 'start', target: '', scenario: '', plannedSec: START_ALLOWANCE_SEC });
    const measured = verified.ok;
    if (options.fitLoads)
      await fitRouteLoads({ options, record, progress, runtimeKey, loads, signal }, state, measured);
    const finished = await DESIGNS[design.kind](plan, state, measured, (performance.now() - bootedAt) / 1000);
    if (!finished) return;
    if (options.loadCurve)
      await measureLoadCurve({ options, record, runtimeKey, progress, signal, curveLoads }, state.running, measured);
  } finally {
    await stopAll(state.running);
  }
}
