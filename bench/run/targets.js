// @ts-check
// The servers under test and how to start one: a child process that is ready once it answers HTTP.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { killOnExit } from './children.js';

/** @typedef {import('../runtimes/runtimes.js').Runtime} Runtime */

/**
 * @typedef {object} Target
 * @property {string} name
 * @property {'nest' | 'raw' | 'node'} group targets of one group run back to back in every round (the adapter pairs)
 * @property {'express' | 'fastify' | 'node'} adapter
 * @property {string} entry file started by the runtime, relative to the project root
 * @property {string[] | null} scenarios the scenarios it has routes for; null = all
 */

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const HOST = '127.0.0.1';
const RAW_SCENARIOS = ['hello', 'json'];

/** @type {readonly Target[]} */
export const TARGETS = Object.freeze([
  { name: 'nest-express', group: 'nest', adapter: 'express', entry: 'dist/main.js', scenarios: null },
  { name: 'nest-fastify', group: 'nest', adapter: 'fastify', entry: 'dist/main.fastify.js', scenarios: null },
  {
    name: 'raw-node',
    group: 'node',
    adapter: 'node',
    entry: 'bench/run/servers/raw-node.js',
    scenarios: RAW_SCENARIOS,
  },
  {
    name: 'raw-express',
    group: 'raw',
    adapter: 'express',
    entry: 'bench/run/servers/raw-express.js',
    scenarios: RAW_SCENARIOS,
  },
  {
    name: 'raw-fastify',
    group: 'raw',
    adapter: 'fastify',
    entry: 'bench/run/servers/raw-fastify.js',
    scenarios: RAW_SCENARIOS,
  },
]);

export const TARGET_NAMES = TARGETS.map((t) => t.name);

/** @param {string} name */
export function targetByName(name) {
  const target = TARGETS.find((t) => t.name === name);
  if (!target) throw new Error(`unknown target "${name}"`);
  return target;
}

/** @param {Target} target @param {string} scenario */
export function targetHasScenario(target, scenario) {
  return target.scenarios === null || target.scenarios.includes(scenario);
}

const READY_TIMEOUT_MS = 30_000;
const READY_POLL_MS = 50;
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
 * @property {() => Promise<ExitInfo>} stop SIGTERM, then SIGKILL after a grace period
 * @property {Promise<ExitInfo>} exited settles when the process ends, for whatever reason
 * @property {() => ExitInfo | null} exitInfo how it ended, or null while it runs
 * @property {() => string} stderrTail the last few KB of its stderr
 *
 * @typedef {object} StartOptions
 * @property {Runtime} runtime
 * @property {number} port
 * @property {Record<string, string>} [env] added to the environment (JWT_SECRET, ...)
 * @property {string[]} [execArgv] runtime flags placed before the entry file (e.g. --prof)
 * @property {string | null} [cpu] taskset CPU list to pin the server to
 */

/**
 * Start a target as a child process and resolve once it answers HTTP on its port.
 * @param {Target} target
 * @param {StartOptions} options
 * @returns {Promise<RunningTarget>}
 */
export async function startTarget(target, { runtime, port, env = {}, execArgv = [], cpu = null }) {
  await assertPortFree(port, target.name);
  /** @type {NodeJS.ProcessEnv} */
  const childEnv = { ...process.env, NODE_ENV: 'production', HOST, PORT: String(port), ...env };
  delete childEnv.LOG_LEVEL; // the app logs per request when asked to: never while measuring
  const argv = [...runtime.args, ...execArgv, target.entry];
  const [command, args] = cpu ? ['taskset', ['-c', cpu, runtime.command, ...argv]] : [runtime.command, argv];
  // detached: a Ctrl-C in the terminal reaches the bench alone, which then stops each child in order
  const child = spawn(command, args, {
    cwd: PROJECT_ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  killOnExit(child);

  let stderr = '';
  let stdout = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-TAIL_CHARS);
  });
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    if (stdout.length < TAIL_CHARS) stdout += chunk;
  });

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
  const url = `http://${HOST}:${port}`;

  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await answers(url))) {
    if (exitInfo)
      throw new Error(
        `${target.name} exited (${describeExit(exitInfo)}) before answering on port ${port}: ${errorLine(stderr)}`,
      );
    if (Date.now() > deadline) {
      await stopChild();
      throw new Error(
        `${target.name} did not answer on ${url} within ${READY_TIMEOUT_MS / 1000} s: ${errorLine(stderr)}`,
      );
    }
    await delay(READY_POLL_MS);
  }

  async function stopChild() {
    if (exitInfo) return exitInfo;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    const info = await exited;
    clearTimeout(timer);
    return info;
  }

  return {
    pid: /** @type {number} */ (child.pid),
    url,
    startupLine: stdout.split('\n')[0].trim(),
    stop: stopChild,
    exited,
    exitInfo: () => exitInfo,
    stderrTail: () => stderr,
  };
}

/** @param {ExitInfo} info */
export function describeExit(info) {
  return info.signal ? `signal ${info.signal}` : `exit code ${info.code}`;
}

/**
 * The line of a stderr tail that says what went wrong: for an uncaught exception that is the "...Error: ..." line,
 * not node's closing "Node.js v20.x" or the stack frames below it.
 * @param {string} text
 */
export function errorLine(text) {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^Node\.js v\d/.test(l) && !l.startsWith('at '));
  const error = lines.findLast((l) => /^(\w*Error|\[\w*Error)\b/.test(l));
  return error ?? lines[lines.length - 1] ?? '(no stderr output)';
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
        new Error(
          code === 'EADDRINUSE'
            ? `port ${port} (for ${name}) is already in use on ${HOST}; stop what is listening there or choose other ports with --port`
            : `cannot use port ${port} for ${name}: ${error.message}`,
        ),
      );
    });
    probe.listen(port, HOST, () => probe.close(() => resolve(undefined)));
  });
}

/** @param {string} url */
function answers(url) {
  return new Promise((resolve) => {
    const req = request(`${url}/`, { agent: false, timeout: 1_000 }, (res) => {
      res.resume();
      res.once('end', () => resolve(true));
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(false));
    req.end();
  });
}

/** @param {number} ms */
function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
