// @ts-check
/**
 * One profiled run: start the target under V8's sampling profiler, mark the load window in its log, drive load for
 * the set time, stop it through its normal exit path so the log is complete.
 */
import { rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';

import { describeExit, startTarget } from '../run/targets.js';
import { MARK_SOCKET_ENV, markLoad, markSocketFor } from './load-window.js';

/** @typedef {import('../run/targets.js').Target} Target */
/** @typedef {import('../model/scenarios.js').Scenario} Scenario */
/** @typedef {import('../runtimes/runtimes.js').Runtime} Runtime */
/** @typedef {import('../run/drivers/registry.js').Driver} Driver */

/**
 * V8 flags for a profiled run, besides --logfile:
 * --no-logfile-per-isolate: one log at the given path, not isolate-0x…-v8.log;
 * --no-short-builtin-calls: otherwise V8 copies its builtins next to the JIT code and runs them from an address it
 * never logs, leaving part of an HTTP server's ticks unaccounted (docs/profiles.md says how much).
 */
export const PROFILE_FLAGS = Object.freeze(['--prof', '--no-logfile-per-isolate', '--no-short-builtin-calls']);
const LOAD_MARKER = new URL('./load-marker.js', import.meta.url).href;
const NEWLINE = 0x0a;
/** Longer than any one line of a V8 log, which is where a cut line's start must be. */
const PARTIAL_LINE_SEARCH_BYTES = 64 * 1024;

/** @param {string} logFile absolute path */
export function profileExecArgv(logFile) {
  return [...PROFILE_FLAGS, `--logfile=${logFile}`, `--import=${LOAD_MARKER}`];
}

/**
 * What a profiled process's environment adds: where its load marker listens.
 * @param {string} logFile absolute path
 */
export function profileEnv(logFile) {
  return { [MARK_SOCKET_ENV]: markSocketFor(logFile) };
}

/**
 * @typedef {object} RecordOptions
 * @property {Target} target
 * @property {Scenario} scenario
 * @property {import('../model/scenarios.js').ScenarioRequest} request what the profiled load sends, resolved with the
 *   pair (on its stack, with the run's token)
 * @property {Runtime} runtime
 * @property {Driver} driver
 * @property {number} durationSec
 * @property {number} connections
 * @property {number | null} port null: a free one
 * @property {string} logFile absolute path
 * @property {Record<string, string>} [env]
 * @property {string | null} [serverCpu]
 * @property {string | null} [generatorCpu]
 * @property {AbortSignal} [signal]
 */

/**
 * @param {RecordOptions} options
 * @returns {Promise<import('../model/records.js').LoadResult>}
 */
export async function recordProfile({
  target,
  scenario,
  runtime,
  driver,
  durationSec,
  connections,
  port,
  logFile,
  env,
  request,
  serverCpu = null,
  generatorCpu = null,
  signal,
}) {
  await rm(logFile, { force: true });
  const markSocket = markSocketFor(logFile);
  rmSync(markSocket, { force: true });
  const running = await startTarget(target, {
    runtime,
    port,
    env: { ...env, ...profileEnv(logFile) },
    execArgv: profileExecArgv(logFile),
    cpu: serverCpu,
  });
  let load;
  let exit;
  try {
    await markLoad(markSocket);
    load = await driver.run({
      url: `${running.url}${request.path}`,
      method: request.method,
      headers: request.headers,
      body: request.body,
      ...(request.sequence ? { sequence: request.sequence } : {}),
      connections,
      durationSec,
      expectedStatus: scenario.status,
      pipelining: 1,
      cpu: generatorCpu,
      signal,
    });
    await markLoad(markSocket);
  } finally {
    exit = await running.stop();
    rmSync(markSocket, { force: true });
  }
  // V8 writes the rest of its log when the process exits normally; a death by signal leaves it cut short.
  if (exit.code !== 0) {
    throw new Error(
      `${target.name} ended with ${describeExit(exit)} instead of exit code 0, so its profile log may be incomplete: ${running.stderrTail().trim().split('\n').pop() ?? ''}`,
    );
  }
  await dropPartialLastLine(logFile);
  return load;
}

/**
 * V8's sampler thread may still be writing a tick as the process exits, which can leave the last line cut; that
 * tick comes after the load's end mark (a whole line before it), so it is dropped rather than the log refused.
 * @param {string} file
 * @throws {Error} when the log is missing or has no complete line at all
 */
export async function dropPartialLastLine(file) {
  const handle = await open(file, 'r+').catch(() => null);
  if (!handle) throw new Error(`${file} is missing: the profile log was not written`);
  try {
    const { size } = await handle.stat();
    const tailSize = Math.min(size, PARTIAL_LINE_SEARCH_BYTES);
    const { buffer } = await handle.read(Buffer.alloc(tailSize), 0, tailSize, size - tailSize);
    const lastNewline = buffer.lastIndexOf(NEWLINE);
    if (lastNewline < 0) throw new Error(`${file} has no complete line: the profile log is incomplete`);
    if (lastNewline < tailSize - 1) await handle.truncate(size - tailSize + lastNewline + 1);
  } finally {
    await handle.close();
  }
}
