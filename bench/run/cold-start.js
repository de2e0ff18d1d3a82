// @ts-check
// Cold start and memory after boot, per target: each compared server started afresh many times, in alternating order,
// timed from spawning its process to its first answer (polled every COLD_START_POLL_MS), its RSS and V8 heap read by
// the telemetry preload once it answers, then stopped. Serverless users choose an adapter on these.
import { startTarget } from './targets.js';
import { steadyStateArgs } from './steady-state.js';

/** A first answer is seen within this much of when it could be. */
const COLD_START_POLL_MS = 2;
/** Between one server's stop and the next start: the previous process's exit work is done. */
const PAUSE_MS = 200;

/** @typedef {import('../model/records.js').ColdStartRecord} ColdStartRecord */

/**
 * @param {object} input
 * @param {import('../model/config.js').Target[]} input.targets the compared pair, command targets only
 * @param {import('../runtimes/runtimes.js').Runtime} input.runtime
 * @param {string} input.runtimeKey
 * @param {import('./options.js').Options} input.options coldStarts, basePort, cpus, telemetry, memoryReducer
 * @param {Record<string, string>} input.env from the prepare step
 * @param {AbortSignal} input.signal
 * @param {(line: string) => void} input.log
 * @returns {Promise<ColdStartRecord[]>}
 */
export async function measureColdStarts({ targets, runtime, runtimeKey, options, env, signal, log }) {
  const runtimeFlags = steadyStateArgs(runtime, options);
  /** @type {ColdStartRecord[]} */
  const records = [];
  const starts = options.coldStarts ?? 0;
  log(`${runtimeKey}: ${starts} cold starts of ${targets.map((t) => t.name).join(' and ')}`);
  for (let start = 0; start < starts && !signal.aborted; start++) {
    const order = start % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) {
      const running = await startTarget(target, {
        runtime,
        port: options.basePort,
        env,
        execArgv: runtimeFlags,
        cpu: options.cpus?.server ?? null,
        telemetry: options.telemetry,
        readyPollMs: COLD_START_POLL_MS,
      });
      const heap = (await running.telemetry?.snapshot())?.heap ?? null;
      await running.stop();
      records.push({
        runtime: runtimeKey,
        target: target.name,
        start,
        readyMs: /** @type {number} */ (running.readyMs),
        rssMiB: heap?.rssMiB ?? null,
        heapUsedMiB: heap?.heapUsedMiB ?? null,
        runtimeFlags,
      });
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  }
  return records;
}
