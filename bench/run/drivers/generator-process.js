// @ts-check
// Runs a load generator binary (wrk, ab) for one run and measures the CPU it used.
import { spawn, spawnSync } from 'node:child_process';
import { reapedChildrenCpuSec } from '../procstat.js';
import { UsageError } from '../../errors.js';
import { killOnExit } from '../children.js';

/**
 * @typedef {object} GeneratorOutput
 * @property {string} stdout
 * @property {string} stderr
 * @property {number | null} code
 * @property {boolean} interrupted stopped by SIGINT (short run or abort); wrk and ab then still print their results
 * @property {number} cpuSec
 */

/**
 * Throw a UsageError with the install command when `binary` is not on PATH.
 * @param {string} binary @param {string} debianPackage
 */
export function requireBinary(binary, debianPackage) {
  const found = spawnSync('sh', ['-c', `command -v ${binary}`], { encoding: 'utf8' });
  if (found.status !== 0) {
    throw new UsageError(`${binary} is not installed; install it with: apt-get install ${debianPackage}`);
  }
}

/**
 * Both wrk and ab take whole seconds only; a fractional duration is honoured by asking for the next whole second
 * and interrupting at the exact time, which both handle by printing what they measured so far.
 * @param {number} durationSec
 */
export function wholeSeconds(durationSec) {
  return Math.max(1, Math.ceil(durationSec));
}

/**
 * @param {string} binary
 * @param {string[]} args
 * @param {{ durationSec: number, cpu?: string | null, env?: Record<string, string>, signal?: AbortSignal }} options
 * @returns {Promise<GeneratorOutput>}
 */
export function runGenerator(binary, args, { durationSec, cpu = null, env = {}, signal }) {
  const [command, argv] = cpu ? ['taskset', ['-c', cpu, binary, ...args]] : [binary, args];
  const cpuBefore = reapedChildrenCpuSec();
  // detached: a Ctrl-C reaches the bench alone, which interrupts the generator itself
  const child = spawn(command, argv, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  killOnExit(child);
  let stdout = '';
  let stderr = '';
  let interrupted = false;
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr += chunk;
  });
  const interrupt = () => {
    interrupted = true;
    child.kill('SIGINT');
  };
  const timer = durationSec < wholeSeconds(durationSec) ? setTimeout(interrupt, durationSec * 1000) : null;
  signal?.addEventListener('abort', interrupt, { once: true });

  return new Promise((resolve, reject) => {
    child.once('error', reject);
    // 'close' comes after 'exit' (the child has been reaped, so its CPU time is in our cutime) and after stdio ended.
    child.once('close', (code) => {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', interrupt);
      resolve({ stdout, stderr, code, interrupted, cpuSec: reapedChildrenCpuSec() - cpuBefore });
    });
  });
}

/**
 * Throw for a profile that closes connections after some requests or paces them, which `generator` cannot do.
 * @param {string} generator @param {import('./registry.js').LoadRequest} request
 */
export function refusePacing(generator, { requestsPerConnection, connectionRate }) {
  if (requestsPerConnection || connectionRate)
    throw new Error(
      `${generator} neither paces requests nor closes connections after some; use --driver wrk or autocannon`,
    );
}

/** @param {string} text */
export function lastLine(text) {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1].trim();
}
