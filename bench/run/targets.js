// @ts-check
// How to reach a server under test: start a command target as a child process that is ready once it answers HTTP,
// or check that a url target answers.
import { spawn } from 'node:child_process';
import { createWriteStream, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError, errorLine } from '../errors.js';
import { BUILTIN_CONFIG } from '../model/builtin-config.js';
import { killOnExit } from './children.js';
import { pinProcessTree } from './pinning.js';
import { targetNamed } from '../model/config.js';
import { runtimeArgv } from '../runtimes/runtimes.js';
import { requestOnce } from './transport.js';
import { preloadArgs, TELEMETRY_SOCKET_ENV, telemetryProbe } from './telemetry/probe.js';

/** @typedef {import('../runtimes/runtimes.js').Runtime} Runtime */
/** @typedef {import('../model/config.js').Target} Target */

export { PROJECT_ROOT } from '../model/project-root.js';
export const HOST = '127.0.0.1';

export const TARGETS = BUILTIN_CONFIG.targets;
export const TARGET_NAMES = TARGETS.map((t) => t.name);

/** @param {string} name a built-in target */
export function targetByName(name) {
  return targetNamed(BUILTIN_CONFIG, name);
}

/** @param {Target} target @param {string} scenario */
export function targetHasScenario(target, scenario) {
  return target.scenarios === null || target.scenarios.includes(scenario);
}

const READY_TIMEOUT_MS = 30_000;
const READY_POLL_MS = 50;
const ANSWER_TIMEOUT_MS = 1_000;
const STOP_GRACE_MS = 5_000;
const TAIL_CHARS = 4_000;

/**
 * @typedef {object} ExitInfo
 * @property {number | null} code
 * @property {string | null} signal
 *
 * @typedef {object} RunningTarget
 * @property {number} pid the server's own pid (taskset execs into it)
 * @property {string} url base URL, no trailing slash
 * @property {string} startupLine the first line the server printed (the app names its database there)
 * @property {number} [readyMs] from spawning the process to its first answer, in ms (within one poll interval)
 * @property {() => Promise<ExitInfo>} stop SIGTERM, then SIGKILL after a grace period
 * @property {Promise<ExitInfo>} exited settles when the process ends, for whatever reason
 * @property {() => ExitInfo | null} exitInfo how it ended, or null while it runs
 * @property {() => string} stderrTail the last few KB of its stderr
 * @property {ReturnType<typeof telemetryProbe> | null} telemetry asks the preload for a snapshot; null when the server
 *   runs without it
 * @property {string | null} telemetryMissing why a server runs without the preload
 *
 * A target as a run sees it: started by the bench, or a url target (pid null), which runs elsewhere.
 * @typedef {Omit<RunningTarget, 'pid'> & { pid: number | null }} ServedTarget
 *
 * @typedef {object} StartOptions
 * @property {Runtime} runtime
 * @property {number | null} port null: a free port, chosen as it starts (serverPort)
 * @property {Record<string, string>} [env] added to the environment (JWT_SECRET, ...)
 * @property {string[]} [execArgv] runtime flags placed before the entry file (e.g. --prof)
 * @property {string | null} [cpu] taskset CPU list to pin the server to
 * @property {string | null} [bootCpu] taskset CPU list the server boots on, before it is pinned to `cpu` with every
 *   thread and child process it has by then: servers booting together then share both CPUs, and nothing is measured
 *   while they boot
 * @property {boolean} [telemetry] load the telemetry preload (bench/run/telemetry/) where the runtime can
 * @property {number} [readyPollMs] how often to ask whether it answers yet; a cold start's timing asks often
 * @property {string} [outputFile] where all it prints (stdout and stderr) is appended: a user's app keeps its logger's
 *   output with the run
 */

/**
 * A command whose program is `node` runs under the runtime being measured, which also takes the runtime flags.
 * @param {Target} target
 */
export function runsUnderRuntime(target) {
  return target.command !== null && target.command[0] === 'node';
}

/**
 * Make a target ready for load: start a command target, or check that a url target answers.
 * @param {Target} target
 * @param {StartOptions} options used for a command target
 * @returns {Promise<ServedTarget>}
 */
export function serveTarget(target, options) {
  return target.url === null ? startTarget(target, options) : reachTarget(target, target.url);
}

/**
 * A url target is handed on as running; the bench neither starts nor stops it.
 * @param {Target} target
 * @param {string} url
 * @returns {Promise<ServedTarget>}
 */
