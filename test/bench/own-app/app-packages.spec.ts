import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apolloFastifyPackage, appPackages } from '../../../bench/own-app/app-packages.js';
import { graphqlDriver } from '../../../bench/own-app/app-differences.js';

/** An app folder holding the given packages at the given versions, as npm lays them out. */
function appWith(packages: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'app-packages-'));
  for (const [name, version] of Object.entries(packages)) {
    const at = join(dir, 'node_modules', name);
    mkdirSync(at, { recursive: true });
    writeFileSync(join(at, 'package.json'), JSON.stringify({ name, version }));
  }
  return dir;
}

describe('Apollo’s Fastify integration, for the installed @nestjs/apollo', () => {
  it('is apollo-server-fastify up to @nestjs/apollo 10 (Apollo Server 3), @as-integrations/fastify after', () => {
    expect(apolloFastifyPackage('10.1.7')).toBe('apollo-server-fastify');
    expect(apolloFastifyPackage('11.0.0')).toBe('@as-integrations/fastify');
    expect(apolloFastifyPackage('13.2.1')).toBe('@as-integrations/fastify');
    expect(apolloFastifyPackage(null)).toBe('@as-integrations/fastify');
  });

  it('finds apollo-server-fastify beside a Nest 8 app’s @nestjs/apollo 10, and names it where it is missing', () => {
    const without = appWith({ '@nestjs/apollo': '10.1.7', '@as-integrations/fastify': '2.1.1', fastify: '3.29.5' });
    const withIt = appWith({ '@nestjs/apollo': '10.1.7', 'apollo-server-fastify': '3.13.0' });
    try {
      expect(appPackages(without).apolloFastify).toBeNull();
      const finding = graphqlDriver('ApolloDriver', appPackages(without));
      expect(finding?.onFastify).toMatch(
        /\(@nestjs\/apollo 10\.1\.7\) serves Apollo on Fastify through apollo-server-fastify,/,
      );
      expect(finding?.fix).toBe(
        'npm i apollo-server-fastify; or MercuriusDriver from @nestjs/mercurius (Fastify only)',
      );
      expect(appPackages(withIt).apolloFastify).toBe('3.13.0');
      expect(graphqlDriver('ApolloDriver', appPackages(withIt))).toBeNull();
    } finally {
      rmSync(without, { recursive: true, force: true });
      rmSync(withIt, { recursive: true, force: true });
    }
  });

  it('says that Apollo Server 3’s integration is Fastify 3’s where the app’s Fastify is later (Nest 9)', () => {
    const nine = appWith({ '@nestjs/apollo': '10.1.7', fastify: '4.18.0' });
    try {
      const finding = graphqlDriver('ApolloDriver', appPackages(nine));
      expect(finding?.onFastify).toMatch(
        /its plugins \(@fastify\/accepts 3, @fastify\/cors 7\) are Fastify 3's, and the app's Fastify is 4\.18\.0$/,
      );
      expect(finding?.fix).toMatch(
        /^npm i apollo-server-fastify@3 with "overrides": .*; or @nestjs\/apollo 11\+ .*@as-integrations\/fastify/,
      );
    } finally {
      rmSync(nine, { recursive: true, force: true });
    }
  });
});
