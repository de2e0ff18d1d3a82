import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT, runNode } from '../support/run-node.js';
import { readResults, type Results } from '../../../bench/model/results.js';

const FIXTURE = join(ROOT, 'test', 'bench', 'fixtures', 'crash-on-fastify');
const RUN_TIMEOUT_MS = 120_000;
/** What the config's prepare step throws, as a database a user's setup needs would be missing. */
const PREPARE_ERROR = 'the fixture database is not there';

describe('--nest-app whose check stops part way: the prepare step of its --config throws', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;
  let results: Results;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-check-failed-'));
    const config = join(dir, 'failing.config.mjs');
    writeFileSync(config, `export default { prepare() { throw new Error(${JSON.stringify(PREPARE_ERROR)}); } };\n`);
    run = await runNode([
      CLI,
      '--nest-app',
      join(FIXTURE, 'app.module.js'),
      '--nest-setup',
      join(FIXTURE, 'setup.js'),
      '--config',
      config,
      '--quick',
      '--runtime',
      'node',
      '--out',
      join(dir, 'out'),
    ]);
    results = readResults(join(dir, 'out'));
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes results.json and both reports', () => {
    for (const file of ['results.json', 'report.md', 'report.html'])
      expect(existsSync(join(dir, 'out', file))).toBe(true);
  });

  it('keeps what it found before it stopped, each route saying what failed and where', () => {
    const { routes } = results.ownApp!;
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['POST /uploads', 'GET /notes', 'GET /health']),
    );
    for (const route of routes) {
      expect(route.scenario).toBeNull();
      expect(route.notMeasured).toContain(`the check failed while preparing the app: Error: ${PREPARE_ERROR} (at `);
      expect(route.notMeasured).toContain('failing.config.mjs');
    }
    expect(run.stderr).toContain(`the check failed while preparing the app: Error: ${PREPARE_ERROR}`);
  });

  it('runs nothing, records the run as stopped by the failure, and exits 1: the bench failed', () => {
    expect(results.runs).toEqual([]);
    expect(results.complete).toBe(false);
    expect(results.stopReason).toContain(`the check failed while preparing the app: Error: ${PREPARE_ERROR}`);
    expect(run.status, run.stderr).toBe(1);
  });
});
