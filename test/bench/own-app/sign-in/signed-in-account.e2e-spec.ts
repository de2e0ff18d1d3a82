import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT, runNode } from '../../support/run-node.js';
import { readResults, type Results } from '../../../../bench/model/results.js';

const FIXTURE = join(ROOT, 'test', 'bench', 'fixtures', 'signed-in-account');
const RUN_TIMEOUT_MS = 300_000;

/** The fixture keeps its accounts, roles and users in this file, shared by both adapters' processes. */
function accountsFile(dir: string) {
  return join(dir, 'accounts.json');
}

async function bench(dir: string, port: string, extra: string[] = [], module = 'app.module.js') {
  process.env.ACCOUNTS_FILE = accountsFile(dir);
  const out = join(dir, `out-${port}`);
  const run = await runNode([
    CLI,
    '--nest-app',
    join(FIXTURE, module),
    '--nest-setup',
    join(FIXTURE, 'setup.js'),
    '--quick',
    '--duration',
    '0.5',
    '--runtime',
    'node',
    '--port',
    port,
    '--out',
    out,
    ...extra,
  ]);
  return { run, results: readResults(out) };
}

const route = (results: Results, method: string, path: string) =>
  results.ownApp!.routes.find((r) => r.method === method && r.path === path)!;
/** The stand-in app's data file, as both adapters' processes share it. */
interface Stored {
  accounts: Array<{ id: number; username: string; roleId: string; orgId: string; deletedAt: string | null }>;
  organisations: Array<{ id: string; name: string }>;
  roles: Array<{ id: string; name: string; permissions: string[] }>;
  users: Array<{ id: string; roleId: string }>;
}
const stored = (dir: string): Stored => JSON.parse(readFileSync(accountsFile(dir), 'utf8'));
const account = (dir: string) => stored(dir).accounts[0];
const adminRole = (dir: string) => stored(dir).roles.find((r) => r.id === account(dir).roleId)!;

describe('--nest-app keeps the signed-in account and takes ids from the app', () => {
  let dir: string;
  let first: Awaited<ReturnType<typeof bench>>;
  let second: Awaited<ReturnType<typeof bench>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-account-'));
    first = await bench(dir, '3392');
    second = await bench(dir, '3395');
  }, RUN_TIMEOUT_MS);

  afterAll(() => {
    delete process.env.ACCOUNTS_FILE;
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves DELETE /auth/me untimed, with why and the flag, and the account is there after two runs', () => {
    expect(first.run.status, first.run.stderr).toBe(0);
    expect(route(first.results, 'DELETE', '/auth/me')).toMatchObject({
      scenario: null,
      notMeasured: expect.stringContaining('removes the signed-in account'),
    });
    expect(route(first.results, 'DELETE', '/auth/me').notMeasured).toContain("--time-write 'DELETE /auth/me'");
    expect(first.results.runs.some((r) => /delete/.test(r.scenario))).toBe(false);
    expect(account(dir).deletedAt).toBeNull();
    expect(second.run.status, second.run.stderr).toBe(0);
  });

  it('times the sign-in route with the request authenticate() signed in with', () => {
    expect(route(first.results, 'POST', '/auth/login')).toMatchObject({
      scenario: 'post-auth-login',
      body: 'authenticate()',
    });
    const timed = first.results.runs.filter((r) => r.scenario === 'post-auth-login' && r.status === 'ok');
    expect(new Set(timed.map((r) => r.target))).toEqual(new Set(['nest-express', 'nest-fastify']));
  });

  it('leaves PATCH /roles/:id untimed: GET /roles listed the token’s role and one there before the run, both keep their rights', () => {
    expect(route(first.results, 'PATCH', '/roles/:id')).toMatchObject({
      scenario: null,
      notMeasured: expect.stringContaining(
        "GET /roles listed only the signed-in principal's own (the token's roleId) and rows that were there before the run",
      ),
    });
    expect(first.results.runs.some((r) => r.scenario === 'patch-roles-id')).toBe(false);
    expect(adminRole(dir).permissions).toEqual(['users:read', 'users:write']);
    expect(stored(dir).roles.find((r) => r.name === 'user')!.permissions).toEqual([]);
  });

  it("leaves PATCH /organisations/:id untimed: the only organisation listed is the token's", () => {
    expect(route(first.results, 'PATCH', '/organisations/:id')).toMatchObject({
      scenario: null,
      notMeasured: expect.stringMatching(/the signed-in principal's own|what the sign-in's token carries/),
    });
    expect(route(first.results, 'PATCH', '/organisations/:id').notMeasured).toContain(
      "--time-write 'PATCH /organisations/:id'",
    );
    expect(first.results.runs.some((r) => r.scenario === 'patch-organisations-id')).toBe(false);
  });

  it('lists PATCH /organisation, whose path names no other, before sending it: the organisation keeps its name', () => {
    expect(route(first.results, 'PATCH', '/organisation')).toMatchObject({
      scenario: null,
      notMeasured: expect.stringMatching(
        /^its path ends in \/organisation, naming no other: it changes the signed-in account's organisation/,
      ),
    });
    expect(first.results.runs.some((r) => r.scenario === 'patch-organisation')).toBe(false);
    expect(stored(dir).organisations[0].name).toBe('Acme');
    expect(route(first.results, 'GET', '/users')).toMatchObject({ scenario: 'users' });
  });

  it('creates users with a role GET /roles listed, and times it on both adapters', () => {
    const roles = stored(dir).roles.map((r) => r.id);
    expect(route(first.results, 'POST', '/users')).toMatchObject({ scenario: 'post-users', body: 'derived' });
    const created = stored(dir).users;
    expect(created.length).toBeGreaterThan(0);
    expect(created.every((u) => roles.includes(u.roleId))).toBe(true);
    const timed = first.results.runs.filter((r) => r.scenario === 'post-users' && r.status === 'ok');
    expect(new Set(timed.map((r) => r.target))).toEqual(new Set(['nest-express', 'nest-fastify']));
  });

  it('creates a user with POST /users when GET /users listed none, and measures GET /users/:id with it', () => {
    expect(first.run.stderr).toContain(
      'POST /users sent once, since GET /users held no id its routes could take: it created one',
    );
    expect(route(first.results, 'GET', '/users/:id')).toMatchObject({
      scenario: 'users-id',
      request: expect.stringMatching(/^GET \/users\/[0-9a-f-]{36}$/),
    });
    expect(first.results.runs.some((r) => r.scenario === 'users-id' && r.status === 'ok')).toBe(true);
  });
});

