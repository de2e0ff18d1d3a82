import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { scanApp, type ScanRecord } from '../../../../bench/own-app/scan/scan.js';
import { appPackages } from '../../../../bench/own-app/launch/app-packages.js';
import { ROOT } from '../../support/run-node.js';

// The scan of an app's bootstrap: main.ts beside the module, judged with the packages installed for this repository
// (appDir: ROOT), which are the ones a FastifyAdapter here loads.
const MODULE = `import { Module } from '@nestjs/common';
@Module({})
export class AppModule {}
`;

/** main.ts as an Express-first team writes it: every call here has a Fastify difference. */
const EXPRESS_FIRST_MAIN = `import { NestFactory } from '@nestjs/core';
import { SwaggerModule } from '@nestjs/swagger';
import { json } from 'express';
import * as bodyParser from 'body-parser';
import { AppModule } from './app.module.js';

const app = await NestFactory.create(AppModule, { cors: true, httpsOptions: { key: 'k', cert: 'c' }, bodyParser: false });
app.set('trust proxy', 1);
app.use(json({ limit: '5mb' }));
app.use(bodyParser.urlencoded({ extended: true }));
app.enableCors({ origin: ['https://a.example', 'https://b.example'] });
SwaggerModule.setup('docs', app, {});
app.useStaticAssets('public');
await app.listen(3000);
`;

/** The same bootstrap written so that it means the same on both adapters: nothing to report. */
const PORTABLE_MAIN = `import { NestFactory } from '@nestjs/core';
import helmet from 'helmet';
import { AppModule } from './app.module.js';

const app = await NestFactory.create(AppModule, { rawBody: true, cors: false });
app.use(helmet());
app.enableCors({ origin: 'https://a.example', methods: ['GET', 'HEAD', 'PUT', 'PATCH', 'POST', 'DELETE'] });
await app.listen(3000, '0.0.0.0');
await app.listen({ port: 3001, host: '::' });
`;

