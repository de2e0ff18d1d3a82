import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverRoutes } from '../../../../bench/own-app/routes/discover.js';
import { resolveNestApp } from '../../../../bench/own-app/launch/packages.js';
import { refusal } from '../../support/refusal.js';
import { ROOT } from '../../support/run-node.js';

/** An app folder with only the package.json files of the @nestjs packages given: resolution needs no more. */
function appWith(versions: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'nest-app-packages-'));
  for (const [name, version] of Object.entries(versions)) {
    mkdirSync(join(dir, 'node_modules', name), { recursive: true });
    writeFileSync(join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }));
  }
  writeFileSync(join(dir, 'app.module.js'), 'export class AppModule {}\n');
  return dir;
}

describe('resolveNestApp refuses before anything starts', () => {
  const dirs: string[] = [];
  const app = (versions: Record<string, string>) => {
    const dir = appWith(versions);
    dirs.push(dir);
    return join(dir, 'app.module.js');
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('names the install command of a missing platform package, at the major of @nestjs/core', () => {
    const file = app({ '@nestjs/core': '12.5.1', '@nestjs/platform-express': '12.5.1' });
    expect(refusal(() => resolveNestApp(file, null))).toMatch(
      /^--nest-app: @nestjs\/platform-fastify is not installed for .*; run npm i @nestjs\/platform-fastify@12 in the app's folder$/,
    );
  });

  it('refuses a platform package whose major differs from @nestjs/core', () => {
    const file = app({
      '@nestjs/core': '12.5.1',
      '@nestjs/platform-express': '12.5.1',
      '@nestjs/platform-fastify': '11.1.6',
    });
    expect(refusal(() => resolveNestApp(file, null))).toBe(
      "--nest-app: @nestjs/platform-fastify 11.1.6 does not match @nestjs/core 12.5.1; run npm i @nestjs/platform-fastify@12 in the app's folder",
    );
  });

  it('refuses an app without @nestjs/core', () => {
    expect(refusal(() => resolveNestApp(app({}), null))).toMatch(/@nestjs\/core is not installed/);
  });

  it('refuses a file that is not there, or not a compiled module', () => {
    expect(refusal(() => resolveNestApp('/nowhere/app.module.js', null))).toMatch(/no such file; build the app first/);
    expect(refusal(() => resolveNestApp('src/app.module.ts', null))).toMatch(/give the compiled module/);
  });

  it('resolves the versions installed beside the module and the export named after #', () => {
    const file = app({
      '@nestjs/core': '12.5.1',
      '@nestjs/platform-express': '12.5.1',
      '@nestjs/platform-fastify': '12.5.0',
    });
    expect(resolveNestApp(`${file}#ShopModule`, null)).toMatchObject({
      moduleFile: file,
      exportName: 'ShopModule',
      versions: { '@nestjs/platform-fastify': '12.5.0' },
    });
  });
});

/** Each test boots a Nest process: seconds on a busy machine. */
const BOOT_TIMEOUT_MS = 30_000;

describe('discoverRoutes refuses a module file without one module to boot', () => {
  // inside the repository, so the modules find this repository's @nestjs packages
  const dir = join(ROOT, 'node_modules', '.cache', 'nest-app-refusals');
  const write = (name: string, body: string) => {
    writeFileSync(join(dir, name), `import { Module } from '@nestjs/common';\n${body}\n`);
    return resolveNestApp(join(dir, name), null);
  };
  beforeAll(() => mkdirSync(dir, { recursive: true }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the candidates when the file exports two @Module classes', async () => {
    const app = write(
      'two.mjs',
      'export class AModule {}\nModule({ providers: [] })(AModule);\nexport class BModule {}\nModule({ controllers: [] })(BModule);',
    );
    await expect(discoverRoutes(app)).rejects.toThrow(
      /exports 2 @Module classes \(AModule, BModule\); name one as FILE#Export$/,
    );
  });

  it(
    'refuses a file that exports no AppModule and no @Module class',
    async () => {
      const app = write('none.mjs', 'export class Helper {}');
      await expect(discoverRoutes(app)).rejects.toThrow(/exports no AppModule and no @Module class/);
    },
    BOOT_TIMEOUT_MS,
  );

  it(
    'boots the one @Module class a file exports when it is not called AppModule',
    async () => {
      const app = write('one.mjs', 'export class ShopModule {}\nModule({ controllers: [] })(ShopModule);');
      await expect(discoverRoutes(app)).resolves.toEqual({ routes: [], versioning: null, swaggerError: null });
    },
    BOOT_TIMEOUT_MS,
  );
});
