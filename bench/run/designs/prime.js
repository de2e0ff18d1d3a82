// @ts-check
// Priming: before a start's headline block, each of its servers answers a fixed number of requests alone, since the
// JIT counts invocations, not seconds.
import { rotate } from '../plan.js';
import { loadRun } from '../session.js';
import { blockKey } from '../../model/keys.js';
import { instanceName } from '../../model/stacks.js';

/** @typedef {import('../plan.js').Pair} Pair */
/** @typedef {import('../runtime-plan.js').RuntimePlan} RuntimePlan */
/** @typedef {import('../runtime-plan.js').RunState} RunState */

/**
 * Requests each server of the headline block answers alone before the block's first round, on every start. V8 tiers
 * code up by invocation counts, so a slow host needs more seconds of load than a fast one to finish compiling; without
 * this, a slow host's hello blocks ended inside the JIT's compile bursts (docs/method.md, "Warm-up here is longer than
 * the blocks").
 */
export const PRIME_REQUESTS = 30_000;
/** The first priming run, before the server's rate is known; no run is longer. */
export const PRIME_RUN_SEC = 1;
/** The shortest priming run: a shorter one would be mostly the generator's own start. */
export const MIN_PRIME_RUN_SEC = 0.25;
/** A later run is sized to the requests still missing at the rate so far, this much longer, so one run ends it. */
const PRIME_RUN_SLACK = 1.1;
/** The most priming per server, however slow the host. */
const MAX_PRIME_SEC = 6;

/**
 * How long the next priming run of a server lasts: the first PRIME_RUN_SEC, a later one the requests still missing at
 * the server's rate so far, so priming ends near PRIME_REQUESTS instead of a whole run past it.
 * @param {{ requests: number, seconds: number }} sofar what the server has answered in its priming runs so far
 * @returns {number} seconds, MIN_PRIME_RUN_SEC to PRIME_RUN_SEC
 */
export function primeRunSec({ requests, seconds }) {
  if (requests <= 0 || seconds <= 0) return PRIME_RUN_SEC;
  const missingSec = ((PRIME_REQUESTS - requests) / (requests / seconds)) * PRIME_RUN_SLACK;
  return Math.min(PRIME_RUN_SEC, Math.max(MIN_PRIME_RUN_SEC, missingSec));
}

/**
 * Each server of the block loaded alone until it has answered PRIME_REQUESTS (or MAX_PRIME_SEC passed), recorded
 * (primes).
 * @param {RuntimePlan} plan
 * @param {RunState} state
 * @param {{ scenario: string, stack: string, pairs: Pair[] }} block
 * @param {number} start 0-based
 * @returns {Promise<boolean>} false when interrupted
 */
export async function primeBlock(plan, state, block, start) {
  const { record, progress, runtimeKey } = plan;
  // the order alternates by start, as the boot order does: the server primed last goes straight into the rounds
  for (const pair of rotate(block.pairs, start)) {
    const target = state.running.get(instanceName(pair));
    if (!target || state.troubled.has(blockKey(pair))) continue;
    const sofar = { requests: 0, seconds: 0 };
    while (sofar.requests < PRIME_REQUESTS && sofar.seconds < MAX_PRIME_SEC) {
      if (plan.signal.aborted) return false;
      const plannedSec = primeRunSec(sofar);
      const step = { runtime: runtimeKey, phase: `start ${start + 1} priming`, ...pair, plannedSec };
      progress.start(step);
      const load = await loadRun(plan, state, target, pair, plannedSec).catch(() => null);
      progress.finish(step);
      if (!load?.requests) break;
      sofar.requests += load.requests;
      sofar.seconds += load.durationSec;
    }
    record.primed({ runtime: runtimeKey, ...pair, start, ...sofar });
  }
  return !plan.signal.aborted;
}
