import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UsageError } from '../../bench/errors.js';
import { parseWrkSummary } from '../../bench/packages/nest-benchmark.js';
import { cellText, ERA_ITEMS, planCells, SPLIT_ITEMS } from '../../bench/packages/set-specs.js';
import { engineConflict, installedSet, resolveSet } from '../../bench/packages/sets.js';
import { parseOptions } from './support/options.js';
import { SET_CONFIG_SHAPE, setConfig } from '../../bench/packages/set-config.js';

const DATE = '2026-11-25T00:00:00Z';
const RUNNING = [{ text: 'node', name: 'node' as const, range: null }];

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('it did not throw');
}

async function asyncRefusal(run: () => Promise<unknown>): Promise<string> {
  const error = await run().then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UsageError);
  return (error as Error).message;
}

/** What `npm view` would say of a registry holding these releases. */
function registry(versions: Record<string, string[]>, peers: Record<string, Record<string, string>> = {}) {
  return async (pkg: string, field: string) => {
    if (field === 'versions') {
      if (!(pkg in versions)) throw new UsageError(`the registry has no package ${pkg}`);
      return versions[pkg];
    }
    return peers[pkg] ?? null;
  };
}

const NEST_REGISTRY = registry(
  {
    '@nestjs/core': ['9.4.3', '10.0.0', '10.4.22', '11.0.0', '12.0.0-beta.1'],
    '@nestjs/common': ['9.4.3', '10.0.0', '10.4.22', '11.0.0'],
    '@nestjs/platform-express': ['9.4.3', '10.0.0', '10.4.22', '11.0.0'],
    '@nestjs/platform-fastify': ['9.4.3', '10.0.0', '10.4.20', '11.0.0'],
    express: ['4.21.2', '5.0.0'],
    '@nestjs/typeorm': ['7.1.5', '9.0.1', '10.0.0', '10.0.2', '11.0.0'],
    typeorm: ['0.2.45', '0.3.20', '0.3.31', '1.0.0-dev.1', '1.1.1'],
  },
  {
    '@nestjs/common@10.4.22': { rxjs: '^7.1.0', 'reflect-metadata': '^0.1.12 || ^0.2.0', 'class-validator': '*' },
    '@nestjs/typeorm@10.0.2': { typeorm: '^0.3.0' },
    '@nestjs/typeorm@9.0.1': { typeorm: '^0.2.7' },
  },
);

describe('planCells', () => {
  it('runs every set under every runtime given', () => {
    const runtimes = [
      { text: 'node@22', name: 'node' as const, range: '22' },
      { text: 'node@24', name: 'node' as const, range: '24' },
    ];
    const cells = planCells('nest@10,express@4.21.2', runtimes, { runtimeGiven: true, date: DATE });
    expect(cells.map(cellText)).toEqual([
      'nest@10 on node@22',
      'nest@10 on node@24',
      'express@4.21.2 on node@22',
      'express@4.21.2 on node@24',
    ]);
    expect(cells[2].set).toEqual({ text: 'express@4.21.2', kind: 'express', range: '4.21.2' });
  });

  it('runs an item that names its runtime there alone, even one older than the app supports', () => {
    const [cell] = planCells('nest@7/node@12', RUNNING, { runtimeGiven: false, date: DATE });
    expect(cellText(cell)).toBe('nest@7 on node@12');
    expect(cell.runtime).toEqual({ text: 'node@12', name: 'node', range: '12' });
  });

  it('expands eras and split into their cells, a cell in both once', () => {
    const cells = planCells('eras,split', RUNNING, { runtimeGiven: false, date: DATE });
    expect(cells).toHaveLength(new Set([...ERA_ITEMS, ...SPLIT_ITEMS]).size);
    expect(cells.filter((cell) => cellText(cell) === 'nest@12 on node@24')).toHaveLength(1);
  });

  it('refuses a set it does not know, in one line naming the accepted forms', () => {
    const message = refusal(() => planCells('koa@2', RUNNING, { runtimeGiven: false, date: DATE }));
    expect(message).toMatch(/^--packages: "koa@2" is not a package set; use nest@<major>/);
    expect(message).not.toContain('\n');
  });

  it('refuses a set listed twice, and --runtime beside an item naming its own', () => {
    expect(refusal(() => planCells('nest@10,nest@10', RUNNING, { runtimeGiven: false, date: DATE }))).toBe(
      '--packages: nest@10 on node is listed twice; list it once',
    );
    expect(refusal(() => planCells('nest@7/node@12', RUNNING, { runtimeGiven: true, date: DATE }))).toMatch(
      /names the runtime of its set; drop --runtime/,
    );
  });
});

