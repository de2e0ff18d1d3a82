import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT, runNode, type Finished } from '../../support/run-node.js';

const FIXTURE = join(ROOT, 'test', 'bench', 'fixtures', 'signed-in-account');
const RUN_TIMEOUT_MS = 120_000;
const USAGE_EXIT_CODE = 2;

/** The bench on the fixture with a setup whose sign-in the app refuses, its reports in a folder of its own. */
function refusedRun(setup: string, port: number) {
  const state: { dir: string; run: Finished } = { dir: '', run: null as unknown as Finished };
  beforeAll(async () => {
    state.dir = mkdtempSync(join(tmpdir(), 'bench-refused-sign-in-'));
    process.env.ACCOUNTS_FILE = join(state.dir, 'accounts.json');
    state.run = await runNode([
      CLI,
      '--nest-app',
      join(FIXTURE, 'app.module.js'),
      '--nest-setup',
      join(FIXTURE, setup),
      '--quick',
      '--runtime',
      'node',
      '--port',
      String(port),
      '--out',
      join(state.dir, 'out'),
    ]);
  }, RUN_TIMEOUT_MS);
  afterAll(() => {
    delete process.env.ACCOUNTS_FILE;
    rmSync(state.dir, { recursive: true, force: true });
  });
  return state;
}

/** What a refused sign-in leaves: the reports, saying so, and no route checked. */
function expectReportsOfRefusal(state: { dir: string }, said: string) {
  const out = join(state.dir, 'out');
  for (const file of ['report.md', 'report.html', 'results.json']) expect(existsSync(join(out, file)), file).toBe(true);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
  expect(results.ownApp.signIn.refused).toContain(said);
  const routes = results.ownApp.routes.filter((r: { scenario: string | null }) => r.scenario === null);
  expect(routes.length).toBe(results.ownApp.routes.length);
  for (const route of routes)
    expect(route.notMeasured).toBe('not checked: the app refused the sign-in (see the report’s opening)');
  const report = readFileSync(join(out, 'report.md'), 'utf8');
  expect(report).toContain('**The app refused the sign-in**, so no route was checked or timed:');
  expect(report).toContain(said);
  expect(report).not.toMatch(/every route answers its own request alike|signing in fails on Fastify|listed none/);
}

describe('--nest-app with an authenticate() whose headers the app refuses everywhere', () => {
  const state = refusedRun('wrong-header-setup.js', 5420);

  it('stops once, naming the setup’s headers, the route that refused them with its answer, and the fix', () => {
    const { run } = state;
    expect(run.status, run.stderr).toBe(USAGE_EXIT_CODE);
    expect(run.stderr).toContain(
      'wrong-header-setup.js: the app refused the headers authenticate() returned (token: "',
    );
    expect(run.stderr).toMatch(
      /on every request it refuses signed out \(GET \/auth\/me, .*\): GET \/auth\/me answered 401 \{"message":"sign in first".*\} with them, as without them/,
    );
    expect(run.stderr).toContain('return the header the app reads, e.g. { authorization: `Bearer ${token}` }');
  });

  it('times nothing and reports no route as differing on Fastify', () => {
    expect(state.run.stderr).not.toMatch(/differs on Fastify|401 → 500/);
    expect(state.run.stdout).toContain('No Nest-Express / Nest-Fastify pair was measured.');
    expect(state.run.stdout).not.toMatch(/\d×/);
  });

  it('writes the reports, which open with the refusal', () => {
    expectReportsOfRefusal(state, 'GET /auth/me answered 401');
  });
});

describe('--nest-app with an authenticate() that throws, its login refused', () => {
  const state = refusedRun('refused-login-setup.js', 5424);

  it('exits 2 with one line: what the sign-in answered and how to fix the setup, and writes the reports', () => {
    const { run } = state;
    expect(run.status, run.stderr).toBe(USAGE_EXIT_CODE);
    const said = 'refused-login-setup.js: authenticate() failed on Express: login answered 401';
    const lines = run.stderr.split('\n').filter((line) => line.includes(said));
    expect(lines.at(-1)).toMatch(/wrong e-mail or password.*; authenticate\(\) signs in on a server just started/);
    expectReportsOfRefusal(state, 'login answered 401');
  });
});
