// @ts-check
// Pinning the bench itself: with pinning, the bench (and so in-process autocannon) runs on the generator's CPUs,
// never the servers'.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';

/** @typedef {{ server: string, generator: string }} Pinning taskset CPU lists */

/**
 * Pinning that was only the default gives way to an unpinned run when taskset is missing, as wrk gives way to
 * autocannon; an explicit --pin refuses instead.
 * @param {Pinning} cpus
 * @param {boolean} pinnedByDefault
 * @param {(line: string) => void} log
 * @returns {Pinning | null} the pinning in force
 */
export function pinThisProcess(cpus, pinnedByDefault, log) {
  const pinned = pinProcess(process.pid, cpus.generator);
  if (pinned.status === 0) return cpus;
  const missing = 'taskset is not installed (apt-get install util-linux)';
  if (pinned.error && pinnedByDefault) {
    log(`note: ${missing}; running unpinned, so the scheduler places servers and generator`);
    return null;
  }
  const reason = pinned.error ? missing : `taskset: ${pinned.stderr.trim()}`;
  throw new UsageError(`pinning: could not pin the bench to CPU ${cpus.generator}: ${reason}; or run with --no-pin`);
}

/**
 * Every thread a process has now onto these CPUs; threads it starts later inherit it.
 * @param {number} pid @param {string} cpus taskset CPU list
 */
export function pinProcess(pid, cpus) {
  return spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { encoding: 'utf8' });
}

/**
 * A process and every process below it (a target started through a shell or npm serves from a child), each with all
 * its threads; the first failure is returned.
 * @param {number} pid @param {string} cpus taskset CPU list
 * @returns {import('node:child_process').SpawnSyncReturns<string>}
 */
export function pinProcessTree(pid, cpus) {
  const pinned = pinProcess(pid, cpus);
  if (pinned.status !== 0) return pinned;
  for (const child of childPids(pid)) {
    const below = pinProcessTree(child, cpus);
    if (below.status !== 0) return below;
  }
  return pinned;
}

/** @param {number} pid */
function childPids(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return []; // it ended meanwhile
  }
}