describe('--time-write on a write that removes the account: the sign-in tried again after its check', () => {
  let dir: string;
  let timed: Awaited<ReturnType<typeof bench>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-account-lost-'));
    timed = await bench(dir, '3398', ['--time-write', 'DELETE /auth/me']);
  }, RUN_TIMEOUT_MS);

  afterAll(() => {
    delete process.env.ACCOUNTS_FILE;
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds that signing in stopped working after it, and does not time it', () => {
    expect(route(timed.results, 'DELETE', '/auth/me')).toMatchObject({
      scenario: null,
      notMeasured: expect.stringMatching(
        /^signing in stopped working after DELETE \/auth\/me \(GET \/auth\/me answered 401/,
      ),
    });
    expect(timed.results.runs.some((r) => r.scenario === 'delete-auth-me')).toBe(false);
    expect(account(dir).deletedAt).not.toBeNull();
  });
});

describe('an admin API behind a global throttler: timed with it lifted, the signed-in account as it was', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof bench>>;
  let before: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-throttled-'));
    process.env.ACCOUNTS_FILE = accountsFile(dir);
    const { storedData } = await import('../../fixtures/signed-in-account/app.module.js');
    before = JSON.stringify(storedData().accounts);
    run = await bench(dir, '3401', [], 'app.module.js#ThrottledAppModule');
  }, RUN_TIMEOUT_MS);

  afterAll(() => {
    delete process.env.ACCOUNTS_FILE;
    rmSync(dir, { recursive: true, force: true });
  });

  it('records the throttler lifted while timing, with where it is configured and its limits', () => {
    expect(run.run.status, run.run.stderr).toBe(0);
    expect(run.results.ownApp!.throttle).toMatchObject({
      timed: 'lift',
      guards: [{ guard: 'ThrottlerGuard', limits: [{ name: 'default', limit: '3', ttl: '60 s' }] }],
      forRoot: expect.stringMatching(/app\.module\.js:\d+$/),
    });
    expect(readFileSync(join(dir, 'out-3401', 'report.md'), 'utf8')).toContain(
      "Your app's rate limiter\n\nThe app's throttler (ThrottlerModule.forRoot at",
    );
  });

  it('times routes far over its limit on both adapters, GET /products/:id among them, with no 429', () => {
    const timedOnBoth = new Set(
      run.results.runs
        .filter((r) => r.status === 'ok' && r.target === 'nest-fastify')
        .filter((r) => run.results.runs.some((e) => e.scenario === r.scenario && e.target === 'nest-express'))
        .map((r) => r.scenario),
    );
    expect(timedOnBoth.size).toBeGreaterThanOrEqual(4);
    expect(timedOnBoth).toContain('products-id');
    expect(run.results.runs.some((r) => (r.load?.statusCounts?.['429'] ?? 0) > 0)).toBe(false);
  });

  it('lists the rename and the role assigned to the principal’s own id, and sends neither', () => {
    expect(route(run.results, 'PATCH', '/user/change-username').notMeasured).toMatch(
      /^a username change \(\/user\/change-username\)/,
    );
    expect(route(run.results, 'POST', '/roles/assign').notMeasured).toMatch(
      /^its body's accountId is the account authenticate\(\) signed in/,
    );
    expect(run.results.ownApp!.compatibility.routes.map((r) => r.request)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/change-username|roles\/assign/)]),
    );
  });

  it('leaves the signed-in account byte-identical', () => {
    expect(JSON.stringify(stored(dir).accounts)).toBe(before);
  });
});

describe('--time-write on the rename: the witness compares every read of who is signed in', () => {
  let dir: string;
  let renamed: Awaited<ReturnType<typeof bench>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-renamed-'));
    renamed = await bench(
      dir,
      '3410',
      ['--time-write', 'PATCH /user/change-username'],
      'app.module.js#ThrottledAppModule',
    );
  }, RUN_TIMEOUT_MS);

  afterAll(() => {
    delete process.env.ACCOUNTS_FILE;
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the rename GET /auth/me does not show, field: before → after from GET /user/profile, and does not time it', () => {
    expect(renamed.run.status, renamed.run.stderr).toBe(0);
    expect(route(renamed.results, 'PATCH', '/user/change-username')).toMatchObject({
      scenario: null,
      notMeasured: expect.stringMatching(
        /^the signed-in principal's answer changed after PATCH \/user\/change-username \(GET \/user\/profile answered username: "bench-admin" → "/,
      ),
    });
    expect(account(dir).username).not.toBe('bench-admin');
  });
});