async function reachTarget(target, url) {
  if (!(await answers(url))) throw new Error(`${target.name} does not answer at ${url}; start it, or fix its url`);
  /** @type {ExitInfo} */
  const running = { code: null, signal: null };
  return {
    pid: null,
    url,
    startupLine: '',
    stop: async () => running,
    exited: new Promise(() => {}),
    exitInfo: () => null,
    stderrTail: () => '',
    telemetry: null,
    telemetryMissing: 'a url target runs elsewhere: nothing is loaded into it',
  };
}

/**
 * Start a command target as a child process and resolve once it answers HTTP on its port.
 * @param {Target} target
 * @param {StartOptions} options
 * @returns {Promise<RunningTarget>}
 */
export async function startTarget(
  target,
  {
    runtime,
    port: pinnedPort,
    env = {},
    execArgv = [],
    cpu = null,
    bootCpu = null,
    telemetry = false,
    readyPollMs = READY_POLL_MS,
    outputFile,
  },
) {
  if (target.command === null) throw new Error(`${target.name} is a url target: the bench does not start it`);
  const port = pinnedPort ?? (await freePort());
  if (pinnedPort !== null) await assertPortFree(pinnedPort, target.name);
  const underRuntime = runsUnderRuntime(target);
  const preload = telemetry && underRuntime ? preloadArgs(runtime) : null;
  const telemetrySocket = preload ? join(tmpdir(), `nest-adapter-bench-${process.pid}-${port}.telemetry.sock`) : null;
  if (telemetrySocket) rmSync(telemetrySocket, { force: true }); // one a killed server left behind
  const firstCpu = cpu && (bootCpu ?? cpu);
  const spawnedAt = performance.now();
  const child = spawnTarget(target, {
    port,
    env: { ...env, ...(telemetrySocket ? { [TELEMETRY_SOCKET_ENV]: telemetrySocket } : {}) },
    argv: underRuntime
      ? [runtime.command, ...runtimeArgv(runtime, execArgv), ...(preload ?? []), ...target.command.slice(1)]
      : target.command,
    cpu: firstCpu,
    outputFile,
  });
  const url = `${target.protocol ?? 'http'}://${HOST}:${port}`;
  await untilAnswering(target, child, { url, port, readyPollMs });
  const readyMs = performance.now() - spawnedAt;
  if (cpu && firstCpu !== cpu) {
    const pinned = pinProcessTree(child.pid, cpu);
    if (pinned.status !== 0) {
      await child.stop();
      throw new Error(`${target.name} booted but could not be pinned to CPU ${cpu}: ${pinned.stderr.trim()}`);
    }
  }
  const probe = telemetrySocket ? telemetryProbe(telemetrySocket) : null;
  return {
    pid: child.pid,
    url,
    startupLine: child.stdout().split('\n')[0].trim(),
    readyMs,
    stop: async () => {
      const info = await child.stop();
      probe?.remove();
      return info;
    },
    exited: child.exited,
    exitInfo: child.exitInfo,
    stderrTail: child.stderr,
    telemetry: probe,
    telemetryMissing: probe ? null : telemetryMissing({ telemetry, underRuntime, runtime }),
  };
}

/** What the bench sets NODE_ENV to for every server it starts (a target's env, or a later env, may set another). */
export const SERVER_NODE_ENV = 'production';

/**
 * A target's process, started in production mode on its port (pinned to `cpu` when given), with the start of its
 * stdout, the tail of its stderr and its exit kept.
 * @param {Target} target
 * @param {{ port: number, env: Record<string, string>, argv: string[], cpu: string | null, outputFile?: string }} start
 *   env: added to the target's own; argv: the program and its arguments
 */
function spawnTarget(target, { port, env, argv, cpu, outputFile }) {
  /** @type {NodeJS.ProcessEnv} */
  const childEnv = {
    ...process.env,
    // as a shell's cd sets it: apps that take their folder from PWD (process.env.PWD || process.cwd()) find it
    ...(target.cwd ? { PWD: resolve(target.cwd) } : {}),
    NODE_ENV: SERVER_NODE_ENV,
    HOST,
    ...target.env,
    [target.portEnv]: String(port),
    ...env,
  };
  delete childEnv.LOG_LEVEL; // the app logs per request when asked to: never while measuring
  const [program, ...rest] = argv;
  const [command, args] = cpu ? ['taskset', ['-c', cpu, program, ...rest]] : [program, rest];
  // detached: a Ctrl-C in the terminal reaches the bench alone, which then stops each child in order
  const child = spawn(command, args, {
    cwd: target.cwd,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  killOnExit(child);

  let stderr = '';
  let stdout = '';
  const output = outputFile ? createWriteStream(outputFile, { flags: 'a' }) : null;
  output?.write(`--- ${new Date().toISOString()} pid ${child.pid}, port ${port}\n`);
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-TAIL_CHARS);
    output?.write(chunk);
  });
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    if (stdout.length < TAIL_CHARS) stdout += chunk;
    output?.write(chunk);
  });
  child.once('close', () => output?.end());

  /** @type {ExitInfo | null} */
  let exitInfo = null;
  /** @type {Promise<ExitInfo>} */
  const exited = new Promise((resolve) => {
    child.once('error', (error) => {
      stderr += `\n${error.message}`;
      exitInfo = { code: null, signal: null };
      resolve(exitInfo);
    });
    child.once('exit', (code, signal) => {
      exitInfo = { code, signal };
      resolve(exitInfo);
    });
  });
  return {
    pid: /** @type {number} */ (child.pid),
    exited,
    exitInfo: () => exitInfo,
    stderr: () => stderr,
    stdout: () => stdout,
    /** @returns {Promise<ExitInfo>} */
    async stop() {
      if (exitInfo) return exitInfo;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      const info = await exited;
      clearTimeout(timer);
      return info;
    },
  };
}

