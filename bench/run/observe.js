// @ts-check
// What a timed run records beside its load: the server's telemetry snapshot and the host's CPU times on both sides.
import { hostDuring, readCpuTimes } from './host.js';
import { serverState } from './telemetry/probe.js';

/**
 * @typedef {{ state: import('./telemetry/probe.js').ServerState | null, host: import('./host.js').HostDuringRun }} Observed
 */

/**
 * Call right before the run's load; call what it returns right after it.
 * @param {import('./targets.js').ServedTarget} target
 * @param {string | null | undefined} serverCpus taskset's CPU list for the servers
 * @returns {Promise<(serverCpuNs: number | null) => Promise<Observed>>} serverCpuNs: the server's CPU over the run
 */
export async function observeRun(target, serverCpus) {
  const stateBefore = await target.telemetry?.snapshot();
  const hostBefore = readCpuTimes();
  return async (serverCpuNs) => {
    const hostAfter = readCpuTimes();
    const stateAfter = await target.telemetry?.snapshot();
    return {
      state: stateBefore && stateAfter ? serverState(stateBefore, stateAfter) : null,
      host: hostDuring(hostBefore, hostAfter, { serverCpu: singleCpu(serverCpus), serverCpuNs }),
    };
  };
}

/**
 * The one core a CPU list names, or null for a list of several.
 * @param {string | null | undefined} list
 */
function singleCpu(list) {
  return list && /^\d+$/.test(list) ? list : null;
}
