// @ts-check
/** How the profiler marks the start and end of the load in a V8 log, and how it finds those marks again. */

/** Sent by the profiler to the target; its listener lives in load-marker.js. SIGUSR1 would start node's inspector. */
export const LOAD_MARK_SIGNAL = 'SIGUSR2';

const MARK_PREFIX = 'bench-profile-mark:';
const MARK_NAMES = ['load-start', 'load-end'];

/** @param {number} n 1 for the first mark (load start), 2 for the second (load end) */
export function markScriptName(n) {
  return `${MARK_PREFIX}${MARK_NAMES[n - 1] ?? `extra-${n}`}`;
}

const MARK_LINE = new RegExp(`^code-creation,Script,\\d+,(\\d+),.*${MARK_PREFIX}(${MARK_NAMES.join('|')})`);

/**
 * @param {string} line one line of a V8 log
 * @returns {{ name: string, timeUs: number } | null}
 */
export function parseMarkLine(line) {
  const match = MARK_LINE.exec(line);
  return match ? { name: match[2], timeUs: Number(match[1]) } : null;
}