describe('resolveSet', () => {
  it('takes the newest stable release of the line, and the platforms up to core', async () => {
    const resolved = await resolveSet({ text: 'nest@10', kind: 'nest', range: '10' }, NEST_REGISTRY);
    expect(resolved.anchors).toEqual({
      '@nestjs/core': '10.4.22',
      '@nestjs/common': '10.4.22',
      '@nestjs/platform-express': '10.4.22',
      '@nestjs/platform-fastify': '10.4.20',
    });
  });

  it('installs the companions at the ranges @nestjs/common asks its peers for, else the newest', async () => {
    const { companions } = await resolveSet({ text: 'nest@10', kind: 'nest', range: '10' }, NEST_REGISTRY);
    expect(companions).toEqual({
      'reflect-metadata': '^0.1.12 || ^0.2.0',
      rxjs: '^7.1.0',
      'class-validator': 'latest',
      'class-transformer': 'latest',
    });
  });

  it("takes the major's newest @nestjs/typeorm and the newest TypeORM it asks for, with the app's drivers", async () => {
    const { database } = await resolveSet({ text: 'nest@10', kind: 'nest', range: '10' }, NEST_REGISTRY);
    expect(database).toEqual({
      packages: {
        '@nestjs/typeorm': '10.0.2',
        typeorm: '0.3.31',
        'sql.js': expect.stringMatching(/^\^1\./),
        mysql2: expect.stringMatching(/^\^3\./),
      },
      refused: null,
    });
  });

  it("gives a set no DB routes, saying why, when its TypeORM predates the app's API", async () => {
    const { database } = await resolveSet({ text: 'nest@9', kind: 'nest', range: '9' }, NEST_REGISTRY);
    expect(database).toEqual({
      packages: {},
      refused:
        "@nestjs/typeorm 9.0.1 asks for typeorm ^0.2.7 (newest 0.2.45); the app's services need typeorm >=0.3.0 (DataSource, findOneBy)",
    });
  });

  it('gives Nest 5, whose adapters live in @nestjs/core, Fastify 1 and its body parser instead of platform packages', async () => {
    const nest5 = registry({
      '@nestjs/core': ['5.7.4', '6.0.0'],
      '@nestjs/common': ['5.7.4', '6.0.0'],
      '@nestjs/platform-express': ['6.0.0'],
      '@nestjs/platform-fastify': ['6.0.0'],
      '@nestjs/typeorm': ['5.3.0'],
      typeorm: ['0.2.45'],
    });
    const resolved = await resolveSet({ text: 'nest@5', kind: 'nest', range: '5' }, nest5);
    expect(resolved.anchors).toEqual({ '@nestjs/core': '5.7.4', '@nestjs/common': '5.7.4' });
    expect(resolved.companions).toMatchObject({ fastify: '1', 'fastify-formbody': '2' });
    expect(resolved.database.refused).toMatch(/^@nestjs\/typeorm 5\.3\.0 asks for typeorm \(none\)/);
  });

  it('refuses a version the registry does not have, naming the package', async () => {
    const message = await asyncRefusal(() => resolveSet({ text: 'nest@99', kind: 'nest', range: '99' }, NEST_REGISTRY));
    expect(message).toBe('--packages: nest@99: no @nestjs/core release matches 99 in the npm registry');
    expect(
      await asyncRefusal(() => resolveSet({ text: 'express@4.99.0', kind: 'express', range: '4.99.0' }, NEST_REGISTRY)),
    ).toBe('--packages: express@4.99.0: no express release matches 4.99.0 in the npm registry');
  });

  it('refuses before installing anything when the registry has no such release', async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'packages-spec-'));
    try {
      await asyncRefusal(() =>
        installedSet({ text: 'nest@99', kind: 'nest', range: '99' }, { cacheDir, view: NEST_REGISTRY }),
      );
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});

