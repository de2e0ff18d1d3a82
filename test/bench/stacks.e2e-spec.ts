import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUICK } from '../../bench/run/options.js';
import { CLI, REPORT_CLI, runNode } from './support/run-node.js';
import { readResults, type Results } from '../../bench/model/results.js';

const RUN_TIMEOUT_MS = 180_000;
/** Longer than --quick's runs: a server stalling for a moment on a busy machine leaves a 0.25 s run with no response. */
const DURATION_SEC = '1';
const SCENARIOS = ['hello', 'catalog', 'purchases', 'mix'];
const NEST = ['nest-express', 'nest-fastify'];

describe('npm run bench -- --quick --stack production, end to end', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;
  let results: Results;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-production-'));
    run = await runNode([
      CLI,
      '--runtime',
      'node',
      '--quick',
      '--duration',
      DURATION_SEC,
      '--stack',
      'production',
      '--scenarios',
      SCENARIOS.join(','),
      '--out',
      dir,
      '--port',
      '3160',
    ]);
    results = readResults(dir);
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the Nest targets only, each with the production stack, and exits 0', () => {
    expect(run.stderr).not.toMatch(/could not start|skipped|failed/);
    expect(run.status).toBe(0);
    expect(results.plan.pairs.map((p) => `${p.target}@${p.stack}`)).toEqual(
      SCENARIOS.flatMap(() => NEST.map((target) => `${target}@production`)),
    );
    // the raw frameworks have no production stack, the TLS and HTTP/2 twins serve only their own profiles
    expect(results.plan.notApplicable.some((p) => NEST.includes(p.target))).toBe(false);
    expect(results.runs).toHaveLength(SCENARIOS.length * NEST.length * QUICK.rounds);
    expect(results.runs.every((r) => r.stack === 'production' && r.status === 'ok')).toBe(true);
  });

  it('verifies the gzipped catalogue page after decompressing it, on both adapters', () => {
    const catalog = results.verification.filter((v) => v.scenario === 'catalog');
    expect(catalog.map((v) => [v.target, v.ok, v.headers['content-encoding']])).toEqual(
      NEST.map((target) => [target, true, 'gzip']),
    );
  });

  it('finds the same security header set on both adapters, and lists any value that differs as a security header', () => {
    const hello = results.verification.filter((v) => v.scenario === 'hello');
    for (const header of ['content-security-policy', 'x-frame-options', 'strict-transport-security', 'x-request-id'])
      expect(hello.map((v) => header in v.headers)).toEqual([true, true]);
    expect(hello.some((v) => 'x-powered-by' in v.headers)).toBe(false);
    for (const difference of results.headerDifferences) expect(difference.stack).toBe('production');
    expect(results.headerDifferences.filter((d) => d.header === 'content-security-policy')).toEqual([]);
  });

  it("counts the mix's requests per route on every run", () => {
    const mixRuns = results.runs.filter((r) => r.scenario === 'mix');
    for (const record of mixRuns) {
      expect(Object.keys(record.load!.sentByRoute!).sort()).toEqual(
        ['catalog', 'hello', 'product-by-id', 'purchases', 'secure'].sort(),
      );
      expect(record.load!.unexpectedStatus).toBe(0);
    }
  });

  it("writes each server's request log into the results directory, none to the terminal", () => {
    const logs = readdirSync(dir).filter((name) => name.startsWith('requests-'));
    expect(logs.sort()).toEqual(
      NEST.map((target) => `requests-node@${process.versions.node}-${target}@production.log`),
    );
    const line = JSON.parse(readFileSync(join(dir, logs[0]), 'utf8').split('\n')[0]);
    expect(line.req).toMatchObject({ method: expect.any(String), url: expect.any(String) });
    expect(run.stdout).not.toMatch(/"msg":"request completed"/);
  });

  it('reports the stack and the mix, and rebuilds the report identically from results.json', async () => {
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(markdown).toMatch(/\| hello \| [\d.]+× \|/);
    expect(markdown).toContain('### Traffic mix: requests per route');
    expect(markdown).toMatch(/catalog 40 % → [\d.]+ %/);
    rmSync(join(dir, 'report.md'));
    const rebuild = await runNode([REPORT_CLI, dir]);
    expect(rebuild.status).toBe(0);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toBe(markdown);
  });
});
