import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { apolloFastifyPackage, appPackages } from '../../../../bench/own-app/launch/app-packages.js';
import { graphqlDriver, swaggerStatic } from '../../../../bench/own-app/scan/app-differences.js';

/** An app folder holding the given packages at the given versions, as npm lays them out. */
function appWith(packages: Record<string, string>, peers: Record<string, Record<string, string>> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'app-packages-'));
  for (const [name, version] of Object.entries(packages)) {
    const at = join(dir, 'node_modules', name);
    mkdirSync(at, { recursive: true });
    writeFileSync(join(at, 'package.json'), JSON.stringify({ name, version, peerDependencies: peers[name] }));
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

describe('the app’s packages under pnpm', () => {
  /** pnpm's layout: each package in its store folder beside its own dependencies, linked in from the app's node_modules. */
  function pnpmApp() {
    const dir = mkdtempSync(join(tmpdir(), 'app-packages-pnpm-'));
    const store = (name: string, version: string) =>
      join(dir, 'node_modules', '.pnpm', `${name.replace('/', '+')}@${version}`, 'node_modules', name);
    const put = (at: string, manifest: Record<string, string>, index?: string) => {
      mkdirSync(at, { recursive: true });
      writeFileSync(join(at, 'package.json'), JSON.stringify(manifest));
      if (index) writeFileSync(join(at, 'index.js'), index);
    };
    const link = (target: string, at: string) => {
      mkdirSync(dirname(at), { recursive: true });
      symlinkSync(target, at, 'dir');
    };
    const platform = store('@nestjs/platform-fastify', '10.4.7');
    const beside = (name: string) =>
      join(dir, 'node_modules', '.pnpm', '@nestjs+platform-fastify@10.4.7', 'node_modules', name);
    put(platform, { name: '@nestjs/platform-fastify', version: '10.4.7' });
    put(store('fastify', '4.28.1'), { name: 'fastify', version: '4.28.1' });
    put(
      store('@fastify/cors', '9.0.1'),
      { name: '@fastify/cors', version: '9.0.1', main: 'index.js' },
      "const defaultOptions = { origin: '*', methods: 'GET,HEAD,PUT,PATCH,POST,DELETE' }",
    );
    link(store('fastify', '4.28.1'), beside('fastify'));
    link(store('@fastify/cors', '9.0.1'), beside('@fastify/cors'));
    link(platform, join(dir, 'node_modules', '@nestjs', 'platform-fastify'));
    return dir;
  }

  it('finds the Fastify and @fastify/cors that @nestjs/platform-fastify loads, which pnpm does not hoist', () => {
    const app = pnpmApp();
    try {
      expect(existsSync(join(app, 'node_modules', 'fastify'))).toBe(false);
      const installed = appPackages(app);
      expect(installed.fastify).toBe('4.28.1');
      expect(installed.fastifyCors).toEqual({ version: '9.0.1', methods: 'GET,HEAD,PUT,PATCH,POST,DELETE' });
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  });
});

describe('@fastify/static for Swagger on Fastify, in the range what loads it takes', () => {
  const swagger = (range: string) => ({ '@nestjs/swagger': { '@fastify/static': range } });
  const platform = (range: string) => ({ '@nestjs/platform-fastify': { '@fastify/static': range } });
  const app = (peers: Record<string, Record<string, string>>) =>
    appWith({ '@nestjs/platform-fastify': '11.2.8', '@nestjs/swagger': '11.2.6', fastify: '5.8.4' }, peers);

  it('names the highest major both @nestjs/platform-fastify and @nestjs/swagger take', () => {
    const dir = app({ ...platform('^8.0.0 || ^9.0.0'), ...swagger('^8.0.0 || ^9.0.0') });
    try {
      expect(swaggerStatic(appPackages(dir))?.fix).toMatch(/^npm i @fastify\/static@9 \(or SwaggerModule/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says no version fits where their ranges do not meet, naming each (npm refuses @8 beside platform-fastify 11.2.8)', () => {
    const dir = app({ ...platform('^10.1.2'), ...swagger('^8.0.0 || ^9.0.0') });
    try {
      const fix = swaggerStatic(appPackages(dir))?.fix;
      expect(fix).toContain(
        'no version fits all that load it: @nestjs/platform-fastify 11.2.8 takes ^10.1.2, @nestjs/swagger 11.2.6 takes ^8.0.0 || ^9.0.0',
      );
      expect(fix).not.toMatch(/@fastify\/static@8/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('falls back to the major for the app’s Fastify where nothing names a range', () => {
    const dir = app({});
    try {
      expect(swaggerStatic(appPackages(dir))?.fix).toMatch(/^npm i @fastify\/static@8 /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
