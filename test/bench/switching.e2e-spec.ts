import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { switchingCost } from '../../bench/analysis/switching-cost.js';
import type { SwitchFinding } from '../../bench/model/findings-record.js';
import { openBrowser, openFile } from '../support/browser.js';
import { CLI, ROOT, runNode } from './support/run-node.js';

// What switching costs, end to end: an app's code scanned, its routes probed on both adapters, each finding with its
// route, place, both answers and fix, and every report opening with the answer.
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const EXAMPLE = join(ROOT, 'examples', 'express-only-api');
const HABITS = join(ROOT, 'test', 'bench', 'fixtures', 'express-habits');
const RUN_TIMEOUT_MS = 240_000;

const build = (dir: string) => promisify(execFile)(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json')]);

async function quickRun(app: string, port: string) {
  await build(app);
  const dir = mkdtempSync(join(tmpdir(), 'bench-switching-'));
  const run = await runNode([
    CLI,
    '--nest-app',
    join(app, 'dist', 'app.module.js'),
    '--nest-setup',
    join(app, 'dist', 'setup.js'),
    '--params',
    'id=1',
    '--quick',
    '--duration',
    '1',
    '--runtime',
    'node',
    '--port',
    port,
    '--out',
    dir,
  ]);
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
  // the findings as the check recorded them: the analysis throws where results.json holds none
  const cost = switchingCost(results.ownApp, [], []);
  return { dir, run, findings: cost?.findings ?? [] };
}

/** A finding with its route, place and fix, as the report shows it. */
interface Expected {
  what: RegExp;
  route: string | null;
  where?: RegExp;
  express?: number;
  fastify?: number;
}

function matching(findings: SwitchFinding[], expected: Expected) {
  return findings.find(
    (f) =>
      expected.what.test(`${f.what} ${f.code ?? ''}`) &&
      (f.route === expected.route || f.alsoOn?.includes(expected.route ?? '')) &&
      (expected.where === undefined || expected.where.test(f.where ?? '')) &&
      (expected.express === undefined || f.answers?.express.status === expected.express) &&
      (expected.fastify === undefined || f.answers?.fastify.status === expected.fastify) &&
      f.fix.length > 0,
  );
}

describe('--nest-app on examples/express-only-api: every Fastify difference it was written with', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;
  let findings: SwitchFinding[];

  beforeAll(async () => {
    ({ dir, run, findings } = await quickRun(EXAMPLE, '3330'));
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // named from the app's root, the folder of its package.json, wherever the bench runs
  const file = (name: string, line: number) => new RegExp(`^src/${name}:${line}$`);
  const EXPECTED: Record<string, Expected> = {
    'a middleware’s req.user, lost': {
      what: /req\.user = /,
      route: null,
      where: file('account/auth.middleware.ts', 9),
    },
    'the route reading it answers without the user': { what: /^body/, route: 'GET /account/me' },
    'cookie-parser given to app.use': { what: /app\.use\(cookie-parser\)/, route: null, where: file('setup.ts', 6) },
    'res.cookie': {
      what: /res\.cookie/,
      route: 'POST /account/login',
      where: file('account/account.controller.ts', 18),
    },
    'the login answers 500': { what: /^status 201 → 500/, route: 'POST /account/login', express: 201, fastify: 500 },
    'req.get': { what: /req\.get/, route: 'GET /account/client', where: file('account/account.controller.ts', 24) },
    'a file interceptor': {
      what: /FileInterceptor\('document'\)/,
      route: 'POST /files',
      where: file('files/files.controller.ts', 12),
    },
    // the route is sent a file as its own request, so Fastify's 415 is its own difference, at its interceptor's line
    'the upload is not parsed': {
      what: /^status 201 → 415/,
      route: 'POST /files',
      where: file('files/files.controller.ts', 12),
      express: 201,
      fastify: 415,
    },
    'redirect(status, url)': {
      what: /res\.redirect\(status, url\)/,
      route: 'GET /notes/latest',
      where: file('notes/notes.controller.ts', 21),
    },
    'res.json': { what: /res\.json/, route: 'GET /notes/:id/card', where: file('notes/notes.controller.ts', 27) },
    'a trailing slash': { what: /^trailing slash/, route: 'GET /notes', express: 200, fastify: 404 },
    'the path in capitals': { what: /^other case/, route: 'GET /notes', express: 200, fastify: 404 },
    'a JSON body over 100 KB': { what: /^body over 100 KB/, route: 'POST /notes', express: 413, fastify: 201 },
  };

  it.each(Object.entries(EXPECTED))('names %s, with its route, place and fix', (_, expected) => {
    expect(matching(findings, expected), JSON.stringify(findings.map((f) => [f.what, f.route, f.where]))).toBeDefined();
  });

  it('folds the req.cookies line and the cookie not read under cookie-parser, whose fix makes both work', () => {
    const cookieParser = findings.find((f) => f.what === 'app.use(cookie-parser)');
    expect(cookieParser?.shared?.symptoms.map((s) => [s.source, s.what, s.where ?? s.request])).toEqual([
      ['code', 'req.cookies', 'src/account/account.controller.ts:13'],
      ['probe', 'cookies', 'GET /account/preferences'],
    ]);
    expect(findings.filter((f) => f.what === 'req.cookies' || f.what === 'cookies')).toEqual([]);
  });

  it('says the upload once, at its interceptor’s line, with the route’s answers', () => {
    expect(findings.filter((f) => f.where?.endsWith('files/files.controller.ts:12'))).toHaveLength(1);
  });

  it('shows the lost user with both bodies, and exits 0: findings are not failures', () => {
    expect(run.status, run.stderr).toBe(0);
    const lost = matching(findings, EXPECTED['the route reading it answers without the user']);
    expect(lost?.answers?.express.body).toBe('{"user":{"name":"guest"}}');
    expect(lost?.answers?.fastify.body).toBe('{"user":null}');
  });

  it('puts the switching section in the log and in report.md, with the places to change', () => {
    for (const text of [run.stdout, readFileSync(join(dir, 'report.md'), 'utf8')]) {
      expect(text).toContain('### What switching costs');
      // no upload probe: the route's own request carries its file
      expect(text).toContain('each route’s own request (a file, where its handler takes one), and probes');
      expect(text).toMatch(
        /\| `GET \/notes\/:id\/card` \| `[^`]*notes\.controller\.ts:27`: `res\.status\(200\)\.json\(\{ title \}\);` \|/,
      );
    }
  });

  it('opens every report with the answer, the method after it, and the log with what switching costs', async () => {
    const opening = /^\*\*node@[\d.]+ \([^)]+\)\*\*: nest-fastify served .+ as many req\/s as nest-express\./;
    // POST /files among them: sent a file, it answers 415 on Fastify
    // led by what What to change for Fastify leads with: the middleware whose req.user Fastify's request does not get
    const lead = 'first src/account/auth\\.middleware\\.ts:\\d+, in a middleware registered for \\d+ routes';
    expect(run.stdout).toMatch(
      new RegExp(`^\\*\\*Switching\\*\\*: ${lead}[^\\n]*6 of your routes answer differently`, 'm'),
    );
    // report.md: the one-sentence answer and its picture, then the answer in full
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8').split('\n').slice(6).join('\n');
    expect(markdown).toMatch(opening);
    expect(markdown.indexOf('**Switching**')).toBeLessThan(markdown.indexOf('The NestJS docs'));
    const browser = await openBrowser();
    try {
      const { page, errors } = await openFile(browser, join(dir, 'report.html'));
      const decision = await page.locator('h1 + figure.answer + div.decision').innerText();
      expect(decision).toMatch(/nest-fastify served/);
      expect(decision).toMatch(new RegExp(`Switching: ${lead}[^\\n]*6 of your routes answer differently`));
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('--nest-app on an app written for Express with a dozen known Fastify differences', () => {
  let dir: string;
  let findings: SwitchFinding[];

  beforeAll(async () => {
    ({ dir, findings } = await quickRun(HABITS, '3334'));
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Kept here, not in the app: what a switch to Fastify changes in it, found by reading it.
  const KNOWN: Expected[] = [
    { what: /res\.json/, route: 'GET /shop/items/:id/summary', where: /items\.controller\.ts:\d+$/ },
    { what: /res\.sendStatus/, route: 'POST /shop/items/:id/archive', where: /items\.controller\.ts:\d+$/ },
    { what: /req\.get/, route: 'GET /shop/items/:id/price', where: /items\.controller\.ts:\d+$/ },
    { what: /req\.path/, route: 'GET /shop/visits/where', where: /visits\.controller\.ts:\d+$/ },
    { what: /redirect\(status, url\)/, route: 'GET /shop/items/catalogue', where: /items\.controller\.ts:\d+$/ },
    { what: /req\.tenant = /, route: null, where: /tenant\.middleware\.ts:\d+$/ },
    { what: /response\.json/, route: null, where: /json-error\.filter\.ts:\d+$/ },
    { what: /res\.cookie/, route: 'POST /shop/visits', where: /visits\.controller\.ts:\d+$/ },
    { what: /req\.cookies/, route: 'GET /shop/visits/last', where: /visits\.controller\.ts:\d+$/ },
    { what: /FileInterceptor/, route: 'POST /shop/items/:id/photo', where: /items\.controller\.ts:\d+$/ },
    { what: /res\.locals/, route: 'POST /shop/visits', where: /visits\.controller\.ts:\d+$/ },
    { what: /^trailing slash/, route: 'GET /shop/items' },
    { what: /^other case/, route: 'GET /shop/items' },
    { what: /^body over 100 KB/, route: 'POST /shop/items' },
    { what: /enableCors\(\) without methods/, route: null, where: /setup\.ts:8$/ },
    { what: /^preflight/, route: 'PATCH /shop/items/:id', express: 204, fastify: 204 },
    { what: /app\.listen\(\) without a host/, route: null, where: /main\.ts:7$/ },
  ];

  it('names at least 14 of them, each with its route, its file and line where it is code, and a fix', () => {
    const named = KNOWN.filter((expected) => matching(findings, expected));
    expect(named.length, JSON.stringify(findings.map((f) => [f.what, f.route, f.where]))).toBeGreaterThanOrEqual(14);
  });

  it('shows a browser’s PATCH preflight allowed by Express and refused by Fastify’s @fastify/cors defaults', () => {
    const preflight = findings.find((f) => f.what === 'preflight' && f.route === 'PATCH /shop/items/:id');
    expect(preflight?.kind).toBe('breaks');
    expect(preflight?.answers?.express.headers?.['access-control-allow-methods']).toContain('PATCH');
    expect(preflight?.answers?.fastify.headers?.['access-control-allow-methods']).toBe('GET,HEAD,POST');
    expect(preflight?.answers?.fastify.headers?.['access-control-allow-origin']).toBe('https://shop.example');
    // a GET's preflight, which both allow, is no finding
    expect(
      findings
        .filter((f) => f.what === 'preflight')
        .map((f) => [f.route, ...(f.alsoOn ?? [])])
        .flat(),
    ).toEqual(['PATCH /shop/items/:id']);
  });

  it('leads with the causes many routes share, each once with the routes it reaches: the tenant middleware, the items controller’s filter', () => {
    const routes: Array<{ handler: string }> = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).ownApp
      .routes;
    const middleware = findings.find((f) => f.shared?.role === 'middleware');
    const filter = findings.find((f) => f.shared?.role === 'filter');
    expect(middleware?.where).toMatch(/tenant\.middleware\.ts:\d+$/);
    expect(middleware?.shared?.routes).toBe(routes.length);
    expect(findings.indexOf(middleware!), JSON.stringify(findings.map((f) => [f.what, f.reach]))).toBe(0);
    expect(filter?.where).toMatch(/json-error\.filter\.ts:\d+$/);
    expect(filter?.shared?.routes).toBe(routes.filter((r) => r.handler.startsWith('ItemsController.')).length);
    expect(filter?.fix).toMatch(/^response\.status\(status\)\.send\(body\)/);
  });

  it('says helmet and compression work on Fastify, as their headers on Fastify’s answers showed', () => {
    for (const pkg of ['helmet', 'compression']) {
      const used = findings.find((f) => f.what === `app.use(${pkg})`);
      expect(used?.kind, used?.onFastify).toBe('works');
      expect(used?.onFastify).toMatch(/seen, .* on Fastify’s answers as on Express’s/);
    }
  });

  it('states every probe with the status Fastify answered, and a 415 with its content type and plugin', () => {
    const probes = findings.filter((f) => f.source === 'probe');
    expect(probes.length).toBeGreaterThan(0);
    for (const f of probes) {
      expect(f.onFastify).toContain(String(f.answers?.fastify.status));
      if (f.answers?.fastify.status === 415) expect(f.onFastify).toMatch(/415 Unsupported Media Type to [a-z]+\//);
      if (f.answers?.fastify.status === 415) expect(f.fix).toMatch(/@fastify\/(formbody|multipart)/);
    }
  });
});
