import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT, runNode } from '../support/run-node.js';

const RUN_TIMEOUT_MS = 180_000;
const COMPARE_CLI = join(ROOT, 'bench', 'bin', 'compare.js');
const QUICK_RUN = [
  '--runtime',
  'node',
  '--quick',
  '--targets',
  'nest-express,nest-fastify',
  '--scenarios',
  'hello,json',
  '--port',
  '3180',
];

describe('npm run compare on two real --quick runs', () => {
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-compare-e2e-'));
    for (const name of ['a', 'b']) {
      const run = await runNode([CLI, ...QUICK_RUN, '--out', join(dir, name)]);
      expect(run.status).toBe(0);
    }
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints a row per scenario for the ratio and each target, and writes both reports', async () => {
    const out = join(dir, 'compared');
    const run = await runNode([COMPARE_CLI, join(dir, 'a'), join(dir, 'b'), '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    for (const scenario of ['hello', 'json']) {
      for (const series of ['nest-fastify ÷ nest-express', 'nest-express req/s', 'nest-fastify req/s'])
        expect(run.stdout).toMatch(
          new RegExp(`\\| node@[\\d.]+ \\([^)]+\\) \\| ${scenario} \\| bare \\| ${series} \\| `),
        );
    }
    // one start a side: rounds cannot include a start's level, so no change is called beyond noise
    expect(run.stdout).not.toMatch(/\*\*yes\*\*/);
    expect(existsSync(join(out, 'report.md'))).toBe(true);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
  });
});
