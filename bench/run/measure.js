// @ts-check
// The measurement of one runtime: start its servers, verify them, fit --nest-app's route loads, run the design the
// options ask for (designs/: fixed rounds, rounds under a budget, or starts), then with --load-curve the open-loop runs
// (load-curve.js) on the same servers.
import { measureBudget } from './designs/budget.js';
import { measureRounds } from './designs/rounds.js';
import { measureStarts, verdictInstances } from './designs/server-starts.js';
import { measureLoadCurve } from './load-curve.js';
import { fitRouteLoads, planSession, startTargets, stopAll, verifyPairs } from './session.js';
import { overStarts } from '../model/design.js';

/** What starting and verifying the targets of one runtime counts as in the time-left estimate. */
export const START_ALLOWANCE_SEC = 5;

/**
 * @param {import('./session.js').Session} unplanned
 */
export async function measureRuntime(unplanned) {
  const session = planSession(unplanned);
  const { options, design, record, progress, runtimeKey } = session;
  const bootedAt = performance.now();
  // with starts, the first boots only the verdict's servers: the ones beside it boot on their own start, if any
  const firstBoot = overStarts(design) ? verdictInstances(session) : null;
  /** the servers of the current start: --starts replaces them */
  const servers = { running: await startTargets(session, 0, firstBoot) };
  const running = servers.running;
  try {
    if (session.signal.aborted) return;
    const verified = await verifyPairs(session, running, session.pairs);
    record.verified(verified.records);
    progress.finish({ runtime: runtimeKey, phase: 'start', target: '', scenario: '', plannedSec: START_ALLOWANCE_SEC });
    const measured = verified.ok;
    if (options.fitLoads) session.routeLoads = await fitRouteLoads(session, running, measured);
    const finished = overStarts(design)
      ? await measureStarts(session, servers, measured, (performance.now() - bootedAt) / 1000)
      : design.kind === 'rounds'
        ? await measureRounds(session, running, measured)
        : await measureBudget(session, running, measured, /** @type {number} */ (design.budgetPerRuntimeSec));
    if (!finished) return;
    if (options.loadCurve) await measureLoadCurve(session, servers.running, measured);
  } finally {
    await stopAll(servers.running);
  }
}
