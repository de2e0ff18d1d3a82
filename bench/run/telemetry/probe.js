// @ts-check
// The bench's side of the telemetry preload: how a runtime loads it, and asking a server for a snapshot between runs.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import channel from './channel.cjs';

export const PRELOAD_FILE = fileURLToPath(new URL('./preload.cjs', import.meta.url));
export const TELEMETRY_SOCKET_ENV = 'BENCH_TELEMETRY_SOCKET';
/** A server busy answering a backlog answers late; past this its snapshot is missing, not waited for. */
const SNAPSHOT_TIMEOUT_MS = 3000;

/**
 * @typedef {import('../../model/records.js').PauseSum} PauseSum
 * @typedef {import('../../model/records.js').GcEvent} GcEvent
 * @typedef {import('../../model/records.js').HeapState} HeapState
 * @typedef {object} Snapshot what the preload wrote: GC since the previous snapshot, heap and loop state now
 * @property {number} seq
 * @property {number} at epoch ms
 * @property {{ pauses: Record<string, PauseSum>, flagged: Record<string, number>, events: GcEvent[], droppedEvents: number }} gc
 * @property {HeapState | null} heap
 * @property {{ p50Ms: number, p99Ms: number, maxMs: number } | null} eventLoopDelay since the previous snapshot
 * @property {{ idle: number, active: number, utilization: number } | null} eventLoopUtilization since start
 * @property {Record<string, string>} unsupported feature → why it is not recorded on this runtime
 */

/**
 * How a runtime loads the preload before the app's entry, or null when it has no way to.
 * @param {import('../../runtimes/runtimes.js').Runtime} runtime
 * @returns {string[] | null}
 */
export function preloadArgs(runtime) {
  if (runtime.name === 'node' || runtime.name === 'deno') return ['--require', PRELOAD_FILE];
  if (runtime.name === 'bun') return ['--preload', PRELOAD_FILE];
  return null;
}

/**
 * Asks the server's preload for a snapshot on its socket.
 * @param {string} socketPath the server's BENCH_TELEMETRY_SOCKET
 */
export function telemetryProbe(socketPath) {
  return {
    /** @returns {Promise<Snapshot | null>} null when the server did not answer in time or is gone */
    async snapshot() {
      return /** @type {Snapshot | null} */ (await channel.askServer(socketPath, 'snapshot', SNAPSHOT_TIMEOUT_MS));
    },
    remove() {
      rmSync(socketPath, { force: true });
    },
  };
}

/**
 * @typedef {import('../../model/records.js').GcSummary} GcSummary
 * @typedef {import('../../model/records.js').ServerState} ServerState
 */

/**
 * @param {Snapshot} before taken right before the run's load
 * @param {Snapshot} after taken right after it
 * @returns {ServerState}
 */
export function serverState(before, after) {
  const a = before.eventLoopUtilization;
  const b = after.eventLoopUtilization;
  const elapsed = a && b ? b.active + b.idle - (a.active + a.idle) : 0;
  return {
    between: before.gc,
    during: after.gc,
    heapBefore: before.heap,
    heapAfter: after.heap,
    eventLoopDelay: after.eventLoopDelay,
    eventLoopUtilization: a && b && elapsed > 0 ? (b.active - a.active) / elapsed : null,
    unsupported: after.unsupported,
  };
}
