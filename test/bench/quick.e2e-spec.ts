import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUICK } from '../../bench/run/options.js';
import { SCENARIO_SETS } from '../../bench/model/beyond.js';
import { SCENARIO_NAMES } from '../../bench/model/scenarios.js';
import { CLI, REPORT_CLI, runNode } from './support/run-node.js';
import { readResults } from '../../bench/model/results.js';

const RUN_TIMEOUT_MS = 180_000;
// the beyond profiles run only when named
const BARE_SCENARIOS = SCENARIO_NAMES.filter((name) => !SCENARIO_SETS.beyond.includes(name));
const ALL_PAIRS = 2 * BARE_SCENARIOS.length + 4 * 2; // Nest targets on every scenario, raw targets on hello and json

describe('npm run bench -- --quick --stack bare, end to end', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-quick-'));
    process.env.GITHUB_STEP_SUMMARY = join(dir, 'step-summary.md');
    try {
      run = await runNode([CLI, '--runtime', 'node', '--quick', '--stack', 'bare', '--out', dir]);
    } finally {
      delete process.env.GITHUB_STEP_SUMMARY;
    }
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0 and prints the verdict table', () => {
    expect(run.stderr).not.toMatch(/could not start|skipped|failed/);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('### Verdict: is Nest on Fastify "almost two times" faster than on Express?');
    expect(run.stdout).toMatch(/\| node@[\d.]+ \([^)]+\) \| hello \| [\d.]+× \|/);
  });

  it('without --port, starts each server on a port of its own', () => {
    const { started } = readResults(dir);
    expect(started.length).toBeGreaterThan(1);
    expect(new Set(started.map((s) => s.port)).size).toBe(started.length);
    for (const { port } of started) expect(port).toBeGreaterThan(0);
  });

  it('appends the verdict to $GITHUB_STEP_SUMMARY, naming the whole report', () => {
    const summary = readFileSync(join(dir, 'step-summary.md'), 'utf8');
    expect(summary).toMatch(/\| node@[\d.]+ \([^)]+\) \| hello \| [\d.]+× \|/);
    expect(summary).toContain(`The whole report: ${join(dir, 'report.md')}`);
  });

  it('writes a complete results.json: every pair verified, every run recorded with its measurements', () => {
    const results = readResults(dir);
    expect(results.complete).toBe(true);
    expect(results.verification).toHaveLength(ALL_PAIRS);
    expect(results.verification.filter((v) => !v.ok)).toEqual([]);
    expect(results.runs).toHaveLength(ALL_PAIRS * QUICK.rounds);
    for (const record of results.runs) {
      expect(record).toMatchObject({ runtime: `node@${process.versions.node}`, status: 'ok' });
      expect(record.load!.requests).toBeGreaterThan(0);
      expect(record.server!.cpuUsPerRequest).toBeGreaterThan(0);
      expect(record.server!.peakRssMiB).toBeGreaterThan(0);
      expect(record.generator!.cpuShare).toBeGreaterThanOrEqual(0);
      expect(record.state!.heapBefore!.youngMiB).toBeGreaterThan(0);
      expect(record.state!.during.pauses).toBeTypeOf('object');
      expect(record.state!.eventLoopDelay!.p99Ms).toBeGreaterThanOrEqual(record.state!.eventLoopDelay!.p50Ms);
      expect(record.host!.stealShare).toBeGreaterThanOrEqual(0);
    }
    expect(results.environment.host!.cpu.vendor).toBeTruthy();
    expect(results.started.every((s) => s.runtimeFlags!.includes('--no-memory-reducer'))).toBe(true);
    expect(results.warmUps!.length).toBe(ALL_PAIRS);
    expect(results.environment.runtimes[0].version).toBe(process.versions.node);
    expect(results.environment.packages.express).toMatch(/^5\./);
    expect(results.environment.packages.fastify).toMatch(/^5\./);
    expect(results.plan.driver).toBe(results.options.driver);
    expect(results.headerDifferences.some((d) => d.header === 'x-powered-by')).toBe(true);
  });

  it('writes report.md and a self-contained report.html', () => {
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    for (const scenario of BARE_SCENARIOS) {
      expect(markdown).toMatch(new RegExp(`\\| ${scenario} \\| [\\d.]+× \\|`));
    }
    expect(markdown).toMatch(/\| young gen \| scavenges\/run \| GC time \| major GCs \| loop p99 \|/);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('<svg ');
    expect(html).toContain('Round by round');
    expect(html).not.toMatch(/<script|(src|href)="https?:/i);
  });

  it('npm run report -- DIR rebuilds both reports from results.json alone, identically', async () => {
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    rmSync(join(dir, 'report.md'));
    rmSync(join(dir, 'report.html'));
    const rebuild = await runNode([REPORT_CLI, dir]);
    expect(rebuild.status).toBe(0);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toBe(markdown);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toBe(html);
  });
});

describe.each(['autocannon', 'wrk', 'ab'])('--driver %s', (driver) => {
  it('measures a raw target and records which driver ran', async () => {
    const dir = mkdtempSync(join(tmpdir(), `bench-${driver}-`));
    try {
      const run = await runNode([
        CLI,
        '--runtime',
        'node',
        '--quick',
        '--driver',
        driver,
        '--targets',
        'raw-node,raw-fastify',
        '--scenarios',
        'json',
        '--out',
        dir,
      ]);
      expect(run.status).toBe(0);
      const results = readResults(dir);
      expect(results.plan.driver).toBe(driver);
      expect(results.environment.driver).toMatch(new RegExp(`^${driver} `));
      expect(results.runs).toHaveLength(2 * QUICK.rounds);
      expect(
        results.runs.every((r) => r.status === 'ok' && r.load!.requests > 0 && r.load!.unexpectedStatus === 0),
      ).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('npm run report on bad input', () => {
  it('exits 2 with one line when the directory has no results.json', async () => {
    const run = await runNode([REPORT_CLI, tmpdir()]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('results.json not found');
  });
});
