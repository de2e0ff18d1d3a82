import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readResults } from '../../bench/model/results.js';
import { NPM_CI, appEnvironment } from './support/app-install.js';
import { CLI, ROOT, runNode } from './support/run-node.js';

// --nest-main with --baseline DIR: two builds of the Nest 11 main-app fixture in one paired run, the base as its
// lockfile installs it, the candidate a copy whose health route busy-waits 60 µs more a request.
const FIXTURE = join(ROOT, 'test', 'bench', 'fixtures', 'main-app');
const HEALTH = join('src', 'health.controller.ts');
const SLOWER_BY =
  '    const until = process.hrtime.bigint() + 60_000n;\n    while (process.hrtime.bigint() < until);\n';
const INSTALL_TIMEOUT_MS = 300_000;
const RUN_TIMEOUT_MS = 240_000;
// one route, paired rounds enough for a 98 % interval over rounds on a shared host
const GATE_RUN = ['--runtime', 'node', '--scenarios', 'v1-health', '--rounds', '12', '--duration', '0.5'];

const run = promisify(execFile);

describe('--nest-main with --baseline DIR: the candidate and the base build of one app in one paired run', () => {
  let dir: string;
  let base: string;
  let candidate: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-baseline-'));
    base = join(dir, 'base');
    candidate = join(dir, 'candidate');
    const source = (from: string) => !/\/(node_modules|dist)$/.test(from);
    cpSync(FIXTURE, base, { recursive: true, filter: source });
    cpSync(FIXTURE, candidate, { recursive: true, filter: source });
    const [npm, ...ci] = NPM_CI;
    await run(npm, ci, { cwd: base, env: appEnvironment(), maxBuffer: 64 << 20 });
    symlinkSync(join(base, 'node_modules'), join(candidate, 'node_modules'));
    const health = readFileSync(join(candidate, HEALTH), 'utf8');
    writeFileSync(join(candidate, HEALTH), health.replace(/(health\(\) \{\n)/, `$1${SLOWER_BY}`));
    const tsc = join(base, 'node_modules', 'typescript', 'bin', 'tsc');
    for (const app of [base, candidate]) await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app });
  }, INSTALL_TIMEOUT_MS);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const gateRun = (app: string, baseline: string, out: string) =>
    runNode([
      CLI,
      '--nest-main',
      join(app, 'dist', 'main.js'),
      '--baseline',
      baseline,
      ...GATE_RUN,
      '--fail-if-slower',
      '5',
      '--out',
      join(dir, out),
    ]);

  it(
    'exits 4 naming the route when the candidate costs 60 µs more a request, each build named with its folder',
    async () => {
      const bench = await gateRun(candidate, base, 'slower');
      expect(bench.stderr).toMatch(
        /gate: 1 decided slower than -5\.0 % \(nest-express ÷ base-nest-express\):\n- v1-health · bare \(node@[\d.]+\): 0\.\d+×/,
      );
      expect(bench.status).toBe(4);
      const report = readFileSync(join(dir, 'slower', 'report.md'), 'utf8');
      expect(report).toContain('### Verdict: is the candidate build slower than the base?');
      expect(report).toContain(`The **candidate** is nest-express: ${join(candidate, 'dist', 'main.js')}`);
      const { ownApp } = readResults(join(dir, 'slower'));
      expect(ownApp!.builds).toMatchObject({
        candidate: { target: 'nest-express', module: join(candidate, 'dist', 'main.js'), cwd: candidate },
        base: { target: 'base-nest-express', module: join(base, 'dist', 'main.js'), cwd: base },
      });
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'exits 0 with the same build on both sides',
    async () => {
      const bench = await gateRun(base, base, 'same');
      expect(bench.stderr).toContain('gate: no route decided slower than -5.0 % (nest-express ÷ base-nest-express)');
      expect(bench.status).toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  it('refuses a base folder without the build in one line, exit 2', async () => {
    const bench = await runNode([CLI, '--nest-main', join(candidate, 'dist', 'main.js'), '--baseline', dir]);
    expect(bench.stderr.trim()).toMatch(/^--baseline .*: no .*main\.js, where the candidate has dist\/main\.js; build/);
    expect(bench.status).toBe(2);
  });
});
