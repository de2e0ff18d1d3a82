import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './support/run-node.js';
import { INSTALL_CACHE, NPM_CI, appEnvironment } from './support/app-install.js';

const run = promisify(execFile);
/** A Nest 10 app's manifest and its three lockfiles, as `nest new` and each package manager wrote them. */
const FIXTURE = join(ROOT, 'test', 'bench', 'fixtures', 'nest10-app');
/** An app whose tree holds older copies of packages the bench uses too, hoisted where npm put them. */
const OLDER_HOISTED = join(ROOT, 'test', 'bench', 'fixtures', 'older-hoisted-app');
/** What the bench uses that apps often have older copies of, through their own tools (browserslist, make-dir). */
const SHARED_PACKAGES = ['semver', 'node-releases'];
/** What the bench resolves from the app and must never bring in: the app's stack. */
const APP_STACK =
  /^(@nestjs\/.*|@fastify\/.*|express|fastify|typeorm|@mikro-orm\/.*|prisma|@prisma\/.*|mysql2?|pg|sqlite3|sql\.js|mongodb|mongoose|class-validator|class-transformer|reflect-metadata|rxjs|hono|@hono\/.*)$/;
/** The app's own stack packages, as `npm ls` names them. */
const APP_PACKAGES = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  '@nestjs/platform-fastify',
  'express',
  'fastify',
  'class-validator',
  'class-transformer',
  'reflect-metadata',
  'rxjs',
];
/** Lines a package manager warns with, about an engine range, a peer dependency or anything else. */
const WARNING = /warn|engine|peer/i;
const INSTALL_TIMEOUT_MS = 300_000;

interface Manifest {
  name: string;
  version: string;
}

interface PackageManager {
  lockfile: string;
  /** the app's own install, from its lockfile */
  install: string[];
  /** the tarball added as a devDependency */
  add: (tarball: string) => string[];
}

const MANAGERS: Record<string, PackageManager> = {
  npm: {
    lockfile: 'package-lock.json',
    install: NPM_CI,
    add: (tarball) => [
      'npm',
      'install',
      '--prefer-offline',
      '--save-dev',
      '--no-audit',
      '--no-fund',
      `--cache=${join(INSTALL_CACHE, 'npm')}`,
      tarball,
    ],
  },
  'yarn 1': {
    lockfile: 'yarn.lock',
    install: [
      'npx',
      '--yes',
      'yarn@1.22.22',
      'install',
      '--prefer-offline',
      '--frozen-lockfile',
      '--non-interactive',
      '--no-progress',
    ],
    add: (tarball) => [
      'npx',
      '--yes',
      'yarn@1.22.22',
      'add',
      '--prefer-offline',
      '--dev',
      '--non-interactive',
      '--no-progress',
      `file:${tarball}`,
    ],
  },
  pnpm: {
    lockfile: 'pnpm-lock.yaml',
    install: [
      'npx',
      '--yes',
      'pnpm@10.34.9',
      'install',
      '--prefer-offline',
      '--frozen-lockfile',
      `--store-dir=${join(INSTALL_CACHE, 'pnpm')}`,
    ],
    add: (tarball) => [
      'npx',
      '--yes',
      'pnpm@10.34.9',
      'add',
      '--prefer-offline',
      '--save-dev',
      `--store-dir=${join(INSTALL_CACHE, 'pnpm')}`,
      tarball,
    ],
  },
};

/** Runs a command in the app; its output, stdout and stderr together. */
async function inApp(app: string, [command, ...args]: string[]): Promise<string> {
  const { stdout, stderr } = await run(command, args, { cwd: app, env: appEnvironment(), maxBuffer: 64 << 20 });
  return `${stdout}\n${stderr}`;
}

