// @ts-check
// Where the run is and how long is left: one line rewritten in place on a terminal, plain lines otherwise (CI logs).
import { formatDuration } from '../model/durations.js';

/**
 * @typedef {object} Step
 * @property {string} runtime
 * @property {string} phase 'warm-up' or 'round i/R'
 * @property {string} target
 * @property {string} [stack] the app stack the target runs with (`production`), shown as `nest-express@production`
 * @property {number} [start] which start of the servers this step belongs to, 1-based, when a run starts them
 *   several times
 * @property {number} [starts] how many starts there are; the start is shown when there are several
 * @property {string} scenario
 * @property {number} plannedSec what the step should take (its load duration)
 */

/**
 * @param {{ stream: NodeJS.WriteStream, totalPlannedSec: number, clock?: () => number, mode?: 'live' | 'silent' }}
 *   options totalPlannedSec: the load seconds planned, or, under a time budget, the wall seconds planned (see
 *   `wallPlanned`); mode: silent writes nothing (--quiet)
 * @param {{ wallPlanned?: boolean }} [plan] wallPlanned: the plan is wall time (a budget), so the time left is what
 *   remains of it; otherwise it is load time, scaled by the wall time each load second has taken so far
 */
export function createProgress(
  { stream, totalPlannedSec, clock = Date.now, mode = 'live' },
  { wallPlanned = false } = {},
) {
  const tty = Boolean(stream.isTTY);
  const silent = mode === 'silent';
  const startedAt = clock();
  let plannedDoneSec = 0;
  let lineShown = false;

  function clearLine() {
    if (tty && lineShown) stream.write('\r\u001b[2K');
    lineShown = false;
  }

  /** Wall time per planned second so far (start-up, verification and per-run overhead included). */
  function timeLeftSec() {
    const elapsedSec = (clock() - startedAt) / 1000;
    if (wallPlanned) return totalPlannedSec - elapsedSec;
    const pace = plannedDoneSec > 0 ? Math.max(1, elapsedSec / plannedDoneSec) : 1;
    return (totalPlannedSec - plannedDoneSec) * pace;
  }

  return {
    /** @param {Step} step the step about to run */
    start(step) {
      if (silent) return;
      const text = `${step.runtime} · ${step.phase} · ${stepTarget(step)} · ${step.scenario} · ${formatDuration(timeLeftSec())} left`;
      if (tty) {
        clearLine();
        stream.write(text.slice(0, (stream.columns || 120) - 1));
        lineShown = true;
      } else {
        stream.write(`${text}\n`);
      }
    },
    /** @param {Step} step the step that just ended */
    finish(step) {
      plannedDoneSec += step.plannedSec;
    },
    /** A message that must stay visible (a failure, a skipped pair). @param {string} text */
    log(text) {
      if (silent) return;
      clearLine();
      stream.write(`${text}\n`);
    },
    done() {
      clearLine();
    },
  };
}

/**
 * `nest-express@production`, with `(start 2/3)` when the run starts its servers several times.
 * @param {Step} step
 */
function stepTarget({ target, stack, start, starts }) {
  const instance = stack ? `${target}@${stack}` : target;
  return start && starts && starts > 1 ? `${instance} (start ${start}/${starts})` : instance;
}
