// @ts-check
// ApacheBench, spawned per run. It speaks HTTP/1.0: keep-alive (-k) only works when responses carry Content-Length,
// so a run where connections were not kept alive gets a warning (from the parser) instead of passing as a fair number.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { lastLine, refusePacing, requireBinary, runGenerator, wholeSeconds } from './generator-process.js';
import { parseAbOutput } from './ab-output.js';
import { hasUniqueValues } from '../unique-values.js';
import { bodyBytes } from '../../model/payloads.js';

/** @typedef {import('./registry.js').Driver} Driver */

/**
 * ab stops at -n requests even with -t and keeps one record per request, so -n is sized for the duration at a rate
 * no server here reaches: large enough never to end a run early, small enough to allocate.
 */
const MAX_EXPECTED_RPS = 200_000;

/** @type {Driver} */
const driver = {
  name: 'ab',
  sendsMixes: false,
  async checkAvailable() {
    requireBinary('ab', 'apache2-utils');
  },
  async version() {
    const { stdout } = await promisify(execFile)('ab', ['-V']);
    // "This is ApacheBench, Version 2.3 <$Revision$>"
    return `ab ${/Version (\S+)/.exec(stdout)?.[1] ?? '(version unknown)'}`;
  },
  async run(request) {
    refusePacing('ab', request);
    const { url, method, headers, body, connections, durationSec, pipelining, cpu, signal } = request;
    if (pipelining > 1) throw new Error('ab cannot pipeline requests; use --driver wrk or autocannon');
    if (hasUniqueValues(body))
      throw new Error(
        'ab sends one body for every request, and this one needs unique values; use --driver wrk or autocannon',
      );
    const dir = await mkdtemp(join(tmpdir(), 'bench-ab-'));
    try {
      const csvFile = join(dir, 'percentiles.csv');
      const seconds = wholeSeconds(durationSec);
      // -t must come before -n: ab resets the request count when it reads -t
      const args = [
        '-q',
        '-k',
        '-c',
        String(connections),
        '-t',
        String(seconds),
        '-n',
        String(seconds * MAX_EXPECTED_RPS),
        '-e',
        csvFile,
      ];
      const { 'content-type': contentType, ...otherHeaders } = lowerCaseKeys(headers);
      if (method === 'POST') {
        const bodyFile = join(dir, 'body');
        await writeFile(bodyFile, bodyBytes(body ?? '', headers));
        args.push('-p', bodyFile, '-T', contentType ?? 'application/octet-stream');
      } else if (method !== 'GET') {
        throw new Error(`the ab driver sends GET and POST only, not ${method}`);
      }
      for (const [name, value] of Object.entries(otherHeaders)) args.push('-H', `${name}: ${value}`);
      args.push(url);
      const output = await runGenerator('ab', args, { durationSec, cpu, signal });
      if (output.code !== 0 && !output.interrupted) {
        throw new Error(`ab exited with code ${output.code}: ${lastLine(output.stderr || output.stdout)}`);
      }
      return { ...parseAbOutput(output.stdout, await readFile(csvFile, 'utf8')), generatorCpuSec: output.cpuSec };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};

/** @param {Record<string, string>} headers */
function lowerCaseKeys(headers) {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

export default driver;
