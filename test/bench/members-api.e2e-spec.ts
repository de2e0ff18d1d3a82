import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { analyze } from '../../bench/analysis/analyze.js';
import { releaseStatus } from '../../bench/model/release-status.js';
import { ROOT, type Finished } from './support/run-node.js';
import { readResults, type Results } from '../../bench/model/results.js';

const run = promisify(execFile);
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const APP = join(ROOT, 'examples', 'members-api');
/** What examples/members-api/.env names; CI creates the database (.ci/run), this spec empties it. */
const DATABASE = 'members_api';
const POSTGRES = { host: '127.0.0.1', port: 5432, user: 'postgres' };
/** npm pack and an install from the npm cache (the registry for what it lacks). */
const INSTALL_TIMEOUT_MS = 300_000;
const RUN_TIMEOUT_MS = 600_000;
const PORT = '3326';

/** The installed CLI as a user runs it, `npx nest-adapter-bench …`, from `cwd`. */
function npx(project: string, args: string[], cwd: string): Promise<Finished> {
  const bin = join(project, 'node_modules', '.bin', 'nest-adapter-bench');
  const child = spawn(bin, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (status, signal) => resolve({ status, signal, stdout, stderr })));
}

async function query(database: string, sql: string, values: unknown[] = []) {
  const client = new pg.Client({ ...POSTGRES, database });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** A fresh database, so every run signs up the bench's account anew. */
async function recreateDatabase() {
  await query('postgres', `DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await query('postgres', `CREATE DATABASE ${DATABASE}`);
}

describe('the packed CLI, installed into an empty project, on examples/members-api', () => {
  let dir: string;
  let project: string;
  let out: string;
  let bench: Finished;
  let results: Results;

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

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(join(APP, 'uploads'), { recursive: true, force: true });
  });

  it('installs the dependencies inside its own package (bundled) and none of the devDependencies', () => {
    const bench = join(project, 'node_modules', 'nest-adapter-bench');
    const installed = (root: string, name: string) => existsSync(join(root, 'node_modules', name, 'package.json'));
    expect(installed(bench, 'autocannon')).toBe(true);
    for (const devOnly of ['typescript', 'vitest', '@nestjs/swagger'])
      for (const root of [project, bench]) expect(installed(root, devOnly), `${devOnly} in ${root}`).toBe(false);
  });

  it('prints --help', async () => {
    const help = await npx(project, ['--help'], project);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('npx nest-adapter-bench');
    expect(help.stdout).toContain('--nest-app');
  });

  it('refuses the built-in setup, which ships with a clone only, in one line', async () => {
    const builtIn = await npx(project, ['--quick', '--runtime', 'node'], project);
    expect(builtIn.status).toBe(2);
    expect(builtIn.stderr.trim()).toBe(
      'the built-in setup: the built-in app ships with a clone of nest-adapter-bench, not with its npm package; ' +
        'give --nest-app (your Nest module) or --config (your servers)',
    );
  });

  describe('--nest-app on the app, run from another folder, on the runtime it finds', () => {
    /** The node `#!/usr/bin/env node` finds, which runs the installed CLI. */
    let runningNode: string;
    let analysis: ReturnType<typeof analyze>;

    beforeAll(async () => {
      runningNode = (await run('node', ['--version'])).stdout.trim().slice(1);
      await run(process.execPath, [TSC, '-p', join(APP, 'tsconfig.json')]);
      await recreateDatabase();
      out = join(dir, 'out');
      bench = await npx(
        project,
        [
          '--nest-app',
          join(APP, 'dist', 'app.module.js'),
          '--nest-setup',
          join(APP, 'dist', 'bench.setup.js'),
          '--quick',
          '--port',
          PORT,
          '--out',
          out,
        ],
        project,
      );
      results = readResults(out);
      analysis = analyze(results);
    }, RUN_TIMEOUT_MS);
    const findings = (what: string) => analysis.switching?.findings.filter((f) => f.what === what) ?? [];

    const route = (method: string, path: string) =>
      results.ownApp!.routes.find((r) => r.method === method && r.path === `/api/v1${path}`)!;
    const timedOn = (scenario: string) =>
      results.runs
        .filter((r) => r.scenario === scenario && r.status === 'ok')
        .map((r) => r.target)
        .sort();
    const BOTH_ROUNDS = ['nest-express', 'nest-express', 'nest-fastify', 'nest-fastify'];

    it('writes results.json, report.md and report.html, and exits 0', () => {
      for (const file of ['results.json', 'report.md', 'report.html'])
        expect(existsSync(join(out, file)), `${file}\n${bench.stderr}`).toBe(true);
      expect(bench.status, bench.stderr).toBe(0);
    });

    it('keeps the signed-in account: DELETE /me is listed with why and the flag, never sent, and the row is there', async () => {
      expect(route('DELETE', '/auth/me')).toMatchObject({
        scenario: null,
        notMeasured: expect.stringContaining('removes the signed-in account'),
      });
      expect(route('DELETE', '/auth/me').notMeasured).toContain("--time-write 'DELETE /api/v1/auth/me'");
      expect(results.runs.filter((r) => r.scenario === 'delete-api-v1-auth-me')).toEqual([]);
      const [account] = await query(DATABASE, 'SELECT "deletedAt" FROM "user" WHERE email = $1', ['bench@example.com']);
      expect(account).toEqual({ deletedAt: null });
    });

    it('times PATCH /me sent the account’s own current values from GET /me, and the account is as it was', async () => {
      expect(route('PATCH', '/auth/me')).toMatchObject({
        scenario: 'patch-api-v1-auth-me',
        notMeasured: null,
        body: 'current values',
        bodySources: ['GET /api/v1/auth/me'],
      });
      expect(timedOn('patch-api-v1-auth-me')).toEqual(BOTH_ROUNDS);
      // as src/bench.setup.ts's BENCH_ACCOUNT registered it
      const [account] = await query(
        DATABASE,
        'SELECT "firstName", "lastName", "deletedAt" FROM "user" WHERE email = $1',
        ['bench@example.com'],
      );
      expect(account).toEqual({ firstName: 'Bench', lastName: 'Account', deletedAt: null });
    });

    it('creates users with a role id GET /roles listed (the app answers 422 to any other), and gives them a ratio', () => {
      expect(route('POST', '/users')).toMatchObject({ scenario: 'post-api-v1-users', body: 'derived' });
      expect(timedOn('post-api-v1-users')).toEqual(BOTH_ROUNDS);
      expect(bench.stdout).toMatch(/\| post-api-v1-users \| \d\.\d\d× \|/);
    });

    it('runs the app in its own folder: its .env and its mail template are found, and the report names the folder', () => {
      expect(results.ownApp!.cwd).toBe(APP);
      // signing in registers the account, which renders templates/welcome.html: on both adapters
      expect(results.ownApp!.signIn!.errors).toEqual({ 'nest-express': null, 'nest-fastify': null });
      expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain(`Its servers ran in ${APP}`);
    });

    it('is not shut down by the bench, though it calls enableShutdownHooks()', () => {
      // a backlog (answers still coming after a loaded round) is no end of the process; a crash or a hang would be
      expect((results.drains ?? []).filter((d) => d.outcome !== 'backlog')).toEqual([]);
      expect(timedOn('post-api-v1-auth-email-register')).toEqual(BOTH_ROUNDS);
    });

    it('reads the app’s code with the app’s own TypeScript, from its source maps', () => {
      expect(results.ownApp!.scan!.skipped).toBeNull();
      expect(results.ownApp!.scan!.fromSourceMaps).toBeGreaterThan(0);
    });

    it('runs on the node that runs the bench, past end of life or not, and names its release status', () => {
      const runtime = `node@${runningNode}`;
      const status = releaseStatus({ name: 'node', version: runningNode }, results.startedAt).text;
      expect(results.plan.runtimes).toEqual([runtime]);
      expect(bench.stderr).toContain(`runtime: ${runtime} (${status}), the node running the bench`);
      expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain(`${runtime} (${status})`);
    });

    it('calls helmet, compression and morgan through app.use working, in main.ts and in the setup alike', () => {
      for (const middleware of ['helmet', 'compression', 'morgan']) {
        const places = [
          ...findings(`app.use(${middleware})`).map((f) => ({ kind: f.kind, where: f.where })),
          ...findings(`app.use(${middleware})`).flatMap((f) =>
            (f.alsoOn ?? []).map((where) => ({ kind: f.kind, where })),
          ),
        ];
        expect(
          places.map((p) => p.where?.split(':')[0]).sort((a, b) => String(a).localeCompare(String(b))),
          middleware,
        ).toEqual(['src/bench.setup.ts', 'src/main.ts']);
        for (const place of places) expect(place.kind, `${middleware} at ${place.where}`).toBe('works');
      }
      // helmet's headers were on Fastify's answers as on Express's
      expect(findings('app.use(helmet)')[0].onFastify).toMatch(/seen, helmet’s headers on Fastify’s answers/);
    });

    it('finds main.ts’s enableCors without methods, named from the app’s root, where the routes take PATCH and DELETE', () => {
      const cors = findings('app.enableCors() without methods');
      expect(cors.map((f) => f.where).sort()).toEqual(['src/bench.setup.ts:22', 'src/main.ts:20']);
      for (const finding of cors) {
        expect(finding.kind).toBe('breaks');
        expect(finding.onFastify).toMatch(/GET,HEAD,POST by default.*your routes take PATCH, DELETE/);
        expect(finding.fix).toContain("methods: 'GET,HEAD,PUT,PATCH,POST,DELETE'");
      }
    });

    it('times the export with its own 429 guard lifted (issue 52 §1), where it was refused and left unmeasured', () => {
      expect(analysis.refusals.filter((r) => r.scenario === 'api-v1-users-export')).toEqual([]);
      expect(analysis.ratios.filter((r) => r.scenario === 'api-v1-users-export')).not.toEqual([]);
      expect(readFileSync(join(out, 'report.md'), 'utf8')).not.toContain(
        '**Refused, not measured: api-v1-users-export**',
      );
    });

    it('builds Fastify’s adapter with the setup’s adapterOptions: a trailing slash answers there as on Express', () => {
      expect(results.ownApp!.adapters).toEqual({
        fastify: 'adapterOptions.fastify {"routerOptions":{"ignoreTrailingSlash":true}}',
      });
      // a probe is kept where the adapters answered differently: without the option, every GET route's 404 on Fastify
      const trailing = results.ownApp!.compatibility.routes.flatMap((r) =>
        (r.probes ?? []).filter((p) => p.probe === 'trailing slash'),
      );
      expect(trailing).toEqual([]);
      expect(findings('trailing slash')).toEqual([]);
    });
  });
});
