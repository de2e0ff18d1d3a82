import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openBrowser, openReport } from '../support/browser.js';
import { CLI, ROOT, runNode } from './support/run-node.js';
import { readResults, type Results } from '../../bench/model/results.js';

const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const EXAMPLE = join(ROOT, 'examples', 'express-first-app');
const SHOP = join(ROOT, 'test', 'bench', 'fixtures', 'versioned-shop');
const RUN_TIMEOUT_MS = 240_000;
/** --quick's quarter-second runs can end with no response on a busy shared machine: a second each, still seconds in all. */
const DURATION = ['--duration', '1'];
/** Each run's two servers listen on consecutive ports from these. */
const EXAMPLE_PORT = '3310';
const SHOP_PORT = '3314';
const SETS_PORT = '3322';
/** Installs nest@11 and nest@5 and the default runtime on first use. */
const SETS_TIMEOUT_MS = 480_000;

/** Build an app as its owner would: tsc with the app's own tsconfig, into its dist/. */
const build = (dir: string) => promisify(execFile)(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json')]);

/** A short run of the bench (on the running node unless `runtime` says otherwise), its results in a directory of its own. */
async function quickRun(args: string[], port: string, runtime = ['--runtime', 'node']) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-nest-app-'));
  const run = await runNode([CLI, ...args, '--quick', ...DURATION, ...runtime, '--port', port, '--out', dir]);
  return { dir, run, results: readResults(dir) };
}

