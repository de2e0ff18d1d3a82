// @ts-check
// The bench's side of the open-loop generator: one child process per measured runtime, pinned to the generator CPU,
// sent one run at a time; and the rule that says when a run measured the generator rather than the server.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { killOnExit } from '../children.js';
import { GENERATOR_SATURATED_SHARE } from '../drivers/registry.js';
import { LATE_THRESHOLD_NS, MAX_LATE_SHARE } from './scheduler.js';

/** @typedef {import('./generator.js').OpenLoopRequest} OpenLoopRequest */
/** @typedef {import('./generator.js').OpenLoopRun} OpenLoopRun */

const GENERATOR_ENTRY = fileURLToPath(new URL('./generator.js', import.meta.url));
/**
 * A collector pause is a pause in the schedule. The generator has one CPU, so V8's helper threads only take turns with
 * it: a scavenge on the main thread alone is shorter than a parallel one. A small young generation makes scavenges
 * frequent but each well under a millisecond, where the default size let each take milliseconds at high rates.
 */
const GENERATOR_NODE_FLAGS = ['--single-threaded-gc', '--max-semi-space-size=4'];
const TAIL_CHARS = 2_000;
const NANOS_PER_MILLI = 1e6;

/**
 * Whether more than MAX_LATE_SHARE of a run's requests left over LATE_THRESHOLD_NS late.
 * @param {OpenLoopRun} run
 */
export function missedSchedule(run) {
  return run.lateness.share > MAX_LATE_SHARE;
}

/**
 * Whether the generator's own work used so much CPU that it may have fallen behind (its spinning fills its core by
 * design: its own work is what can saturate it).
 * @param {OpenLoopRun} run
 */
export function generatorSaturated(run) {
  return run.generatorBusyShare >= GENERATOR_SATURATED_SHARE;
}

/**
 * Why a run's latencies describe the generator rather than the server, or null when they describe the server: it fell
 * behind its schedule, or it used so much CPU that it may have.
 * @param {OpenLoopRun} run
 * @returns {string | null}
 */
export function generatorFlag(run) {
  const reasons = [];
  if (missedSchedule(run)) {
    reasons.push(
      `${(run.lateness.share * 100).toFixed(1)} % of requests left over ${LATE_THRESHOLD_NS / NANOS_PER_MILLI} ms late`,
    );
  }
  if (generatorSaturated(run)) {
    reasons.push(`the generator's own work used ${Math.round(run.generatorBusyShare * 100)} % of a core`);
  }
  return reasons.length ? reasons.join('; ') : null;
}

/**
 * @typedef {object} OpenLoopGenerator
 * @property {(request: OpenLoopRequest, signal?: AbortSignal) => Promise<OpenLoopRun>} run one run at a time
 * @property {() => Promise<void>} stop
 */

/**
 * @param {{ cpu: string | null }} options cpu: taskset CPU list, or null to let the scheduler place it
 * @returns {OpenLoopGenerator}
 */
export function startOpenLoopGenerator({ cpu }) {
  const [command, args] = cpu
    ? ['taskset', ['-c', cpu, process.execPath, ...GENERATOR_NODE_FLAGS, GENERATOR_ENTRY]]
    : [process.execPath, [...GENERATOR_NODE_FLAGS, GENERATOR_ENTRY]];
  // detached: a Ctrl-C reaches the bench alone, which then stops the generator
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], detached: true });
  killOnExit(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-TAIL_CHARS);
  });
  /** @type {Error | null} */
  let ended = null;
  /** @type {((error: Error) => void) | null} */
  let failPending = null;
  const onEnd = (/** @type {Error} */ error) => {
    ended = error;
    failPending?.(error);
  };
  child.once('error', onEnd);
  child.once('exit', (code, signal) =>
    onEnd(new Error(`the open-loop generator exited (${signal ?? `code ${code}`}): ${stderr.trim() || 'no stderr'}`)),
  );
  let nextId = 0;

  return {
    run(request, signal) {
      if (ended) return Promise.reject(ended);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const abort = () => {
          child.kill('SIGKILL');
          reject(new Error('interrupted'));
        };
        const done = () => {
          child.off('message', onMessage);
          signal?.removeEventListener('abort', abort);
          failPending = null;
        };
        const onMessage = (/** @type {{ id: number, run?: OpenLoopRun, error?: string }} */ message) => {
          if (message.id !== id) return;
          done();
          if (message.run) resolve(message.run);
          else reject(new Error(`the open-loop generator failed: ${message.error}`));
        };
        failPending = (error) => {
          done();
          reject(error);
        };
        child.on('message', onMessage);
        signal?.addEventListener('abort', abort, { once: true });
        child.send({ id, request });
      });
    },
    async stop() {
      if (ended) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}
