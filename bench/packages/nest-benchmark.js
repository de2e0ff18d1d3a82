// @ts-check
// Nest's own benchmark (nestjs/nest benchmarks/run.sh, whose results are benchmarks/all_output.txt), reproduced on a
// cell: each server once, GET /, wrk with 8 threads and 1,024 connections for 10 s, Requests/sec as wrk prints it.
// Our servers stand in for theirs: the era app's hello route and the bare frameworks' (same response, same routes).
import { spawn } from 'node:child_process';
import { startTarget } from '../run/targets.js';

/** benchmarks/run.sh: `wrk 'http://localhost:3000' -d 10 -c 1024 -t 8` */
export const NEST_BENCHMARK_WRK = Object.freeze({ threads: 8, connections: 1024, durationSec: 10 });
/** The servers of all_output.txt, in its order, by our target names. */
const SERVERS = Object.freeze([
  ['express', 'raw-express'],
  ['fastify', 'raw-fastify'],
  ['nest', 'nest-express'],
  ['nest-fastify', 'nest-fastify'],
]);

/** @typedef {import('../model/package-sets-record.js').NestBenchmarkRow} NestBenchmarkRow */

/**
 * @typedef {{ server: string, target: import('../model/config.js').Target }} NestBenchmarkServer one server of
 *   all_output.txt, as all_output.txt names it, and the target of ours that stands in for it
 */

/**
 * The servers of Nest's benchmark a set's config holds, found by our names when the run is planned (bench-plan.js),
 * so that the benchmark itself looks up no name.
 * @param {import('../model/config.js').Config} config
 * @returns {NestBenchmarkServer[]}
 */
export function nestBenchmarkServers(config) {
  return SERVERS.flatMap(([server, name]) => {
    const target = config.targets.find((candidate) => candidate.name === name);
    return target ? [{ server, target }] : [];
  });
}

/**
 * @param {Pick<import('./cells.js').Cell, 'key' | 'runtime'> & { nestBenchmarkServers: NestBenchmarkServer[] }} cell
 * @param {{ cpus: { server: string, generator: string } | null, basePort: number | null, signal: AbortSignal,
 *   log: (line: string) => void }} context
 * @returns {Promise<NestBenchmarkRow[]>}
 */
export async function nestBenchmark(cell, { cpus, basePort, signal, log }) {
  /** @type {NestBenchmarkRow[]} */
  const rows = [];
  for (const { server, target } of cell.nestBenchmarkServers) {
    if (signal.aborted) continue;
    const row = { cell: cell.key, server, target: target.name };
    let running = null;
    try {
      running = await startTarget(target, { runtime: cell.runtime, port: basePort, cpu: cpus?.server ?? null });
      const { rps, socketErrors } = await runWrk(`${running.url}/`, cpus?.generator ?? null);
      rows.push({ ...row, rps, socketErrors, failure: null });
      log(`${cell.key}: Nest's benchmark, ${server}: ${rps === null ? 'no Requests/sec' : `${Math.round(rps)} req/s`}`);
    } catch (error) {
      rows.push({ ...row, rps: null, socketErrors: null, failure: /** @type {Error} */ (error).message });
    } finally {
      await running?.stop();
    }
  }
  return rows;
}

/**
 * @param {string} url
 * @param {string | null} cpu taskset CPU list for wrk
 * @returns {Promise<{ rps: number | null, socketErrors: string | null }>}
 */
function runWrk(url, cpu) {
  const { threads, connections, durationSec } = NEST_BENCHMARK_WRK;
  const wrk = ['wrk', url, '-d', String(durationSec), '-c', String(connections), '-t', String(threads)];
  const [command, ...args] = cpu ? ['taskset', '-c', cpu, ...wrk] : wrk;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited with code ${code}: ${stderr.trim().split('\n')[0]}`));
      resolve(parseWrkSummary(stdout));
    });
  });
}

/**
 * The two lines of wrk's plain summary that all_output.txt is read by.
 * @param {string} stdout
 */
export function parseWrkSummary(stdout) {
  const rps = /^Requests\/sec:\s+([\d.]+)/m.exec(stdout)?.[1];
  const socketErrors = /^\s*Socket errors: (.+)$/m.exec(stdout)?.[1] ?? null;
  return { rps: rps === undefined ? null : Number(rps), socketErrors };
}
