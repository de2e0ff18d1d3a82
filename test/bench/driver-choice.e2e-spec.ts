import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { CLI, ROOT, runNode, type Finished } from './support/run-node.js';
import { readResults } from '../../bench/model/results.js';
import { analyze } from '../../bench/analysis/analyze.js';

/** Run the CLI with a PATH that has node and sh but no load generator binaries and no taskset, like a bare machine. */
function runWithoutGenerators(args: string[]): Promise<Finished> {
  const bin = mkdtempSync(join(tmpdir(), 'bench-path-'));
  symlinkSync(process.execPath, join(bin, 'node'));
  symlinkSync('/bin/sh', join(bin, 'sh'));
  const child = spawn(process.execPath, [CLI, '--runtime', 'node', ...args], {
    cwd: ROOT,
    env: { ...process.env, PATH: bin },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) =>
    child.once('close', (status, signal) => {
      rmSync(bin, { recursive: true, force: true });
      resolve({ status, signal, stdout, stderr });
    }),
  );
}

describe('choosing the load generator and the pinning', () => {
  it('falls back to autocannon and to no pinning with a one-line notice each when wrk and taskset are missing, and records both', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-fallback-'));
    try {
      const run = await runWithoutGenerators([
        '--quick',
        '--targets',
        'raw-node',
        '--scenarios',
        'hello',
        '--out',
        dir,
        '--port',
        '3190',
      ]);
      expect(run.status).toBe(0);
      expect(run.stderr).toContain(
        'note: wrk is not installed; install it with: apt-get install wrk; using autocannon instead',
      );
      expect(run.stderr).toContain('note: taskset is not installed (apt-get install util-linux); running unpinned');
      const results = readResults(dir);
      expect(results.plan.driver).toBe('autocannon');
      expect(results.environment.cpus).toBeNull();
      expect(results.runs.every((r) => r.status === 'ok')).toBe(true);
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

  it('refuses an explicit --pin without taskset: one line naming the package, exit 2', async () => {
    const run = await runWithoutGenerators([
      '--quick',
      '--driver',
      'autocannon',
      '--targets',
      'raw-node',
      '--scenarios',
      'hello',
      '--pin',
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /^pinning: could not pin the bench to CPU \d+: taskset is not installed \(apt-get install util-linux\); or run with --no-pin\n$/,
    );
  });
});

describe('--driver artillery', () => {
  const GATE_CONFIG = join(ROOT, 'test', 'bench', 'fixtures', 'regression-gate', 'gate.config.mjs');

  it('measures a pair end to end with a ratio, and keeps each block’s script with the command that spreads it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-artillery-'));
    try {
      const run = await runNode([
        CLI,
        '--runtime',
        'node',
        '--config',
        GATE_CONFIG,
        '--driver',
        'artillery',
        '--rounds',
        '3',
        '--duration',
        '1',
        '--warmup',
        '0.5',
        '--out',
        dir,
      ]);
      expect(run.status, run.stderr).toBe(0);
      const results = readResults(dir);
      expect(results.plan.driver).toBe('artillery');
      expect(results.environment.driver).toMatch(/^artillery 2\.0\.\d+$/);
      const [ratio] = analyze(results).ratios;
      expect([ratio.numerator, ratio.denominator, ratio.byRound.length]).toEqual(['candidate', 'base', 3]);
      expect(ratio.summary.median).toBeGreaterThan(0.5);
      expect(readdirSync(join(dir, 'artillery')).sort()).toEqual([
        'artillery-processor.mjs',
        'commands.txt',
        'hello-base.json',
        'hello-candidate.json',
      ]);
      const script = JSON.parse(readFileSync(join(dir, 'artillery', 'hello-base.json'), 'utf8'));
      expect(script.scenarios[0].flow[0].loop[0].get.url).toBe('/');
      expect(readFileSync(join(dir, 'artillery', 'commands.txt'), 'utf8')).toContain(
        'npx artillery run-fargate --region us-east-1 --count 10 --target https://your-app.example.com hello-candidate.json',
      );
      expect(existsSync(join(dir, 'report.md'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
