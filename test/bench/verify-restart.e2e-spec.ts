import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, runNode } from './support/run-node.js';
import { readResults, type Results } from '../../bench/model/results.js';

const CRASH_SERVER = fileURLToPath(new URL('./support/crash-server.js', import.meta.url));
const BASE_PORT = '3418';
const RUN_TIMEOUT_MS = 120_000;

describe('a target whose process ends under one scenario’s verification', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;
  let results: Results;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-verify-restart-'));
    const config = join(dir, 'bench.config.json');
    writeFileSync(
      config,
      JSON.stringify({
        targets: [
          { name: 'steady', command: ['node', CRASH_SERVER, 'never'] },
          { name: 'fragile', command: ['node', CRASH_SERVER, '/crash'] },
        ],
        scenarios: [
          { name: 'crash', path: '/crash', expect: { status: 200 } },
          { name: 'work', path: '/work', expect: { status: 200 } },
        ],
        compare: ['steady', 'fragile'],
      }),
    );
    run = await runNode([
      CLI,
      '--runtime',
      'node',
      '--config',
      config,
      '--quick',
      '--duration',
      '0.5',
      '--out',
      join(dir, 'out'),
      '--port',
      BASE_PORT,
    ]);
    results = readResults(join(dir, 'out'));
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says the process ended, with its exit code and error, in place of a failed request', () => {
    const crash = results.verification.find((v) => v.target === 'fragile' && v.scenario === 'crash');
    expect(crash).toMatchObject({ ok: false });
    expect(crash!.reason).toMatch(
      /^its process ended \(exit code 1\) under this request: Error: asked to crash by GET \/crash/,
    );
  });

  it('starts it again before the next scenario, which is verified and timed on it', () => {
    expect(results.started.some((s) => s.target === 'fragile' && s.restarted)).toBe(true);
    expect(results.verification.find((v) => v.target === 'fragile' && v.scenario === 'work')).toMatchObject({
      ok: true,
    });
    expect(
      results.runs.filter((r) => r.target === 'fragile' && r.scenario === 'work' && r.status === 'ok'),
    ).not.toEqual([]);
    expect(run.status, run.stderr).toBe(1);
  });
});
