import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT, runNode, type Finished } from '../support/run-node.js';

const FIXTURE = join(ROOT, 'test', 'bench', 'fixtures', 'signed-in-account');
const RUN_TIMEOUT_MS = 120_000;
const USAGE_EXIT_CODE = 2;

describe('--nest-app with an authenticate() whose headers the app refuses everywhere', () => {
  let dir: string;
  let run: Finished;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-wrong-header-'));
    process.env.ACCOUNTS_FILE = join(dir, 'accounts.json');
    run = await runNode([
      CLI,
      '--nest-app',
      join(FIXTURE, 'app.module.js'),
      '--nest-setup',
      join(FIXTURE, 'wrong-header-setup.js'),
      '--quick',
      '--runtime',
      'node',
      '--port',
      '5420',
      '--out',
      join(dir, 'out'),
    ]);
  }, RUN_TIMEOUT_MS);

  afterAll(() => {
    delete process.env.ACCOUNTS_FILE;
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops once, naming the setup’s headers, the route that refused them with its answer, and the fix', () => {
    expect(run.status, run.stderr).toBe(USAGE_EXIT_CODE);
    expect(run.stderr).toContain(
      'wrong-header-setup.js: the app refused the headers authenticate() returned (token: "',
    );
    expect(run.stderr).toMatch(
      /GET \/auth\/me answered 401 \{"message":"sign in first".*\} with them, as it does without them/,
    );
    expect(run.stderr).toContain('return the header the app reads, e.g. { authorization: `Bearer ${token}` }');
  });

  it('times nothing and reports no route as differing on Fastify', () => {
    expect(run.stderr).not.toMatch(/differs on Fastify|401 → 500/);
    expect(run.stdout).not.toMatch(/Verdict/);
  });
});