describe('--nest-app on examples/express-first-app, booted from its compiled module', () => {
  const app = [
    '--nest-app',
    join(EXAMPLE, 'dist', 'app.module.js#AppModule'),
    '--nest-setup',
    join(EXAMPLE, 'dist', 'setup.js'),
  ];
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;
  let results: Results;

  beforeAll(async () => {
    await build(EXAMPLE);
    ({ dir, run, results } = await quickRun(
      [...app, '--traffic', join(EXAMPLE, 'requests.log'), '--params', 'id=7'],
      EXAMPLE_PORT,
    ));
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists every route with the prefix the setup applies, and the route it excludes', async () => {
    const listed = await runNode([CLI, ...app, '--list-routes']);
    expect(listed.status).toBe(0);
    expect(listed.stdout.trim().split('\n')).toEqual([
      'GET /health',
      'GET /api/users',
      'GET /api/users/:id',
      'GET /api/users/:id/card',
      'POST /api/users',
    ]);
  });

  it('exits 0: the route that breaks on Fastify is a finding, not a failure', () => {
    expect(run.status, run.stderr).toBe(0);
    expect(results.verification.every((v) => v.ok)).toBe(true);
  });

  it("shows the Express-only route in what changes on Fastify, with the server's error, in both reports", () => {
    const row =
      /\| api-users-id-card \| `GET \/api\/users\/7\/card` \| 200 \| \*\*500\*\* \| status 200 → 500 \| TypeError: res\.json is not a function \|/;
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toMatch(row);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('<td>TypeError: res.json is not a function</td>');
  });

  it('times every route that answers alike, and not the one that does not', () => {
    const timed = new Set<string>(results.runs.map((r) => r.scenario));
    expect([...timed].sort((a, b) => a.localeCompare(b))).toEqual([
      'api-users',
      'api-users-id',
      'health',
      'post-api-users',
      'traffic',
    ]);
    for (const scenario of timed)
      expect(run.stdout).toMatch(new RegExp(`\\| node@[\\d.]+ \\([^)|]+\\) \\| ${scenario} \\| \\d+\\.\\d\\d×`));
  });

  it('measures the logged traffic as one mix, in the shares of the routes that carry it', () => {
    const mix = results.config!.scenarios.find((s) => s.name === 'traffic')!.mix;
    expect(mix!.map((share) => share.route)).toEqual(['health', 'api-users', 'api-users-id', 'post-api-users']);
    expect(results.ownApp!.traffic).toMatchObject({ requests: 400, unreadable: 1 });
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(markdown).toMatch(
      /\| `GET \/api\/users\/:id` \| UsersController\.one \| [\d.]+ % \| api-users-id: `GET \/api\/users\/7` \|/,
    );
    expect(markdown).toContain('**The traffic row of the verdict is the answer for your app**');
  });

  it('writes a report.html that opens in Chromium with marks in every chart, no error and nothing fetched', async () => {
    const browser = await openBrowser();
    try {
      const { charts, problems } = await openReport(browser, join(dir, 'report.html'));
      expect(charts.length).toBeGreaterThan(0);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it("measures the POST with a body derived from its @Body('name') parameter", () => {
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toMatch(
      /\| `POST \/api\/users` \| UsersController\.create \| [\d.]+ % \| post-api-users: `POST \/api\/users` \|/,
    );
    expect(results.ownApp!.routes.find((r) => r.handler === 'UsersController.create')).toMatchObject({
      scenario: 'post-api-users',
      body: 'derived',
    });
    const posts = results.runs.filter((r) => r.scenario === 'post-api-users');
    expect(posts.length).toBeGreaterThan(0);
    for (const post of posts) expect(Object.keys(post.load!.statusCounts!)).toEqual(['201']);
  });
});

describe('--nest-app on a versioned app with a guard, an interceptor and a prefix from its setup', () => {
  const app = ['--nest-app', join(SHOP, 'dist', 'shop.module.js'), '--nest-setup', join(SHOP, 'setup.js')];
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;
  let results: Results;

  beforeAll(async () => {
    await build(SHOP);
    ({ dir, run, results } = await quickRun(
      [...app, '--config', join(SHOP, 'bench.config.json'), '--traffic', join(SHOP, 'requests.log')],
      SHOP_PORT,
    ));
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the one @Module class the file exports and lists its versioned routes under the prefix', async () => {
    const listed = await runNode([CLI, ...app, '--list-routes']);
    expect(listed.stdout.trim().split('\n')).toEqual([
      'GET /shop/v1/products',
      'GET /shop/v1/products/:sku',
      'GET /shop/v1/products/:sku/client',
      'GET /shop/v2/products',
      'GET /shop/v1/orders',
    ]);
  });

  it("shows the route on Express's request API as breaking on Fastify, and exits 0", () => {
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toMatch(
      /\| `GET \/shop\/v1\/products\/mug\/client` \| 200 \| \*\*500\*\* \| .* \| TypeError: req\.get is not a function \|/,
    );
  });

  it('verifies the interceptor-wrapped answers on both adapters against what Express answered', () => {
    const skus = results.verification.filter((v) => v.scenario === 'shop-v1-products-sku');
    expect(skus.map((v) => [v.target, v.ok])).toEqual([
      ['nest-express', true],
      ['nest-fastify', true],
    ]);
  });

  it('measures the guarded route with the header its --config scenario sends', () => {
    expect(results.ownApp!.routes.find((r) => r.handler === 'OrdersController.list')!.scenario).toBe('orders');
    expect(results.runs.some((r) => r.scenario === 'orders' && r.status === 'ok')).toBe(true);
  });

  it('reads the combined log format and counts the line it cannot read', () => {
    expect(results.ownApp!.traffic).toEqual({
      file: join(SHOP, 'requests.log'),
      requests: 8,
      matched: 7,
      unmatched: 1,
      unreadable: 1,
    });
  });
});

describe('--nest-app refusals on the command line', () => {
  beforeAll(() => build(SHOP), RUN_TIMEOUT_MS);

  it('refuses a file exporting two @Module classes in one line naming them, exit 2', async () => {
    const refused = await runNode([CLI, '--nest-app', join(SHOP, 'dist', 'index.js'), '--list-routes']);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim()).toMatch(
      /^--nest-app: .*exports 2 @Module classes \(CatalogModule, OrdersModule\); name one as FILE#Export$/,
    );
  });

  it('refuses --traffic without --nest-app', async () => {
    const refused = await runNode([CLI, '--traffic', 'requests.log']);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim()).toBe('--traffic goes with --nest-main dist/main.js or --nest-app FILE; see --help');
  });
});

describe('--nest-app with --packages: examples/express-first-app on other Nest majors', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;
  let results: Results;

  beforeAll(async () => {
    await build(EXAMPLE);
    const app = [
      '--nest-app',
      join(EXAMPLE, 'dist', 'app.module.js#AppModule'),
      '--nest-setup',
      join(EXAMPLE, 'dist', 'setup.js'),
    ];
    // no --runtime: the sets run on the bench's default runtime, which has module.registerHooks
    ({ dir, run, results } = await quickRun(
      [...app, '--packages', 'nest@11,nest@5', '--params', 'id=7', '--scenarios', 'api-users'],
      SETS_PORT,
      [],
    ));
  }, SETS_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports the versions it found installed beside the app', () => {
    expect(run.stderr).toMatch(/--nest-app: found @nestjs\/core 12\.\d+\.\d+, .* installed beside the app/);
  });

  it("measures the app on Nest 11's packages, loaded in place of its own Nest 12", () => {
    expect(run.status, run.stderr).toBe(0);
    const [cell] = results.packages!.cells;
    expect(cell.set).toMatch(/^nest@11\./);
    expect(cell.appVersions!['@nestjs/core']).toBe(cell.set.split('@')[1]);
    expect(results.started.map((s: { line: string }) => s.line)).toEqual([
      expect.stringMatching(/^Nest 11\.\S+ on express 5\.\S+ listening/),
      expect.stringMatching(/^Nest 11\.\S+ on fastify 5\.\S+ listening/),
    ]);
    expect(results.runs.some((r: { scenario: string }) => r.scenario === 'api-users')).toBe(true);
  });

  it('leaves out the set it cannot run on, with the reason in one line, in the report too', () => {
    expect(results.packages!.refused).toEqual([
      { key: expect.stringMatching(/ · nest@5\./), reason: expect.stringMatching(/has no @nestjs\/platform-express/) },
    ]);
    expect(run.stderr).toMatch(/--nest-app on node@\S+ · nest@5\.\S+: not measured: nest@5\.\S+ has no/);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain('### Your app per cell');
  });

  it('refuses a bare framework set beside --nest-app in one line with exit code 2', async () => {
    const refused = await runNode([
      CLI,
      '--nest-app',
      join(EXAMPLE, 'dist', 'app.module.js'),
      '--packages',
      'express@4.21.2',
    ]);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim().split('\n').at(-1)).toBe(
      '--packages: express@4.21.2 is a bare framework; with --nest-app give nest@ sets',
    );
  });
});
