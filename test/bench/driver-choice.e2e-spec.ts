import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { CLI, ROOT, type Finished } from './support/run-node.js';

/** Run the CLI with a PATH that has node and sh but no load generator binaries, like a fresh machine. */
function runWithoutGenerators(args: string[]): Promise<Finished> {
  const bin = mkdtempSync(join(tmpdir(), 'bench-path-'));
  symlinkSync(process.execPath, join(bin, 'node'));
  symlinkSync('/bin/sh', join(bin, 'sh'));
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, PATH: bin }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => { stdout += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk; });
  return new Promise((resolve) => child.once('close', (status, signal) => {
    rmSync(bin, { recursive: true, force: true });
    resolve({ status, signal, stdout, stderr });
  }));
}

describe('choosing the load generator', () => {
  it('falls back to autocannon with a one-line notice when wrk is not installed, and records it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-fallback-'));
    try {
      const run = await runWithoutGenerators(['--quick', '--targets', 'raw-node', '--scenarios', 'hello', '--out', dir, '--port', '3190']);
      expect(run.status).toBe(0);
      expect(run.stderr).toContain('note: wrk is not installed; install it with: apt-get install wrk; using autocannon instead');
      const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
      expect(results.plan.driver).toBe('autocannon');
      expect(results.runs.every((r: any) => r.status === 'ok')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it.each([
    ['wrk', 'apt-get install wrk'],
    ['ab', 'apt-get install apache2-utils'],
  ])('refuses --driver %s when it is missing: one line naming the package, exit 2', async (driver, install) => {
    const run = await runWithoutGenerators(['--quick', '--driver', driver]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`--driver ${driver}: ${driver} is not installed; install it with: ${install}\n`);
  });
});
