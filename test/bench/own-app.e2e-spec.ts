import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT, runNode } from './support/run-node.js';
import { readResults, type Results } from '../../bench/model/results.js';

const EXAMPLE = join(ROOT, 'examples', 'nest-app');
const RUN_TIMEOUT_MS = 180_000;
/** A second loopback address stands in for another host: the url target is not on the bench's 127.0.0.1. */
const REMOTE_HOST = '127.0.0.2';
const REMOTE_PORT = 3395;
const BASE_PORT = '3390';

describe('npm run bench -- --config examples/nest-app/bench.config.json --quick, end to end', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;
  let results: Results;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-own-app-'));
    const config = join(EXAMPLE, 'bench.config.json');
    run = await runNode([CLI, '--runtime', 'node', '--config', config, '--quick', '--out', dir, '--port', BASE_PORT]);
    results = readResults(dir);
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('verifies and measures every scenario of the example on both of its entrypoints', () => {
    expect(run.stderr).not.toMatch(/could not start|skipped|failed/);
    expect(run.status).toBe(0);
    expect(results.verification.map((v) => `${v.target}/${v.scenario}/${v.ok}`).sort()).toEqual(
      ['example-express', 'example-fastify']
        .flatMap((t) => ['item', 'items', 'order'].map((s) => `${t}/${s}/true`))
        .sort(),
    );
    expect(results.config).toMatchObject({
      source: join(EXAMPLE, 'bench.config.json'),
      compare: ['example-fastify', 'example-express'],
    });
    for (const record of results.runs) expect(record.server!.cpuUsPerRequest).toBeGreaterThan(0);
  });

  it('gives a verdict row for its own pair, named after its targets', () => {
    expect(run.stdout).toContain('### Verdict: is example-fastify "almost two times" faster than example-express?');
    for (const scenario of ['items', 'item', 'order'])
      expect(run.stdout).toMatch(new RegExp(`\\| node@[\\d.]+ \\([^)]+\\) \\| ${scenario} \\| \\d+\\.\\d\\d×`));
  });
});

describe('a url target on another address, started by the test', () => {
  let dir: string;
  let server: ChildProcess;
  let run: Awaited<ReturnType<typeof runNode>>;
  let results: Results;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-url-target-'));
    server = spawn(process.execPath, ['src/main.fastify.js'], {
      cwd: EXAMPLE,
      env: { ...process.env, HOST: REMOTE_HOST, PORT: String(REMOTE_PORT) },
      stdio: 'ignore',
    });
    const config = join(dir, 'bench.config.json');
    writeFileSync(
      config,
      JSON.stringify({
        targets: [
          { name: 'local', command: ['node', 'src/main.js'], cwd: EXAMPLE },
          { name: 'remote', url: `http://${REMOTE_HOST}:${REMOTE_PORT}` },
        ],
        scenarios: [{ name: 'items', path: '/items', expect: { status: 200, contentType: 'application/json' } }],
        compare: ['remote', 'local'],
      }),
    );
    // the bench polls a url target once: wait here until the server listens
    for (let i = 0; i < 100; i++) {
      const answered = await fetch(`http://${REMOTE_HOST}:${REMOTE_PORT}/items`).then(
        () => true,
        () => false,
      );
      if (answered) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    run = await runNode([CLI, '--runtime', 'node', '--config', config, '--quick', '--prof', '--port', BASE_PORT]);
    results = JSON.parse(readFileSync(join(dir, 'results', readdirOne(join(dir, 'results')), 'results.json'), 'utf8'));
  }, RUN_TIMEOUT_MS);

  afterAll(() => {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('measures it for load, with no CPU or RSS, and says so', () => {
    expect(run.status).toBe(0);
    const remote = results.runs.filter((r) => r.target === 'remote');
    expect(remote.length).toBeGreaterThan(0);
    for (const record of remote) {
      expect(record.load!.requests).toBeGreaterThan(0);
      expect(record.server).toBeNull();
    }
    expect(results.started.find((s) => s.target === 'remote')).toMatchObject({ pid: null, port: REMOTE_PORT });
    const report = readFileSync(join(dir, 'results', readdirOne(join(dir, 'results')), 'report.md'), 'utf8');
    expect(report).toMatch(/\| remote \|.*url target: runs elsewhere, so no CPU or RSS/);
  });

  it('profiles the started target only, and records why the url target is not profiled', () => {
    const byTarget = Object.fromEntries(results.profiles!.map((p) => [p.target, p]));
    expect(byTarget.local.summary).not.toBeNull();
    expect(byTarget.remote.skipped).toMatch(/a url target runs elsewhere/);
  });

  it('writes results beside the config file by default', () => {
    expect(run.stderr).toContain(`results: ${join(dir, 'results')}`);
  });
});

function readdirOne(path: string): string {
  const entries = readdirSync(path);
  expect(entries).toHaveLength(1);
  return entries[0];
}
