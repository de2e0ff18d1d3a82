// @ts-check
// h2load (nghttp2-client), spawned per run, for the targets that speak HTTP/2 (h2: over TLS, h2c: cleartext): wrk and
// autocannon speak HTTP/1.1 only. It logs every request (status, time) to a file, read here for the counts and
// percentiles, and prints the protocol it negotiated, which must be the one asked for.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastLine, refusePacing, requireBinary, runGenerator, wholeSeconds } from './generator-process.js';
import { countOf } from './statuses.js';

/** @typedef {import('./registry.js').Driver} Driver */
/** @typedef {import('./registry.js').LoadResult} LoadResult */

const MICROS_PER_MS = 1e3;
/** h2load has been seen to hang after its duration while stopping its clients: it is stopped this much later. */
const STOP_GRACE_MS = 10_000;

/**
 * h2load's summary and its per-request log as a LoadResult, refusing a run that spoke another protocol.
 * @param {string} stdout @param {string} log lines of "start µs, status, duration µs"
 * @param {{ expectedStatus: number, protocol: string }} expected
 * @returns {Omit<LoadResult, 'generatorCpuSec' | 'warnings'> & { protocol: string }}
 */
export function parseH2loadOutput(stdout, log, { expectedStatus, protocol }) {
  const spoken = /Application protocol: (\S+)/.exec(stdout)?.[1] ?? 'none';
  if (spoken !== protocol) throw new Error(`h2load spoke ${spoken} where ${protocol} was asked`);
  const durationSec = Number(/finished in ([\d.]+)s/.exec(stdout)?.[1] ?? NaN);
  const requests =
    /requests: (\d+) total, \d+ started, (\d+) done, \d+ succeeded, (\d+) failed, (\d+) errored, (\d+) timeout/.exec(
      stdout,
    );
  if (!requests || !Number.isFinite(durationSec)) throw new Error(`h2load printed no summary: ${lastLine(stdout)}`);
  /** @type {Record<string, number>} */
  const statusCounts = {};
  /** @type {number[]} */
  const durations = [];
  for (const line of log.split('\n')) {
    const [, status, micros] = line.trim().split(/\s+/);
    if (micros === undefined) continue;
    statusCounts[status] = (statusCounts[status] ?? 0) + 1;
    durations.push(Number(micros) / MICROS_PER_MS);
  }
  durations.sort((a, b) => a - b);
  const at = (/** @type {number} */ share) =>
    durations[Math.min(durations.length - 1, Math.floor(share * durations.length))] ?? 0;
  const done = durations.length;
  const expected = countOf(statusCounts, expectedStatus);
  return {
    requests: done,
    statusCounts,
    durationSec,
    rps: durationSec > 0 ? expected / durationSec : 0,
    latencyMs: {
      p50: at(0.5),
      p90: at(0.9),
      p99: at(0.99),
      p999: at(0.999),
      mean: done ? durations.reduce((sum, ms) => sum + ms, 0) / done : 0,
      max: durations[done - 1] ?? 0,
    },
    errors: Number(requests[4]),
    timeouts: Number(requests[5]),
    unexpectedStatus: done - expected,
    protocol: spoken,
  };
}

/** @type {Driver} */
const driver = {
  name: 'h2load',
  sendsMixes: false,
  async checkAvailable() {
    requireBinary('h2load', 'nghttp2-client');
  },
  async version() {
    const { stdout } = await runGenerator('h2load', ['--version'], { durationSec: 1 });
    return /h2load nghttp2\/\S+/.exec(stdout)?.[0] ?? 'h2load (version unknown)';
  },
  async run(request) {
    refusePacing('h2load', request);
    const { url, method, headers, body, connections, durationSec, expectedStatus, pipelining, cpu, signal } = request;
    if (method !== 'GET' || body !== undefined) throw new Error('the h2load driver sends GET requests without a body');
    requireBinary('h2load', 'nghttp2-client');
    const target = new URL(url);
    const protocol = target.protocol === 'h2:' ? 'h2' : 'h2c';
    const httpUrl = `${protocol === 'h2' ? 'https' : 'http'}://${target.host}${target.pathname}${target.search}`;
    const dir = await mkdtemp(join(tmpdir(), 'bench-h2load-'));
    try {
      const logFile = join(dir, 'requests.log');
      // h2load takes whole seconds and prints nothing when interrupted: a fractional run lasts the next whole second
      const seconds = wholeSeconds(durationSec);
      const args = ['-t', '1', '-c', String(connections), '-m', String(pipelining), '-D', String(seconds)];
      args.push('--log-file', logFile);
      for (const [name, value] of Object.entries(headers))
        if (name !== 'connection') args.push('-H', `${name}: ${value}`);
      args.push(httpUrl);
      const deadline = AbortSignal.timeout(seconds * 1000 + STOP_GRACE_MS);
      const stop = signal ? AbortSignal.any([signal, deadline]) : deadline;
      const output = await runGenerator('h2load', args, { durationSec: seconds, cpu, signal: stop });
      if (output.code !== 0 && !output.interrupted)
        throw new Error(`h2load exited with code ${output.code}: ${lastLine(output.stderr || output.stdout)}`);
      if (deadline.aborted) throw new Error(`h2load did not stop within ${STOP_GRACE_MS / 1000} s of its duration`);
      const log = await readFile(logFile, 'utf8').catch(() => '');
      return {
        ...parseH2loadOutput(output.stdout, log, { expectedStatus, protocol }),
        generatorCpuSec: output.cpuSec,
        warnings: [],
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};

export default driver;
