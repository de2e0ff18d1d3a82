import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { discoverRoutes } from '../../../bench/own-app/discover.js';
import { resolveNestApp } from '../../../bench/own-app/packages.js';
import { ROOT } from '../support/run-node.js';

/** Boots a Nest process: seconds on a busy machine. */
const BOOT_TIMEOUT_MS = 30_000;

describe('the setup module stands for main.ts', () => {
  // inside the repository, so the module finds this repository's @nestjs packages
  const dir = join(ROOT, 'node_modules', '.cache', 'own-app-setup-first');
  beforeAll(() => {
    mkdirSync(dir, { recursive: true });
    // a module that reads its settings as it loads, as config files with validation do
    writeFileSync(
      join(dir, 'app.module.mjs'),
      [
        "import { Controller, Get, Module } from '@nestjs/common';",
        "if (!process.env.SHOP_SECRET) throw new Error('SHOP_SECRET is not set');",
        'export class ShopController { list() { return []; } }',
        "Get('shop')(ShopController.prototype, 'list', Object.getOwnPropertyDescriptor(ShopController.prototype, 'list'));",
        'Controller()(ShopController);',
        'export class AppModule {}',
        'Module({ controllers: [ShopController] })(AppModule);',
      ].join('\n'),
    );
    // main.ts's `import 'dotenv/config'`: the environment filled before the module is imported
    writeFileSync(
      join(dir, 'setup.mjs'),
      "process.env.SHOP_SECRET = 'from-the-setup';\nexport function configure() {}\n",
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'is loaded before the module, so what it puts in process.env is there when the module loads',
    async () => {
      const app = resolveNestApp(join(dir, 'app.module.mjs'), join(dir, 'setup.mjs'));
      const { routes } = await discoverRoutes(app);
      expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /shop']);
    },
    BOOT_TIMEOUT_MS,
  );
});
