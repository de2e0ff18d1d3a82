// @ts-check
// Where the run is and what it found: on a terminal, one line rewritten in place as the run goes; everywhere, a line
// per block saying what it decided. A log (CI) gets no line per run: only the blocks, the messages, and a line when
// nothing was written for a while.
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
 * What one block (a scenario on a stack, on one server start) kept and where it left the verdict.
 * @typedef {object} BlockEnd
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} stack
 * @property {number} [start] 1-based, when the design starts its servers several times
 * @property {number} rounds the rounds kept as measurements
 * @property {number} [ran] the rounds run, warm-up included, when the block warmed up in rounds of its own
 * @property {boolean} [steady] false: its servers reached no steady state before the block ended
 * @property {number} [connections] the connections fitted to its route, when fewer than asked for
 * @property {import('../model/design.js').Glance | null} glance the compared pair's ratio so far; null: not judged
 * @property {'so far' | 'decided' | 'budget' | 'final'} stand so far: more starts may measure it; decided: its
 *   verdict is settled; budget: it stopped undecided on the budget (or the round cap); final: a fixed design's end
 */

/**
 * A log that prints nothing for this long looks hung (CI services end such jobs): the step under way is written then.
 */
const QUIET_LOG_SEC = 60;

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
  let writtenAt = startedAt;

  function clearLine() {
    if (tty && lineShown) stream.write('\r\u001b[2K');
    lineShown = false;
  }

  /** @param {string} text a line that stays */
  function writeLine(text) {
    if (silent) return;
    clearLine();
    stream.write(`${text}\n`);
    writtenAt = clock();
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
      } else if (clock() - writtenAt >= QUIET_LOG_SEC * 1000) writeLine(text);
    },
    /** @param {Step} step the step that just ended */
    finish(step) {
      plannedDoneSec += step.plannedSec;
    },
    /** A message that must stay visible (a failure, a skipped pair). @param {string} text */
    log(text) {
      writeLine(text);
    },
    /** @param {BlockEnd} end a block that just ended */
    block(end) {
      writeLine(blockLine(end));
    },
    done() {
      clearLine();
    },
  };
}

/**
 * `node@26.12.1 · start 2 · hello · bare · 5 of 9 rounds kept · nest-fastify ÷ nest-express 2.01× (1.88×–2.15×) ·
 * holds, decided`
 * @param {BlockEnd} end
 */
export function blockLine({ runtime, scenario, stack, start, rounds, ran, steady, connections, glance, stand }) {
  const kept = ran === undefined ? `${rounds} rounds` : `${rounds} of ${ran} rounds kept`;
  return [
    runtime,
    ...(start === undefined ? [] : [`start ${start}`]),
    scenario,
    stack,
    steady === false ? `${kept}, no steady state` : kept,
    ...(connections === undefined ? [] : [`${connections} connections`]),
    ...(glance ? [`${glance.pair} ${ratioText(glance)}`, standText(glance.verdict, stand)] : ['not judged']),
  ].join(' · ');
}

/** Beyond this an interval's end says only that it is open (a t interval over two starts can reach 1e13). */
const WIDEST_SHOWN = 100;

/** @param {import('../model/design.js').Glance} glance */
function ratioText({ ratio, interval }) {
  if (ratio === null) return 'no ratio';
  const times = (/** @type {number} */ value) => (value >= WIDEST_SHOWN ? `>${WIDEST_SHOWN}×` : `${value.toFixed(2)}×`);
  return interval ? `${times(ratio)} (${times(interval.low)}–${times(interval.high)})` : times(ratio);
}

/** @param {string} verdict @param {BlockEnd['stand']} stand */
function standText(verdict, stand) {
  if (stand === 'decided') return `${verdict}, decided`;
  if (stand === 'budget') return `${verdict}, stopped on the budget`;
  return stand === 'so far' ? `${verdict} so far` : verdict;
}

/**
 * `nest-express@production`, with `(start 2/3)` when the run starts its servers several times.
 * @param {Step} step
 */
function stepTarget({ target, stack, start, starts }) {
  const instance = stack ? `${target}@${stack}` : target;
  return start && starts && starts > 1 ? `${instance} (start ${start}/${starts})` : instance;
}
