import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT, runNode } from '../../support/run-node.js';
import { readResults, type Results } from '../../../../bench/model/results.js';

const FIXTURE = join(ROOT, 'test', 'bench', 'fixtures', 'crash-on-fastify');
const RUN_TIMEOUT_MS = 300_000;

describe('--nest-app on an app whose request ends its process on Fastify', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;
  let results: Results;
  let report: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-crash-'));
    run = await runNode([
      CLI,
      '--nest-app',
      join(FIXTURE, 'app.module.js'),
      '--nest-setup',
      join(FIXTURE, 'setup.js'),
      '--quick',
      '--duration',
      '0.5',
      '--runtime',
      'node',
      '--port',
      '3414',
      '--out',
      dir,
    ]);
    results = readResults(dir);
    report = readFileSync(join(dir, 'report.md'), 'utf8');
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const checked = (scenario: string) => results.ownApp!.compatibility.routes.find((r) => r.scenario === scenario)!;

  it('says the process ended, with its exit code and the error it wrote, and sends the dead server no probe', () => {
    expect(results.ownApp!.compatibility.ends).toEqual([
      expect.objectContaining({
        adapter: 'fastify',
        scenario: 'post-uploads',
        request: 'POST /uploads',
        probe: null,
        code: 1,
        signal: null,
        error: 'TypeError: res.status(...).json is not a function',
        restarted: true,
      }),
    ]);
    const uploads = checked('post-uploads');
    expect(uploads).toMatchObject({ same: false, expect: null, probes: [] });
    expect(uploads!.fastify.error).toMatch(/^its process ended \(exit code 1\) under this request: TypeError/);
    const row = results.ownApp!.routes.find((r) => r.path === '/uploads');
    expect(row!.notMeasured).toMatch(
      /^its request ended the app's process on fastify \(exit code 1: TypeError: res\.status\(\.\.\.\)\.json is not a function\); the server was started again/,
    );
  });

  it('starts Fastify again before the next route: the routes after it answer alike and are timed on both adapters', () => {
    for (const scenario of ['notes', 'health']) {
      expect(checked(scenario)).toMatchObject({ same: true });
      expect(JSON.stringify(checked(scenario).probes)).not.toMatch(/request failed/);
      const timed = results.runs.filter((r) => r.scenario === scenario && r.status === 'ok');
      expect(new Set(timed.map((r) => r.target))).toEqual(new Set(['nest-express', 'nest-fastify']));
    }
  });

  it('exits 1, and the report opens with what ended the process', () => {
    expect(run.status, run.stderr).toBe(1);
    expect(report).toContain(
      "**Nest-Fastify's process ended** under `POST /uploads`, exit code 1: TypeError: res.status(...).json is not a function.",
    );
    expect(run.stderr).toContain("POST /uploads ended the app's process on fastify (exit code 1)");
  });
});
