// @ts-check
/** How the profiler marks the start and end of the load in a V8 log, and how it finds those marks again. */
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import channel from '../run/telemetry/channel.cjs';

/** Names the socket load-marker.js listens on for the profiler's marks (never a signal: the app may handle those). */
export const MARK_SOCKET_ENV = 'BENCH_PROFILE_MARK_SOCKET';
const MARK_TIMEOUT_MS = 3000;

/**
 * The mark socket of a profile log: in the temporary folder, as a socket's path is short.
 * @param {string} logFile
 */
export function markSocketFor(logFile) {
  const tag = createHash('sha256').update(logFile).digest('hex').slice(0, 16);
  return join(tmpdir(), `nest-adapter-bench-mark-${tag}.sock`);
}

/**
 * Marks the load's start or end in the target's V8 log and resolves once the mark is written.
 * @param {string} socketPath
 * @throws {Error} when the target's marker does not answer
 */
export async function markLoad(socketPath) {
  const answer = await channel.askServer(socketPath, 'mark', MARK_TIMEOUT_MS);
  if (typeof answer !== 'number') throw new Error(`the profiled server did not answer its load mark at ${socketPath}`);
}

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
