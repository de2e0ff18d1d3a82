import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUICK } from '../../bench/run/options.js';
import { DEFAULT_CACHE_DIR } from '../../bench/runtimes/install.js';
import { CLI, runNode } from './support/run-node.js';
import { readResults, type Results } from '../../bench/model/results.js';

/** First run on a fresh clone installs node@24 and bun (about 15 s here), then three quick runtimes. */
const RUN_TIMEOUT_MS = 300_000;
const TARGETS = ['nest-express', 'nest-fastify', 'raw-express', 'raw-fastify', 'raw-hono'];
const SCENARIOS = ['hello', 'json'];
/** Inside the runtimes helper's port range, clear of MariaDB's 3306. */
const BASE_PORT = '3360';

describe('npm run bench -- --runtime node,node@24,bun --quick, end to end', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;
  let results: Results;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-runtimes-'));
    run = await runNode([
      CLI,
      '--stack',
      'bare',
      '--quick',
      '--runtime',
      'node,node@24,bun',
      '--targets',
      TARGETS.join(','),
      '--scenarios',
      SCENARIOS.join(','),
      '--out',
      dir,
      '--port',
      BASE_PORT,
    ]);
    results = readResults(dir);
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0 and writes the verdict matrix with a column per runtime', () => {
    expect(run.stderr).not.toMatch(/could not start|skipped|failed/);
    expect(run.status).toBe(0);
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(markdown).toContain('### Verdict per runtime: Nest-Fastify ÷ Nest-Express');
    expect(markdown).toMatch(
      new RegExp(
        `\\| scenario \\| node@${process.versions.node} \\([^)|]+\\) \\| node@24\\.\\d+\\.\\d+ \\([^)|]+\\) \\| bun@\\d+\\.\\d+\\.\\d+ \\(no LTS schedule\\) \\|`,
      ),
    );
  });

  it('records each runtime with its spec and the exact version its binary reports', () => {
    const runtimes = results.environment.runtimes;
    expect(runtimes.map((r) => [r.spec, r.name])).toEqual([
      ['node', 'node'],
      ['node@24', 'node'],
      ['bun', 'bun'],
    ]);
    expect(runtimes[0]).toMatchObject({ version: process.versions.node, command: process.execPath });
    for (const runtime of runtimes) {
      expect(execFileSync(runtime.command, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '')).toBe(
        runtime.version,
      );
    }
    expect(runtimes[1].command.startsWith(DEFAULT_CACHE_DIR)).toBe(true);
    expect(runtimes[2].command.startsWith(DEFAULT_CACHE_DIR)).toBe(true);
    expect(results.plan.runtimes).toEqual(runtimes.map((r) => `${r.name}@${r.version}`));
  });

  it('runs every target × scenario in every round on every runtime, each record naming its runtime', () => {
    expect(results.complete).toBe(true);
    for (const runtime of results.plan.runtimes) {
      const own = results.runs.filter((r) => r.runtime === runtime);
      expect(own).toHaveLength(TARGETS.length * SCENARIOS.length * QUICK.rounds);
      expect(own.every((r) => r.status === 'ok' && r.load!.requests > 0)).toBe(true);
      expect(new Set(own.map((r) => `${r.target} ${r.scenario}`)).size).toBe(TARGETS.length * SCENARIOS.length);
    }
    expect(results.runs).toHaveLength(3 * TARGETS.length * SCENARIOS.length * QUICK.rounds);
  });

  it('writes the matrix into report.md and a row of the answer per scenario and runtime into report.html', () => {
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    // a cell's note mark ([1]) points to the reasons under the matrix
    const verdictCell = '[\\d.]+× \\([^)]*\\) \\*\\*(holds|understated|does not hold|inconclusive)\\*\\*( \\[\\d+\\])?';
    for (const scenario of SCENARIOS) {
      expect(markdown).toMatch(
        new RegExp(`\\| ${scenario} \\| ${verdictCell} \\| ${verdictCell} \\| ${verdictCell} \\|`),
      );
      expect(markdown).toMatch(new RegExp(`\\| ${scenario} (\\| Express \\d+ % · Fastify \\d+ % ){3}\\|`));
    }
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    for (const scenario of SCENARIOS) {
      for (const runtime of results.plan.runtimes) expect(html).toContain(`<title>${runtime} · ${scenario}: `);
    }
  });
});

describe('--runtime on bad input', () => {
  it('exits 2 with one line for a runtime the registry does not have, installing nothing', async () => {
    const run = await runNode([CLI, '--quick', '--runtime', 'node@99', '--port', BASE_PORT]);
    expect(run.status).toBe(2);
    expect(
      run.stderr
        .trim()
        .split('\n')
        .filter((line) => !line.startsWith('runtimes: installing')),
    ).toEqual([expect.stringMatching(/^--runtime: node@99: no node release matches 99 in the npm registry/)]);
    expect(readdirSync(DEFAULT_CACHE_DIR).filter((name) => name.startsWith('node-99'))).toEqual([]);
  }, 60_000);

  it('exits 2 with one line for a runtime that is not one', async () => {
    const run = await runNode([CLI, '--quick', '--runtime', 'node@20,dino', '--port', BASE_PORT]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toMatch(/^--runtime: "dino" is not a runtime; use node .*deno@<major>/);
  });

  it('refuses ab with Bun in one line before installing or starting anything', async () => {
    const run = await runNode([CLI, '--quick', '--driver', 'ab', '--runtime', 'node,bun@0.1', '--port', BASE_PORT]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toMatch(
      /^--driver ab cannot measure bun@0\.1: Bun closes HTTP\/1\.0 keep-alive connections/,
    );
    expect(existsSync(join(DEFAULT_CACHE_DIR, 'bun-0.1'))).toBe(false);
  });
});
