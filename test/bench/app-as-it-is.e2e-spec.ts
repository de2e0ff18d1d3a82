import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT, runNode } from './support/run-node.js';
import { readResults, type Results } from '../../bench/model/results.js';

const APP_DIR = join(ROOT, 'test', 'bench', 'fixtures', 'app-as-it-is');
const RUN_TIMEOUT_MS = 240_000;

function bench(out: string, port: string, extra: string[] = [], setup = 'setup.js') {
  return runNode([
    CLI,
    '--nest-app',
    join(APP_DIR, 'src', 'app.module.js'),
    '--nest-setup',
    join(APP_DIR, 'src', setup),
    '--quick',
    '--port',
    port,
    '--out',
    out,
    ...extra,
  ]);
}

describe('--nest-app on an app as it lives: shutdown hooks on every signal, its .env and files in its own folder', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;
  let results: Results;
  let markdown: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-as-it-is-'));
    run = await bench(join(dir, 'out'), '3360');
    results = readResults(join(dir, 'out'));
    markdown = readFileSync(join(dir, 'out', 'report.md'), 'utf8');
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('measures both routes on both adapters and exits 0, though the app closes itself on SIGUSR2 and SIGHUP', () => {
    expect(run.status, run.stderr).toBe(0);
    for (const scenario of ['greeting', 'items']) {
      const runs = results.runs.filter((r) => r.scenario === scenario);
      expect(new Set(runs.map((r) => r.target))).toEqual(new Set(['nest-express', 'nest-fastify']));
      for (const r of runs) expect(r.status, `${scenario} ${r.target}`).toBe('ok');
    }
    expect(results.drains?.filter((d) => d.outcome === 'crashed') ?? []).toEqual([]);
  });

  it("reads each server's telemetry between its runs without stopping it", () => {
    const observed = results.runs.filter((r) => r.state);
    expect(observed.length).toBe(results.runs.length);
    expect(results.started.filter((s) => s.restarted)).toEqual([]);
  });

  it("runs the servers in the app's root, where its .env and template are found, and names that folder", () => {
    const greeting = results.ownApp!.compatibility.routes.find((r) => r.scenario === 'greeting');
    expect(greeting!.expect!.body).toEqual({ greeting: 'hello from the app folder', letter: 'Dear you,\n' });
    expect(results.ownApp!.cwd).toBe(APP_DIR);
    expect(markdown).toContain(`Its servers ran in ${APP_DIR}`);
  });

  it("finds Fastify's trailing-slash difference while the adapter runs on its defaults", () => {
    const items = results.ownApp!.compatibility.routes.find((r) => r.scenario === 'items');
    expect(items!.probes!.map((p) => p.probe)).toContain('trailing slash');
  });
});

describe('--nest-app where Fastify does not boot (a setup written for Express alone)', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-no-boot-'));
    run = await bench(dir, '3364', [], 'express-only-setup.js');
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 3, nothing compared, and still writes results.json, report.md and report.html', () => {
    expect(run.status, run.stderr).toBe(3);
    for (const file of ['results.json', 'report.md', 'report.html'])
      expect(existsSync(join(dir, file)), file).toBe(true);
  });

  it("opens the report with Fastify's boot failure: the app's error, the setup's file:line and the fix", () => {
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    const headline = markdown.split('\n').find((line) => line.trim() !== '' && !line.startsWith('#'));
    expect(headline).toContain('**Nest-Fastify did not boot**');
    expect(headline).toContain('TypeError: app.enable is not a function');
    expect(headline).toContain(`(configure(app) at \`${join(APP_DIR, 'src', 'express-only-setup.js')}:5:7\`)`);
    expect(headline).toContain('trustProxy');
    expect(run.stdout).toContain('Nest-Fastify did not boot');
  });
});

describe("--nest-app with the fix applied: the setup module's adapterOptions build Fastify's adapter", () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;
  let results: Results;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-fix-'));
    run = await bench(dir, '3368', ['--scenarios', 'items'], 'fastify-options-setup.js');
    results = readResults(dir);
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers a trailing slash on Fastify as Express does, and the report says how the adapter was built', () => {
    expect(run.status, run.stderr).toBe(0);
    const items = results.ownApp!.compatibility.routes.find((r) => r.scenario === 'items');
    expect(items!.probes!.map((p) => p.probe)).not.toContain('trailing slash');
    expect(results.ownApp!.adapters).toEqual({ fastify: 'adapterOptions.fastify {"ignoreTrailingSlash":true}' });
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain(
      `fastify's adapter: adapterOptions.fastify {"ignoreTrailingSlash":true}.`,
    );
  });
});