/**
 * Poll the target until it answers; refused when it exits first or stays silent past READY_TIMEOUT_MS (then stopped).
 * @param {Target} target @param {ReturnType<typeof spawnTarget>} child
 * @param {{ url: string, port: number, readyPollMs: number }} poll
 */
async function untilAnswering(target, child, { url, port, readyPollMs }) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await answers(url))) {
    const exitInfo = child.exitInfo();
    if (exitInfo)
      throw new Error(
        `${target.name} exited (${describeExit(exitInfo)}) before answering on port ${port}: ${errorLine(child.stderr())}`,
      );
    if (Date.now() > deadline) {
      await child.stop();
      throw new Error(
        `${target.name} did not answer on ${url} within ${READY_TIMEOUT_MS / 1000} s: ${errorLine(child.stderr())}`,
      );
    }
    await delay(readyPollMs);
  }
}

/**
 * @param {{ telemetry: boolean, underRuntime: boolean, runtime: Runtime }} start
 */
function telemetryMissing({ telemetry, underRuntime, runtime }) {
  if (!telemetry) return 'not asked for';
  if (!underRuntime) return 'its command does not run under the measured runtime, so nothing is loaded into it';
  return `${runtime.name} has no way to load a preload module`;
}

/** @param {ExitInfo} info */
export function describeExit(info) {
  return info.signal ? `signal ${info.signal}` : `exit code ${info.code}`;
}

/**
 * How a server's process ended, given `graceMs` to report an exit that a failed request may be the first sign of;
 * null while it runs.
 * @param {ServedTarget} target @param {number} graceMs
 * @returns {Promise<ExitInfo | null>}
 */
export async function exitWithin(target, graceMs) {
  return (
    target.exitInfo() ??
    Promise.race([target.exited, new Promise((resolve) => setTimeout(() => resolve(null), graceMs))])
  );
}

/**
 * A run's failure record when its target died: what happened, how it ended, and the last of what it printed.
 * @param {string} what @param {ExitInfo} info @param {ServedTarget} target
 */
export function deathFailure(what, info, target) {
  return {
    reason: `${what} (${describeExit(info)})`,
    exitCode: info.code,
    signal: info.signal,
    stderrTail: target.stderrTail(),
  };
}

/**
 * The port of a run's `index`-th server: counting up from --port, or null (a free port as it starts) without it.
 * @param {number | null} basePort --port @param {number} index
 */
export function serverPort(basePort, index) {
  return basePort === null ? null : basePort + index;
}

/** A port --port pinned is taken: the run cannot start that server, and the user can fix it. */
export class PortInUseError extends UsageError {
  name = 'PortInUseError';
}

/**
 * A port nothing listens on now, as the system hands one out: the server takes it a moment later.
 * @returns {Promise<number>}
 */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Fail early and clearly: a server that cannot bind would otherwise die with a stack trace, or worse,
 * another process on the port would answer in its place and be measured.
 * @param {number} port @param {string} name
 */
function assertPortFree(port, name) {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => {
      const code = /** @type {NodeJS.ErrnoException} */ (error).code;
      reject(
        code === 'EADDRINUSE'
          ? new PortInUseError(
              `port ${port} (for ${name}) is already in use on ${HOST}; stop what listens there, or leave out --port to use free ports`,
            )
          : new Error(`cannot use port ${port} for ${name}: ${error.message}`),
      );
    });
    probe.listen(port, HOST, () => probe.close(() => resolve(undefined)));
  });
}

/** @param {string} url */
function answers(url) {
  return requestOnce(`${url}/`, { method: 'GET', headers: {}, body: undefined }, { timeoutMs: ANSWER_TIMEOUT_MS }).then(
    () => true,
    () => false,
  );
}

/** @param {number} ms */
function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
