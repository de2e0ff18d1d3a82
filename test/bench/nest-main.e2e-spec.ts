import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readResults } from '../../bench/model/results.js';
import { switchingCost } from '../../bench/analysis/switching-cost.js';
import { withRecordedFindings } from '../../bench/own-app/findings/switching.js';
import { NPM_CI, appEnvironment } from './support/app-install.js';
import { CLI, ROOT, runNode } from './support/run-node.js';

// --nest-main dist/main.js on a Nest 11 app installed from its own lockfile, as a user has it: its main.ts written for
// Express, a password sign-in, a global throttler and exception filter, and its accounts in a file it writes.
const FIXTURE = join(ROOT, 'test', 'bench', 'fixtures', 'main-app');
const MAIN_TS = readFileSync(join(FIXTURE, 'src', 'main.ts'), 'utf8').split('\n');
const SIGN_IN = 'POST /api/v1/auth/login={"email":"admin@example.com","password":"admin-pass"}';
const INSTALL_TIMEOUT_MS = 300_000;
const RUN_TIMEOUT_MS = 240_000;

const run = promisify(execFile);
/** The line of main.ts that holds a statement. */
const lineOf = (statement: string) => MAIN_TS.findIndex((line) => line.includes(statement)) + 1;

describe('--nest-main on a Nest 11 app written for Express (trust proxy, express.json, cookie-parser, prefix, versioning, a nested token, a global throttler and filter)', () => {
  let dir: string;
  let app: string;
  let accountsBefore: Buffer;
  let bench: Awaited<ReturnType<typeof runNode>>;
  let results: ReturnType<typeof readResults>;
  let report: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-nest-main-'));
    app = join(dir, 'app');
    cpSync(FIXTURE, app, { recursive: true, filter: (from) => !/\/(node_modules|dist)$/.test(from) });
    const [npm, ...ci] = NPM_CI;
    await run(npm, ci, { cwd: app, env: appEnvironment(), maxBuffer: 64 << 20 });
    await run(process.execPath, [join(app, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], {
      cwd: app,
    });
    accountsBefore = readFileSync(join(app, 'data', 'accounts.json'));
    const out = join(dir, 'out');
    bench = await runNode([
      CLI,
      '--nest-main',
      join(app, 'dist', 'main.js'),
      '--sign-in',
      SIGN_IN,
      '--quick',
      '--duration',
      '0.5',
      '--runtime',
      'node',
      '--out',
      out,
    ]);
    results = readResults(out);
    report = readFileSync(join(out, 'report.md'), 'utf8');
  }, INSTALL_TIMEOUT_MS + RUN_TIMEOUT_MS);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The routes timed on both adapters, `METHOD /path`. */
  const timedRoutes = () => {
    const okOn = (target: string) =>
      new Set(results.runs.filter((r) => r.status === 'ok' && r.target === target).map((r) => r.scenario));
    const [express, fastify] = [okOn('nest-express'), okOn('nest-fastify')];
    return results
      .ownApp!.routes.filter((r) => r.scenario !== null && express.has(r.scenario) && fastify.has(r.scenario))
      .map((r) => `${r.method} ${r.path}`);
  };

  it('measures the app on its own Nest 11, from main with no setup module, both adapters booted', () => {
    expect(bench.status).toBe(0);
    const ownApp = results.ownApp!;
    expect(ownApp.main).toBe(join(app, 'dist', 'main.js'));
    expect(ownApp.setup).toBeNull();
    expect(ownApp.bootFailure).toBeNull();
    expect(ownApp.versions['@nestjs/core']).toMatch(/^11\./);
  });

  it('boots Fastify without the call it cannot take, named at main.ts’s line', () => {
    const trustProxy = lineOf("app.set('trust proxy', 1)");
    expect(results.ownApp!.measuredWithout).toEqual([`src/main.ts:${trustProxy}`]);
    expect(bench.stderr).toContain(
      `Fastify: app.set at ${join(app, 'src', 'main.ts')}:${trustProxy}:7 skipped (TypeError: app.set is not a function); measured without it`,
    );
  });

  it('keeps what main’s own logger printed on each adapter beside results.json', () => {
    for (const target of ['nest-express', 'nest-fastify'])
      expect(readFileSync(join(dir, 'out', `output-node@${process.versions.node}-${target}.log`), 'utf8')).toContain(
        'Nest application successfully started',
      );
  });

  it('names what Fastify breaks at main.ts’s own lines', () => {
    const inMain = results
      .ownApp!.scan!.findings.filter((f) => f.file === 'src/main.ts')
      .map((f) => [f.line, f.kind, f.rule]);
    expect(inMain).toEqual(
      expect.arrayContaining([
        [lineOf("app.set('trust proxy'"), 'breaks', "app.set('trust proxy')"],
        [lineOf('express.json('), 'breaks', expect.stringMatching(/express\.json/)],
        [lineOf('cookieParser()'), 'plugin', expect.stringMatching(/cookie-parser|cookieParser/)],
      ]),
    );
  });

  it('signs in with the password, finds the token nested in the answer, and times the signed-in routes', () => {
    expect(bench.stderr).toMatch(/the sign-in is proved: GET \/api\/v1\/\S+ answered 2xx with it, refused without it/);
    expect(timedRoutes()).toEqual(
      expect.arrayContaining(['GET /api/v1/me', 'GET /api/v1/products', 'GET /api/v1/products/:id']),
    );
  });

  it('reads main’s prefix, its exclusion and its versioning, and the wildcard route', () => {
    const routes = results.ownApp!.routes.map((r) => `${r.method} ${r.path}`);
    expect(routes).toEqual(
      expect.arrayContaining(['GET /v1/health', 'POST /api/v1/auth/login', 'GET /api/v1/me', 'GET /api/v1/mock/*']),
    );
  });

  it('times at least four routes with the throttler lifted, and says so with where it is and its limits', () => {
    expect(timedRoutes().length).toBeGreaterThanOrEqual(4);
    expect(results.ownApp!.throttle).toMatchObject({
      timed: 'lift',
      guards: [{ guard: 'ThrottlerGuard', limits: [{ limit: '10', ttl: '60 s' }] }],
      forRoot: expect.stringMatching(/^src\/app\.module\.ts:\d+$/),
    });
    expect(report).toMatch(/The app's throttler .*src\/app\.module\.ts:\d+.* was lifted while timing/);
  });

  it('measures GET /products/:id though product 1 and the signed-in account 1 share their id', () => {
    expect(timedRoutes()).toContain('GET /api/v1/products/:id');
  });

  it('leaves the accounts file byte for byte as it was: the rename and the role assignment are listed, not sent', () => {
    expect(readFileSync(join(app, 'data', 'accounts.json')).equals(accountsBefore)).toBe(true);
    const held = results.ownApp!.routes.filter((r) => r.scenario === null).map((r) => `${r.method} ${r.path}`);
    expect(held).toEqual(expect.arrayContaining(['PATCH /api/v1/user/change-username', 'POST /api/v1/roles/assign']));
  });

  it('leads its findings with the global filter and the number of routes it touches', () => {
    const [first] = switchingCost(withRecordedFindings(results).ownApp, [], [])!.findings;
    expect(first.where).toMatch(/^src\/all-exceptions\.filter\.ts:\d+$/);
    expect(first.shared?.role).toBe('filter');
    expect(first.shared?.routes).toBe(results.ownApp!.routes.length);
  });
});
