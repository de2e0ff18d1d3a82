import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UsageError } from '../../../bench/errors.js';
import { engineConflict, installedSet, resolveSet } from '../../../bench/packages/sets.js';
import { asyncRefusal } from '../support/refusal.js';

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
    const logged: string[] = [];
    try {
      const message = await asyncRefusal(() =>
        installedSet(
          { text: 'nest@99', kind: 'nest', range: '99' },
          { cacheDir, view: NEST_REGISTRY, log: (line) => logged.push(line) },
        ),
      );
      // the registry's answer, not npm's: npm install was never reached
      expect(message).toBe('--packages: nest@99: no @nestjs/core release matches 99 in the npm registry');
      expect(logged).toEqual([]);
      expect(readdirSync(cacheDir)).toEqual([]);
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
