import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { launcherArgs, launcherEnv } from '../../../../bench/own-app/launch/launcher-env.js';
import { fastifySkips } from '../../../../bench/own-app/launch/main-boot.js';
import { LAUNCHER, resolveNestMain } from '../../../../bench/own-app/launch/packages.js';
import { startTarget } from '../../../../bench/run/targets.js';
import { ROOT } from '../../support/run-node.js';

// --nest-main: the app's own compiled main, run as node runs it, with the launcher preloaded into it.
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const MAIN_APP = join(ROOT, 'test', 'bench', 'fixtures', 'main-app');
const HABITS = join(ROOT, 'test', 'bench', 'fixtures', 'express-habits');
/** Builds and boots Nest processes: seconds each on a busy machine. */
const BOOT_TIMEOUT_MS = 60_000;
const node = { spec: 'node', name: 'node', version: process.versions.node, command: process.execPath, args: [] };

const build = (dir: string) => promisify(execFile)(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json')]);

/** The main's app as the bench starts it on one adapter. */
function mainTarget(app: ReturnType<typeof resolveNestMain>, adapter: 'express' | 'fastify') {
  return {
    name: `main-${adapter}`,
    command: ['node', ...launcherArgs(app, LAUNCHER)],
    cwd: app.cwd,
    env: launcherEnv(app, adapter),
    portEnv: 'PORT',
    url: null,
  };
}

/** Runs main on Fastify up to app.init() and ends: its exit code and stderr. */
function bootOnFastify(app: ReturnType<typeof resolveNestMain>) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, launcherArgs(app, LAUNCHER), {
      cwd: app.cwd,
      env: { ...process.env, ...launcherEnv(app, 'fastify'), NEST_APP_BOOT_ONLY: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

describe('a CommonJS main written for Express (main-app)', () => {
  let app: ReturnType<typeof resolveNestMain>;
  beforeAll(async () => {
    await build(MAIN_APP);
    app = resolveNestMain(join(MAIN_APP, 'dist', 'main.js'), null, null);
  }, BOOT_TIMEOUT_MS);

  it(
    'runs on Express as written, on the bench’s port and host whatever main asks listen() for',
    async () => {
      const running = await startTarget(mainTarget(app, 'express') as never, { runtime: node as never, port: null });
      try {
        // a route behind the prefix and the version that answers signed out
        const answer = await fetch(`${running.url}/api/v1/mock/ping`, {
          headers: { 'x-forwarded-for': '203.0.113.9' },
        });
        expect(answer.status).toBe(200);
        expect(await answer.json()).toEqual({ mocked: true });
      } finally {
        await running.stop();
      }
    },
    BOOT_TIMEOUT_MS,
  );

  it(
    'names each call Fastify cannot take at main.ts’s line, and boots without it',
    async () => {
      expect(await fastifySkips(app)).toEqual([
        {
          call: 'app.set',
          at: join(MAIN_APP, 'src', 'main.ts:11:7'),
          code: "app.set('trust proxy', 1);",
          error: 'TypeError: app.set is not a function',
        },
      ]);
      const running = await startTarget(mainTarget(app, 'fastify') as never, { runtime: node as never, port: null });
      try {
        expect((await fetch(`${running.url}/api/v1/mock/ping`)).status).toBe(200);
      } finally {
        await running.stop();
      }
    },
    BOOT_TIMEOUT_MS,
  );

  it(
    'with --strict stops Fastify’s boot there, in one line naming main.ts’s line',
    async () => {
      const { code, stderr } = await bootOnFastify({ ...app, strict: true });
      expect(code).toBe(1);
      expect(stderr.trim().split('\n').at(-1)).toBe(
        `TypeError: app.set is not a function (app.set in main at ${join(MAIN_APP, 'src', 'main.ts')}:11:7)`,
      );
    },
    BOOT_TIMEOUT_MS,
  );
});

describe('an ES module main (express-habits)', () => {
  it(
    'is run as node runs it, its routes served on both adapters',
    async () => {
      await build(HABITS);
      const app = resolveNestMain(join(HABITS, 'dist', 'main.js'), null, null);
      for (const adapter of ['express', 'fastify'] as const) {
        const running = await startTarget(mainTarget(app, adapter) as never, { runtime: node as never, port: null });
        try {
          expect((await fetch(`${running.url}/shop/items`)).status).toBe(200);
        } finally {
          await running.stop();
        }
      }
    },
    BOOT_TIMEOUT_MS,
  );
});
