// @ts-check
// wrk, spawned per run: the cheapest generator per request here, so the one least likely to be the bottleneck.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { lastLine, requireBinary, runGenerator, wholeSeconds } from './generator-process.js';
import { parseWrkOutput } from './wrk-output.js';

/** @typedef {import('./registry.js').Driver} Driver */

const SCRIPT = fileURLToPath(new URL('./wrk.lua', import.meta.url));
/** One thread: the generator should use one CPU, the server the other. */
const THREADS = 1;

/** @type {Driver} */
const driver = {
  name: 'wrk',
  async checkAvailable() {
    requireBinary('wrk', 'wrk');
  },
  async version() {
    // wrk -v prints its banner and exits with status 1
    const { stdout } = await promisify(execFile)('wrk', ['-v']).catch((error) => error);
    // "wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012 Will Glozer": keep name and version
    return /^wrk \S+/.exec(String(stdout))?.[0] ?? 'wrk (version unknown)';
  },
  async run({ url, method, headers, body, connections, durationSec, expectedStatus, pipelining, cpu, signal }) {
    const args = [
      '-t',
      String(THREADS),
      '-c',
      String(connections),
      '-d',
      `${wholeSeconds(durationSec)}s`,
      '-s',
      SCRIPT,
    ];
    for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
    args.push(url);
    const env = {
      BENCH_METHOD: method,
      BENCH_PIPELINING: String(pipelining),
      ...(body === undefined ? {} : { BENCH_BODY: body }),
    };
    const output = await runGenerator('wrk', args, { durationSec, cpu, env, signal });
    if (output.code !== 0 && !output.interrupted) {
      throw new Error(`wrk exited with code ${output.code}: ${lastLine(output.stderr || output.stdout)}`);
    }
    return { ...parseWrkOutput(output.stdout, expectedStatus), generatorCpuSec: output.cpuSec, warnings: [] };
  },
};

export default driver;
