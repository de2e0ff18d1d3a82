import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverRoutes } from '../../../../bench/own-app/routes/discover.js';
import { resolveNestApp } from '../../../../bench/own-app/launch/packages.js';
import { startTarget } from '../../../../bench/run/targets.js';
import { ROOT } from '../../support/run-node.js';

/** Boots a Nest process: seconds on a busy machine. */
const BOOT_TIMEOUT_MS = 30_000;

describe('the setup module loads after the app’s module', () => {
  // inside the repository, so the module finds this repository's @nestjs packages
  const dir = join(ROOT, 'node_modules', '.cache', 'own-app-setup-order');
  beforeAll(() => {
    mkdirSync(dir, { recursive: true });
    // a folder of its own: the servers run there
    writeFileSync(join(dir, 'package.json'), '{ "name": "shop", "private": true }\n');
    writeFileSync(
      join(dir, 'app.module.mjs'),
      [
        "import { Controller, Get, Module } from '@nestjs/common';",
        "globalThis.loaded = [...(globalThis.loaded ?? []), 'module'];",
        // its folder as the app finds it: from PWD, as a shell's cd sets it
        "import { realpathSync } from 'node:fs';",
        'if (realpathSync(String(process.env.PWD)) !== process.cwd()) throw new Error(`PWD is ${process.env.PWD}`);',
        'export class ShopController { list() { return []; } }',
        "Get('shop')(ShopController.prototype, 'list', Object.getOwnPropertyDescriptor(ShopController.prototype, 'list'));",
        'Controller()(ShopController);',
        'export class AppModule {}',
        'Module({ controllers: [ShopController] })(AppModule);',
      ].join('\n'),
    );
    // a setup that imports what the app's own modules import in their own order (circular imports): it must come second
    writeFileSync(
      join(dir, 'setup.mjs'),
      "if (!globalThis.loaded?.includes('module')) throw new Error('the setup loaded before the module');\nexport function configure() {}\n",
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'so the app’s own imports keep their order',
    async () => {
      const app = resolveNestApp(join(dir, 'app.module.mjs'), join(dir, 'setup.mjs'));
      const { routes } = await discoverRoutes(app);
      expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /shop']);
    },
    BOOT_TIMEOUT_MS,
  );
});

describe('a server started in a folder', () => {
  it('has PWD set to that folder, as a shell’s cd would', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-pwd-'));
    const server = join(dir, 'server.cjs');
    writeFileSync(
      server,
      "require('node:http').createServer((q, s) => s.end(process.env.PWD)).listen(Number(process.env.PORT), '127.0.0.1');\n",
    );
    const target = { name: 'in-a-folder', command: ['node', server], cwd: dir, env: {}, portEnv: 'PORT' };
    const node = { spec: 'node', name: 'node', version: process.versions.node, command: process.execPath, args: [] };
    const running = await startTarget(target as never, { runtime: node as never, port: null });
    try {
      expect(await (await fetch(`${running.url}/`)).text()).toBe(dir);
    } finally {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