describe('the scan of main.ts beside the module', () => {
  let dir: string;
  const scan = async (main: string, module = MODULE, appDir = ROOT): Promise<ScanRecord> => {
    writeFileSync(join(dir, 'app.module.ts'), module);
    writeFileSync(join(dir, 'main.ts'), main);
    return scanApp({ moduleFile: join(dir, 'app.module.ts'), setupFile: null, appDir });
  };
  const rules = (record: ScanRecord) => Object.fromEntries(record.findings.map((f) => [f.rule, f]));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scan-main-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds each call whose meaning changes on Fastify, with its line and a fix', async () => {
    const found = rules(await scan(EXPRESS_FIRST_MAIN));
    const line = (rule: string) => found[rule]?.line;
    expect(line('NestFactory.create({ cors }) without methods')).toBe(7);
    expect(line('NestFactory.create({ httpsOptions })')).toBe(7);
    expect(line('NestFactory.create({ bodyParser: false })')).toBe(7);
    expect(found["app.set('trust proxy')"]).toMatchObject({ line: 8, kind: 'breaks' });
    expect(found["app.set('trust proxy')"].fix).toBe('new FastifyAdapter({ trustProxy: 1 })');
    expect(found["app.use(json({ limit: '5mb' }))"]).toMatchObject({ line: 9, kind: 'breaks' });
    expect(found["app.use(json({ limit: '5mb' }))"].onFastify).toMatch(/never reaches the handler/);
    expect(found['app.use(bodyParser.urlencoded({ extended: true })']).toMatchObject({ line: 10, kind: 'breaks' });
    expect(line('app.enableCors() without methods')).toBe(11);
    expect(found['app.useStaticAssets()']).toMatchObject({ line: 13, kind: 'breaks' });
    expect(found['app.useStaticAssets()'].onFastify).toMatch(/takes @fastify\/static’s options/);
    // the path it was given, as @fastify/static's absolute root
    expect(found['app.useStaticAssets()'].fix).toMatch(
      /app\.useStaticAssets\(\{ root: join\(process\.cwd\(\), 'public'\) \}\)$/,
    );
    expect(found['app.listen() without a host']).toMatchObject({ line: 14, kind: 'differs' });
    for (const finding of Object.values(found)) expect(finding.fix.length).toBeGreaterThan(10);
  });

  it('names setViewEngine given an engine’s name, which ends the process on Fastify, with @fastify/view’s options', async () => {
    const main = `import { NestFactory } from '@nestjs/core';
import { join } from 'node:path';
import { AppModule } from './app.module.js';

const app = await NestFactory.create(AppModule);
app.setBaseViewsDir(join(__dirname, '..', 'views'));
app.setViewEngine('hbs');
await app.listen(3000, '0.0.0.0');
`;
    const view = rules(await scan(main))["app.setViewEngine('hbs')"];
    expect(view).toMatchObject({ line: 7, kind: 'breaks' });
    expect(view.onFastify).toMatch(/^Fastify does not boot: .*doesn't support a string argument/);
    // the @fastify/view major for the Fastify installed here (5), and the renderer hbs stands for
    expect(view.fix).toMatch(
      /^npm i @fastify\/view@10 handlebars; app\.setViewEngine\(\{ engine: \{ handlebars: require\('handlebars'\) \}/,
    );
    const optioned = main.replace("'hbs'", "{ engine: { handlebars: require('handlebars') }, templates: 'views' }");
    expect(Object.keys(rules(await scan(optioned))).some((rule) => rule.startsWith('app.setViewEngine'))).toBe(false);
  });

  it('names a setting made on the Express app itself, which Fastify’s instance does not have', async () => {
    const main = `import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

const app = await NestFactory.create(AppModule);
app.getHttpAdapter().getInstance().disable('x-powered-by');
const expressApp = app.getHttpAdapter().getInstance() as any;
expressApp.set('trust proxy', 2);
expressApp.get('/health', (_req: unknown, res: { send(body: string): void }) => res.send('ok'));
await app.listen(3000, '0.0.0.0');
`;
    const found = rules(await scan(main));
    expect(found['getInstance().disable()']).toMatchObject({ line: 5, kind: 'breaks' });
    expect(found['getInstance().disable()'].onFastify).toMatch(
      /Fastify's instance on Fastify, which has no disable\(\)/,
    );
    expect(found['getInstance().set()']).toMatchObject({
      line: 7,
      kind: 'breaks',
      fix: 'new FastifyAdapter({ trustProxy: 2 })',
    });
    // a route added on the instance is one Fastify's instance takes too
    expect(Object.keys(found)).not.toContain('getInstance().get()');
  });

  it('says nothing of a bootstrap that means the same on both adapters', async () => {
    const record = await scan(PORTABLE_MAIN);
    expect(record.findings.map((f) => `${f.kind} ${f.rule}`)).toEqual(['works app.use(helmet)']);
    expect(record.corsOrigins).toEqual(['https://a.example']);
  });

  it('says Swagger stops Fastify’s boot only where @fastify/static is not installed for the app', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'no-static-'));
    try {
      const swagger = rules(await scan(EXPRESS_FIRST_MAIN, MODULE, bare))['SwaggerModule.setup()'];
      expect(swagger).toMatchObject({ line: 12, kind: 'breaks' });
      expect(swagger.onFastify).toMatch(/^Fastify does not boot/);
      expect(swagger.fix).toMatch(/^npm i @fastify\/static/);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
    expect(appPackages(ROOT).fastifyStatic).not.toBeNull();
    expect(rules(await scan(EXPRESS_FIRST_MAIN))['SwaggerModule.setup()']).toBeUndefined();
  });

  it('names the condition a boot blocker runs under, where its function has one', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'no-static-'));
    const main = `import { NestFactory } from '@nestjs/core';
import { SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module.js';

function docs(app, config) {
  if (
    config.get('NODE_ENV') === 'dev'
  ) {
    SwaggerModule.setup('docs', app, {});
  }
}
function assets(app) {
  if (process.env.STATIC !== 'on') return;
  app.useStaticAssets('public');
}
const app = await NestFactory.create(AppModule);
docs(app, app.get('ConfigService'));
assets(app);
app.set('trust proxy', 1);
await app.listen(3000, '0.0.0.0');
`;
    try {
      const found = rules(await scan(main, MODULE, bare));
      expect(found['SwaggerModule.setup()']).toMatchObject({ line: 9, condition: "config.get('NODE_ENV') === 'dev'" });
      expect(Object.values(found).find((f) => f.line === 14)?.condition).toBe("!(process.env.STATIC !== 'on')");
      expect(found["app.set('trust proxy')"]?.condition).toBeUndefined();
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('names a CORS origin read from a value, which may be empty where the app runs, and no literal or fallback', async () => {
    const main = `import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

const app = await NestFactory.create(AppModule);
const config = app.get('ConfigService');
app.enableCors({
  origin: config.get('ENDPOINT_CORS'),
  methods: 'GET,POST,PUT,PATCH,DELETE',
});
app.enableCors({ origin: process.env.ORIGIN || 'https://a.example', methods: 'GET,POST,PUT,PATCH,DELETE' });
app.enableCors({ origin: ['https://a.example'], methods: 'GET,POST,PUT,PATCH,DELETE' });
await app.listen(3000, '0.0.0.0');
`;
    const found = (await scan(main)).findings.filter((f) => f.rule.includes('origin'));
    expect(found.map((f) => [f.rule, f.line, f.kind])).toEqual([['app.enableCors() origin from a value', 7, 'breaks']]);
    expect(found[0].onFastify).toContain('Invalid CORS origin option');
  });

  it('names the installed @fastify/cors and the methods its source gives as default', async () => {
    const cors = rules(await scan(EXPRESS_FIRST_MAIN))['app.enableCors() without methods'];
    const installed = appPackages(ROOT).fastifyCors;
    expect(cors.onFastify).toContain(`@fastify/cors ${installed?.version}`);
    expect(cors.onFastify).toContain(`allows ${installed?.methods} by default`);
    expect(cors.fix).toContain("methods: 'GET,HEAD,PUT,PATCH,POST,DELETE'");
  });

  it('keeps the origins the CORS options name, for the preflight probe', async () => {
    expect((await scan(EXPRESS_FIRST_MAIN)).corsOrigins).toEqual(['https://a.example', 'https://b.example']);
  });

  it('finds NestFactory.create and listen in tsc’s CommonJS output', async () => {
    const compiled = ts.transpileModule(EXPRESS_FIRST_MAIN.replace(/await /g, ''), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2023 },
    }).outputText;
    writeFileSync(join(dir, 'app.module.js'), MODULE.replace('@Module({})', ''));
    writeFileSync(join(dir, 'main.js'), compiled);
    const found = rules(await scanApp({ moduleFile: join(dir, 'app.module.js'), setupFile: null, appDir: ROOT }));
    expect(Object.keys(found)).toEqual(
      expect.arrayContaining([
        'NestFactory.create({ cors }) without methods',
        'app.listen() without a host',
        "app.set('trust proxy')",
      ]),
    );
  });

  it('names an Apollo driver where @as-integrations/fastify is not installed, and leaves Mercurius alone', async () => {
    const graphql = (driver: string) => `import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { ${driver} } from '@nestjs/x';
@Module({ imports: [GraphQLModule.forRoot({ driver: ${driver}, autoSchemaFile: true })] })
export class AppModule {}
`;
    const bare = mkdtempSync(join(tmpdir(), 'no-integration-'));
    try {
      const apollo = rules(await scan('', graphql('ApolloDriver'), bare))['GraphQLModule driver ApolloDriver'];
      expect(apollo).toMatchObject({ kind: 'breaks', line: 4 });
      expect(apollo.fix).toMatch(/@as-integrations\/fastify/);
      expect((await scan('', graphql('MercuriusDriver'), bare)).findings).toEqual([]);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
    expect(appPackages(ROOT).apolloFastify).not.toBeNull();
    expect((await scan('', graphql('ApolloDriver'))).findings).toEqual([]);
  });
});

describe('appPackages', () => {
  it('reads the default methods @fastify/cors really allows', async () => {
    const { default: Fastify } = await import('fastify');
    const { default: cors } = await import('@fastify/cors');
    const app = Fastify();
    await app.register(cors, { origin: true });
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/',
      headers: { origin: 'https://a.example', 'access-control-request-method': 'PATCH' },
    });
    await app.close();
    expect(appPackages(ROOT).fastifyCors?.methods).toBe(preflight.headers['access-control-allow-methods']);
  });

  it('finds nothing where nothing is installed', () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-packages-'));
    try {
      expect(appPackages(empty)).toMatchObject({ fastify: null, fastifyCors: null, fastifyStatic: null });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