/** Every copy of an app-stack package in the app's node_modules, by its real folder: `path → name@version`. */
function stackCopies(app: string): Record<string, string> {
  const copies: Record<string, string> = {};
  const visit = (modules: string) => {
    if (!existsSync(modules)) return;
    // symbolic links (pnpm's) are not directories here: each copy is counted once, where it really is
    for (const entry of readdirSync(modules, { withFileTypes: true }).filter((e) => e.isDirectory())) {
      const folder = join(modules, entry.name);
      if (entry.name === '.pnpm') for (const id of readdirSync(folder)) visit(join(folder, id, 'node_modules'));
      else if (entry.name.startsWith('@')) visit(folder);
      else if (!entry.name.startsWith('.')) {
        const { name, version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest;
        if (APP_STACK.test(name)) copies[relative(app, folder)] = `${name}@${version}`;
        visit(join(folder, 'node_modules'));
      }
    }
  };
  visit(join(app, 'node_modules'));
  return copies;
}

/** `npm ls` of the app's stack: what a user compares, resolved versions and all. */
async function npmList(app: string, packages = APP_PACKAGES): Promise<string> {
  // on a pnpm tree npm ls exits 1 over the devDependencies of packages pnpm linked (cors's express 4.16.3): its
  // tree on stdout is still the comparison
  return run('npm', ['ls', ...packages], { cwd: app, env: appEnvironment() }).then(
    ({ stdout }) => stdout,
    (error: { stdout: string }) => error.stdout,
  );
}

describe('the packed bench installed into a Nest 10 app', () => {
  let dir: string;
  let tarball: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-installed-'));
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT });
    const [{ filename }] = JSON.parse(stdout) as { filename: string }[];
    tarball = join(dir, filename);
  }, INSTALL_TIMEOUT_MS);

  // three apps' node_modules take a minute to delete on a busy disk: the tests need not wait for it
  afterAll(() => spawn('rm', ['-rf', dir], { detached: true, stdio: 'ignore' }).unref());

  it.concurrent.each(Object.entries(MANAGERS))(
    'with %s: no warning of its own (engine, peer or other), the app resolving the same stack before and after, and npx nest-adapter-bench --help from the app',
    async (name, manager) => {
      const app = join(dir, name.replace(' ', ''));
      mkdirSync(app);
      for (const file of ['package.json', manager.lockfile]) copyFileSync(join(FIXTURE, file), join(app, file));
      const appWarnings = (await inApp(app, manager.install)).split('\n').filter((line) => WARNING.test(line));
      const copiesBefore = stackCopies(app);
      const listedBefore = await npmList(app);

      const added = await inApp(app, manager.add(tarball));

      const benchWarnings = added.split('\n').filter((line) => WARNING.test(line) && !appWarnings.includes(line));
      expect(benchWarnings).toEqual([]);
      expect(stackCopies(app)).toEqual(copiesBefore);
      expect(Object.values(copiesBefore)).toContain('fastify@4.28.1');
      expect(await npmList(app)).toBe(listedBefore);
      const help = await inApp(app, ['npx', '--yes=false', 'nest-adapter-bench', '--help']);
      expect(help).toContain('npx nest-adapter-bench');
      expect(help).toContain('--nest-app');
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    'with npm, beside older copies of what it uses: the app’s hoisted semver and node-releases stay as they were',
    async () => {
      const app = join(dir, 'older-hoisted');
      mkdirSync(app);
      for (const file of ['package.json', 'package-lock.json'])
        copyFileSync(join(OLDER_HOISTED, file), join(app, file));
      await inApp(app, MANAGERS.npm.install);
      // what the app's own dependencies resolve to, the bench's branch of the tree left out
      const appsOwn = async () => {
        const { dependencies } = JSON.parse(await npmList(app, ['--json', ...SHARED_PACKAGES])) as {
          dependencies: Record<string, unknown>;
        };
        const { ['nest-adapter-bench']: _bench, ...own } = dependencies;
        return own;
      };
      const before = await appsOwn();
      expect(JSON.stringify(before)).toContain('"version":"7.6.3"');
      expect(JSON.stringify(before)).toContain('"version":"2.0.14"');

      await inApp(app, MANAGERS.npm.add(tarball));

      expect(await appsOwn()).toEqual(before);
    },
    INSTALL_TIMEOUT_MS,
  );
});
