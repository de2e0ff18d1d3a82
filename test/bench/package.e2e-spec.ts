import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, type Finished } from './support/run-node.js';

const run = promisify(execFile);
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const NOTES = join(ROOT, 'examples', 'notes-api');
/** npm pack and an install from the npm cache (the registry for what it lacks). */
const INSTALL_TIMEOUT_MS = 300_000;
const RUN_TIMEOUT_MS = 240_000;
const PORT = '3326';

/** The installed CLI run as a user runs it, `npx nest-adapter-bench …`, from `cwd`. */
function npx(project: string, args: string[], cwd: string): Promise<Finished> {
  const bin = join(project, 'node_modules', '.bin', 'nest-adapter-bench');
  const child = spawn(bin, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (status, signal) => resolve({ status, signal, stdout, stderr })));
}

describe('the packed CLI, installed into an empty project', () => {
  let dir: string;
  let project: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-pack-'));
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT });
    const [{ filename }] = JSON.parse(stdout) as { filename: string }[];
    project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'empty-project', private: true }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, filename)], {
      cwd: project,
    });
  }, INSTALL_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('installs the dependencies and none of the devDependencies', () => {
    const installed = (name: string) => existsSync(join(project, 'node_modules', name, 'package.json'));
    expect(installed('autocannon')).toBe(true);
    for (const devOnly of ['typescript', 'vitest', '@nestjs/swagger']) expect(installed(devOnly)).toBe(false);
  });

  it('prints --help with the exit codes', async () => {
    const help = await npx(project, ['--help'], project);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('npx nest-adapter-bench');
    expect(help.stdout).toContain('--nest-app');
  });

  it(
    'measures an example app with --nest-app, its code scanned with the app’s own TypeScript',
    async () => {
      await run(process.execPath, [TSC, '-p', join(NOTES, 'tsconfig.json')]);
      const out = join(dir, 'out');
      const bench = await npx(
        project,
        [
          '--nest-app',
          'dist/notes.module.js',
          '--nest-setup',
          'dist/setup.js',
          '--scenarios',
          'notes',
          '--quick',
          '--duration',
          '0.5',
          '--runtime',
          'node',
          '--port',
          PORT,
          '--out',
          out,
        ],
        NOTES,
      );
      expect(bench.status, bench.stderr).toBe(0);
      const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
      expect(results.ownApp.scan).toMatchObject({ skipped: null });
      expect(results.runs.filter((r: any) => r.status === 'ok').map((r: any) => r.scenario)).toContain('notes');
      for (const report of ['report.md', 'report.html']) expect(existsSync(join(out, report))).toBe(true);
    },
    RUN_TIMEOUT_MS,
  );
});
