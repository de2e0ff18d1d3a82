import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT, runNode, type Finished } from '../../support/run-node.js';

const FIXTURE = join(ROOT, 'test', 'bench', 'fixtures', 'signed-in-account');
const RUN_TIMEOUT_MS = 150_000;
const USAGE_EXIT_CODE = 2;
const LOGIN = 'POST /auth/login';

/** The bench on the fixture with no setup module, signed in by --sign-in alone, its data in a folder of its own. */
function flagRun(password: string, port: number) {
  const state: { dir: string; run: Finished } = { dir: '', run: null as unknown as Finished };
  beforeAll(async () => {
    state.dir = mkdtempSync(join(tmpdir(), 'bench-sign-in-flag-'));
    process.env.ACCOUNTS_FILE = join(state.dir, 'accounts.json');
    state.run = await runNode([
      CLI,
      '--nest-app',
      join(FIXTURE, 'app.module.js'),
      '--sign-in',
      `${LOGIN}=${JSON.stringify({ email: 'bench@example.com', password })}`,
      '--quick',
      '--duration',
      '0.5',
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

const results = (dir: string) => JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8'));

describe('--nest-app signed in by --sign-in, without a setup module', () => {
  const state = flagRun('bench-password', 5440);

  it('signs in on both adapters, sends the token as a Bearer header and proves it on the signed-in read', () => {
    expect(state.run.status, state.run.stderr).toBe(0);
    expect(results(state.dir).ownApp.signIn).toEqual({
      source: `--sign-in ${LOGIN}`,
      accepted: 'GET /auth/me',
      headers: ['authorization'],
      params: [],
      errors: { 'nest-express': null, 'nest-fastify': null },
    });
  });

  it('measures the signed-in routes, and times the sign-in itself with the flag’s body', () => {
    const routes = results(state.dir).ownApp.routes as { method: string; path: string; scenario: string | null }[];
    const measured = routes.filter((r) => r.scenario).map((r) => `${r.method} ${r.path}`);
    expect(measured).toEqual(expect.arrayContaining([LOGIN, 'GET /auth/me', 'GET /roles', 'GET /users']));
  });
});

describe('--sign-in that the app refuses', () => {
  const state = flagRun('wrong-password', 5444);

  it('exits 2 with one line: what the sign-in answered, and what to do', () => {
    expect(state.run.status, state.run.stderr).toBe(USAGE_EXIT_CODE);
    expect(state.run.stderr).toMatch(
      /the sign-in failed on Express: --sign-in POST \/auth\/login answered 401 .*; the account it signs in with must be in the database the app reads/,
    );
    expect(results(state.dir).ownApp.signIn.refused).toContain('--sign-in POST /auth/login answered 401');
  });
});
