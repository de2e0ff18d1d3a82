import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readResults } from '../../bench/model/results.js';
import { CLI, ROOT, runNode } from './support/run-node.js';

// --nest-main dist/main.js: an app measured from its own compiled main, with no setup module, on both adapters.
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const MAIN_APP = join(ROOT, 'test', 'bench', 'fixtures', 'main-app');
const RUN_TIMEOUT_MS = 180_000;

describe('--nest-main and --sign-in on a main.ts written for Express (trust proxy, express.json, cookie-parser, prefix, versioning, a nested token)', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;
  let results: ReturnType<typeof readResults>;

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, [TSC, '-p', join(MAIN_APP, 'tsconfig.json')]);
    dir = mkdtempSync(join(tmpdir(), 'bench-nest-main-'));
    run = await runNode([
      CLI,
      '--nest-main',
      join(MAIN_APP, 'dist', 'main.js'),
      '--sign-in',
      'POST /api/v1/auth/login={"email":"shopper@example.com","password":"shopper-pass"}',
      '--quick',
      '--duration',
      '0.5',
      '--runtime',
      'node',
      '--out',
      dir,
    ]);
    results = readResults(dir);
  }, RUN_TIMEOUT_MS);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('boots both adapters from main, Fastify without the call it cannot take, and says so', () => {
    expect(run.status).toBe(0);
    const ownApp = results.ownApp!;
    expect(ownApp.main).toBe(join(MAIN_APP, 'dist', 'main.js'));
    expect(ownApp.setup).toBeNull();
    expect(ownApp.bootFailure).toBeNull();
    expect(ownApp.measuredWithout).toEqual(['src/main.ts:11']);
    expect(run.stderr).toContain(
      `Fastify: app.set at ${join(MAIN_APP, 'src', 'main.ts')}:11:7 skipped (TypeError: app.set is not a function); measured without it`,
    );
  });

  it('keeps what main’s own logger printed on each adapter beside results.json', () => {
    for (const target of ['nest-express', 'nest-fastify'])
      expect(readFileSync(join(dir, `output-node@${process.versions.node}-${target}.log`), 'utf8')).toContain(
        'Nest application successfully started',
      );
  });

  it('signs in with the password, finds the token nested in the answer, and times the signed-in route', () => {
    expect(run.stderr).toContain('the sign-in is proved: GET /api/v1/me answered 2xx with it, refused without it');
    expect(results.ownApp!.routes.find((r) => r.path === '/api/v1/me')?.scenario).toBe('api-v1-me');
  });

  it('reads main’s prefix, its exclusion and its versioning, and times every route that answers alike', () => {
    const routes = results.ownApp!.routes.map((r) => [`${r.method} ${r.path}`, r.scenario !== null]);
    expect(routes).toEqual([
      ['GET /api/v1/items', true],
      ['GET /api/v1/items/:id', true],
      ['GET /api/v1/items/basket/mine', true],
      ['POST /api/v1/auth/login', false],
      ['GET /api/v1/me', true],
      ['GET /v1/health', true],
    ]);
    expect(new Set(results.runs.filter((r) => r.status === 'ok').map((r) => r.scenario))).toEqual(
      new Set(['api-v1-items', 'api-v1-items-id', 'api-v1-items-basket-mine', 'api-v1-me', 'v1-health']),
    );
  });

  it('names what Fastify breaks at main.ts’s own lines', () => {
    const inMain = results
      .ownApp!.scan!.findings.filter((f) => f.file === 'src/main.ts')
      .map((f) => [f.line, f.kind, f.rule]);
    expect(inMain).toEqual(
      expect.arrayContaining([
        [11, 'breaks', "app.set('trust proxy')"],
        [12, 'breaks', expect.stringMatching(/express\.json/)],
        [13, 'plugin', expect.stringMatching(/cookie-parser|cookieParser/)],
      ]),
    );
    const trustProxy = results.ownApp!.scan!.findings.find((f) => f.file === 'src/main.ts' && f.line === 11);
    expect(trustProxy?.onFastify).toMatch(/skipped there: Fastify was measured without src\/main\.ts:11/);
  });
});