describe('engineConflict', () => {
  const nest12 = { engines: { '@nestjs/core': '>= 20', express: '>= 18' } };

  it('names the first package whose engines exclude the runtime line, before it is downloaded', () => {
    expect(engineConflict(nest12, '10')).toEqual({ name: '@nestjs/core', engines: '>= 20' });
    expect(engineConflict(nest12, '24')).toBeNull();
  });

  it('checks an installed runtime by its exact version', () => {
    expect(engineConflict(nest12, '19.9.0')).toEqual({ name: '@nestjs/core', engines: '>= 20' });
    expect(engineConflict(nest12, '20.0.0')).toBeNull();
  });
});

describe('--packages options', () => {
  it('measures every era app route, the DB routes among them where a cell has them, on the bare stack by default', () => {
    const options = parseOptions(['--packages', 'nest@10'], SET_CONFIG_SHAPE);
    expect(options.packages).toBe('nest@10');
    expect(options.scenarios).toEqual(SET_CONFIG_SHAPE.scenarios.map((s) => s.name));
    expect(options.scenarios).toEqual(expect.arrayContaining(['hello', 'json', 'orders', 'products', 'purchases']));
    expect(options.stacks).toEqual(['bare']);
  });

  it('refuses --nest-benchmark without --packages, and --packages beside --prof or --config', () => {
    expect(refusal(() => parseOptions(['--nest-benchmark']))).toBe(
      '--nest-benchmark runs on package sets; add --packages',
    );
    expect(refusal(() => parseOptions(['--packages', 'nest@10', '--prof'], SET_CONFIG_SHAPE))).toMatch(
      /^--prof profiles one set of servers per runtime/,
    );
    expect(refusal(() => parseOptions(['--packages', 'nest@10', '--config', 'x.json'], SET_CONFIG_SHAPE))).toMatch(
      /^--packages runs the era app on each set; --config/,
    );
  });
});

describe('setConfig', () => {
  it('gives a framework set its framework and the baseline, and a Nest set all five servers', () => {
    expect(setConfig('express', '/sets/express-4', false).targets.map((t) => t.name)).toEqual([
      'raw-node',
      'raw-express',
    ]);
    expect(setConfig('nest', '/sets/nest-10', false).targets.map((t) => t.name)).toEqual([
      'nest-express',
      'nest-fastify',
      'raw-node',
      'raw-express',
      'raw-fastify',
    ]);
  });

  it('serves the DB routes on both adapters only where the cell has them, and tells the server so', () => {
    const names = (database: boolean) => setConfig('nest', '/sets/nest-10', database).scenarios.map((s) => s.name);
    expect(names(false)).toEqual(['hello', 'json', 'orders']);
    expect(names(true)).toEqual([
      'hello',
      'json',
      'products',
      'product-by-id',
      'queries',
      'orders',
      'catalog',
      'purchases',
    ]);
    const nest = setConfig('nest', '/sets/nest-10', true).targets.filter((t) => t.group === 'nest');
    expect(nest.map((t) => t.env.ERA_DATABASE)).toEqual(['1', '1']);
    expect(nest.every((t) => t.scenarios?.includes('purchases'))).toBe(true);
    expect(setConfig('nest', '/sets/nest-10', false).targets.every((t) => !t.env.ERA_DATABASE)).toBe(true);
  });
});

describe('parseWrkSummary', () => {
  it("reads Requests/sec and the socket errors line as Nest's all_output.txt shows them", () => {
    const stdout = [
      'Running 10s test @ http://127.0.0.1:3100/',
      '  8 threads and 1024 connections',
      '  Socket errors: connect 0, read 877, write 0, timeout 0',
      'Requests/sec:  10444.24',
      'Transfer/sec:      2.14MB',
    ].join('\n');
    expect(parseWrkSummary(stdout)).toEqual({
      rps: 10444.24,
      socketErrors: 'connect 0, read 877, write 0, timeout 0',
    });
  });
});
