import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { scanApp, type CodeFinding } from '../../../../bench/own-app/scan/scan.js';
import { injectedRequest } from '../../../../bench/own-app/scan/scan-roles.js';

/** A guard and a controller with the request and reply habits a switch changes, and their look-alikes that it does not. */
const CONTROLLER = `import { Controller, Get, Req, Res } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { Request, Response } from 'express';

export class ProxyThrottlerGuard extends ThrottlerGuard {
  protected async getTracker(req: Record<string, any>): Promise<string> {
    return req.ips.length ? req.ips[0] : req.ip;
  }
}

@Controller('x')
export class XController {
  @Get('ip')
  ip(@Req() req: Request) {
    return { ip: req.ip };
  }

  @Get('moved')
  moved(@Res() res: Response) {
    const agent = res.req.headers['user-agent'];
    res.status(301).redirect('/x/ip');
  }

  @Get('found')
  found(@Res() res: Response) {
    res.redirect('/x/ip');
  }
}
`;

/** express used as a value outside app.use: Express's own code runs on Fastify's request. */
const ROUTER = `import * as express from 'express';
import type { Request } from 'express';

export const router = express.Router();
export function handle(req: Request) {
  return req.headers;
}
`;

/** Helpers an interceptor and app.use hand Express's request to, typed with Express's types. */
const HELPERS = `import { Request, Response, NextFunction } from 'express';

export function createRequestContext(request: Request) {
  return { id: request.header('x-request-id'), url: request.url, agent: request.headers['user-agent'] };
}

export function AuditMiddleware(req: Request, res: Response, next: NextFunction) {
  const id = req.header('x-request-id') ?? 'generated';
  res.set('x-request-id', id);
  next();
}

export const RequestIdMiddleware = (req: Request, res: Response, next: () => void) => {
  res.set('x-request-id', String(req.headers['x-request-id']));
  next();
};
`;

/** Middleware written inline in main.ts, untyped, and an Express-only upload parser. */
const MAIN_WITH_MIDDLEWARE = `import { NestFactory } from '@nestjs/core';
import graphqlUploadExpress from 'graphql-upload/graphqlUploadExpress.mjs';
import { AppModule } from './app.module.js';

const acceptCheck = (req, res, next) => {
  if (!req.headers.accept) return res.status(406).json({ message: 'accept' });
  next();
};
const app = await NestFactory.create(AppModule);
app.use('/graphql', graphqlUploadExpress({ maxFiles: 1 }), acceptCheck);
app.use(function favicon(req, res, next) {
  if (req.url === '/favicon.ico') return res.sendStatus(204);
  next();
});
await app.listen(3000, '0.0.0.0');
`;

describe('the scan of handlers, guards and imports', () => {
  let dir: string;
  const scan = async (files: Record<string, string>, entry: string) => {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return (await scanApp({ moduleFile: join(dir, entry), setupFile: null, appDir: dir })).findings;
  };
  const at = (findings: CodeFinding[]) => findings.map((f) => `${f.kind} ${f.rule} :${f.line}`).sort();

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scan-file-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds req.ips in a throttler’s getTracker, res.req, and redirect(url) after status(), and nothing else', async () => {
    const findings = await scan({ 'x.controller.ts': CONTROLLER }, 'x.controller.ts');
    expect(at(findings)).toEqual(
      [
        'breaks req.ips :7',
        'breaks res.req :20',
        'differs res.status(…).redirect(url) :21',
        'differs @Res() without passthrough :19',
        'differs @Res() without passthrough :25',
        'ifRemoved import express (types) :3',
      ].sort(),
    );
    const ips = findings.find((f) => f.rule === 'req.ips');
    expect(ips?.handler).toBe('ProxyThrottlerGuard.getTracker');
    expect(ips?.fix).toMatch(/trustProxy/);
    expect(findings.find((f) => f.rule.includes('redirect'))?.onFastify).toMatch(/302 whatever status was set/);
  });

  it('reads a parameter typed with Express’s Request as the request, and a (req, res, next: NextFunction) as middleware', async () => {
    const findings = await scan({ 'request-context.ts': HELPERS }, 'request-context.ts');
    expect(at(findings)).toEqual(
      [
        'breaks request.header :4',
        'breaks req.header :8',
        'breaks res.set in middleware :9',
        'breaks res.set in middleware :14',
        'ifRemoved import express (types) :1',
      ].sort(),
    );
  });

  it('reads the functions given to app.use as middleware on Node’s raw request, and names graphql-upload', async () => {
    const findings = await scan(
      { 'app.module.ts': 'export class AppModule {}\n', 'main.ts': MAIN_WITH_MIDDLEWARE },
      'app.module.ts',
    );
    const byLine = (line: number) => findings.filter((f) => f.line === line).map((f) => `${f.kind} ${f.rule}`);
    expect(byLine(6)).toEqual(['breaks res.json in middleware']);
    expect(byLine(12)).toEqual(['breaks res.sendStatus in middleware']);
    // acceptCheck's body is read as middleware (line 6): app.use of it adds no guess of its own
    expect(byLine(10)).toEqual(['breaks app.use(graphql-upload)']);
    expect(findings.find((f) => f.rule === 'app.use(graphql-upload)')?.onFastify).toMatch(/ends the Fastify process/);
    expect(findings.filter((f) => f.line === 2)).toEqual([]);
    // reading req.headers and req.url is the same on Node's raw request
    expect(findings.filter((f) => [5, 7, 13, 14].includes(f.line))).toEqual([]);
  });

  it('calls an import used as a value a difference, and one used only in types information', async () => {
    const findings = await scan({ 'router.ts': ROUTER }, 'router.ts');
    expect(at(findings)).toEqual(['breaks import express :1', 'ifRemoved import express (types) :2']);
  });
});

/** Middleware as the public starters write it: Node's own response API, which middie hands it on Fastify too. */
const REQUEST_ID = `import { Injectable, NestMiddleware } from '@nestjs/common';
import { Request, Response, NextFunction } from 'express';

@Injectable()
export class RequestIdMiddleware implements NestMiddleware {
  use(req: Request, res: Response, next: NextFunction) {
    const id = (req.headers['x-request-id'] as string | undefined) ?? 'generated';
    res.setHeader('X-Request-ID', id);
    if (res.getHeader('x-deny')) {
      res.statusCode = 403;
      res.writeHead(403, { 'content-type': 'text/plain' });
      return res.end(String(res.req.url));
    }
    res.header('x-seen', '1');
    res.locals.id = id;
    next();
  }
}
`;

/** The same helmet call, as main.ts, tsc's CommonJS output of a setup, and a setup module kept outside the app. */
const HELMET_IN_MAIN = `import helmet from 'helmet';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
const app = await NestFactory.create(AppModule);
app.use(helmet({ contentSecurityPolicy: false }));
await app.listen(3000, '0.0.0.0');
`;
const HELMET_IN_COMPILED_SETUP = `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.configure = configure;
const helmet_1 = __importDefault(require("helmet"));
function configure(app) {
    app.use((0, helmet_1.default)({ contentSecurityPolicy: false }));
}
`;
const HELMET_IN_OUTSIDE_SETUP = `import { createRequire } from 'node:module';
const fromApp = createRequire('/srv/app/package.json');
export async function configure(app) {
  const helmet = fromApp('helmet').default ?? fromApp('helmet');
  const { default: compression } = await import('compression');
  const { default: graphqlUploadExpress } = await import(fromApp.resolve('graphql-upload/graphqlUploadExpress.mjs'));
  app.use(helmet({ contentSecurityPolicy: false }));
  app.use(compression());
  app.use('/graphql', graphqlUploadExpress({ maxFiles: 1 }));
}
`;

const STATIC_AND_PARSERS = `import * as express from 'express';
import { json } from 'express';
export function configure(app) {
  app.use('/public', express.static('public'));
  app.use(json({ limit: '1mb' }));
  app.use('/legacy', express.Router());
}
`;

const WILDCARD_CONTROLLER = `import { All, Controller, Get } from '@nestjs/common';

@Controller()
export class ProxyController {
  @All('*path')
  forward() {
    return 'proxied';
  }

  @Get('files/*')
  file() {
    return 'file';
  }

  @Get(':slug(.*)')
  page() {
    return 'page';
  }
}
`;

const THROTTLED_MODULE = `import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';

@Module({
  imports: [
    ThrottlerModule.forRoot({ throttlers: [{ ttl: 60000, limit: 100 }] }),
  ],
})
export class AppModule {}
`;

const REDIRECTING = `import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';

@Controller()
export class MovedController {
  @Get('old')
  old(@Res() res: Response) {
    res.redirect(301, '/new');
  }
}
`;

describe('the scan judges code by what the app’s Fastify stack does with it', () => {
  let dir: string;
  const write = (files: Record<string, string>) => {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
  };
  const scanOf = async (files: Record<string, string>, entry: string, setup: string | null = null) => {
    write(files);
    return scanApp({ moduleFile: join(dir, entry), setupFile: setup && join(dir, setup), appDir: dir });
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scan-claims-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lets middleware use Node’s own response API (setHeader, getHeader, writeHead, end, statusCode, req), and names Express’s', async () => {
    const { findings } = await scanOf({ 'request-id.middleware.ts': REQUEST_ID }, 'request-id.middleware.ts');
    expect(findings.map((f) => `${f.kind} ${f.rule} :${f.line}`).sort()).toEqual(
      [
        'breaks res.header in middleware :14',
        'breaks res.locals in middleware :15',
        'ifRemoved import express (types) :2',
      ].sort(),
    );
  });

  it('gives the same helmet call the same verdict in main.ts, a compiled setup and a setup that loads it itself', async () => {
    const main = await scanOf(
      { 'app.module.ts': 'export class AppModule {}\n', 'main.ts': HELMET_IN_MAIN },
      'app.module.ts',
    );
    const compiled = await scanOf({ 'setup.js': HELMET_IN_COMPILED_SETUP }, 'app.module.ts', 'setup.js');
    const outside = await scanOf({ 'bench.setup.mjs': HELMET_IN_OUTSIDE_SETUP }, 'app.module.ts', 'bench.setup.mjs');
    const helmet = (findings: CodeFinding[], file: string) =>
      findings
        .filter((f) => f.file === file && f.rule.startsWith('app.use'))
        .map((f) => [f.kind, f.rule, f.middleware]);
    expect(helmet(main.findings, 'main.ts')).toEqual([['works', 'app.use(helmet)', 'helmet']]);
    expect(helmet(compiled.findings, 'setup.js')).toEqual([['works', 'app.use(helmet)', 'helmet']]);
    expect(helmet(outside.findings, 'bench.setup.mjs')).toEqual([
      ['works', 'app.use(helmet)', 'helmet'],
      ['works', 'app.use(compression)', 'compression'],
      ['breaks', 'app.use(graphql-upload)', 'graphql-upload'],
    ]);
  });

  it('calls express.static() working, a body parser in app.use a request that never arrives, and a Router breaking', async () => {
    const { findings } = await scanOf({ 'setup.ts': STATIC_AND_PARSERS }, 'setup.ts');
    const byLine = (line: number) => findings.filter((f) => f.line === line).map((f) => f.kind);
    expect(byLine(4)).toEqual(['works']);
    expect(findings.find((f) => f.line === 4)?.onFastify).toMatch(/served there too/);
    expect(byLine(5)).toEqual(['breaks']);
    expect(findings.find((f) => f.line === 5)?.onFastify).toMatch(/never reaches the handler/);
    expect(byLine(6)).toEqual(['breaks']);
    expect(findings.find((f) => f.line === 6)?.onFastify).toMatch(/Router/);
  });

  it('names the controller line of a route Fastify’s router refuses, and leaves a trailing wildcard and a regex alone', async () => {
    const { findings } = await scanOf({ 'proxy.controller.ts': WILDCARD_CONTROLLER }, 'proxy.controller.ts');
    expect(findings.map((f) => `${f.kind} ${f.rule} ${f.file}:${f.line}`)).toEqual([
      "breaks @All('*path') proxy.controller.ts:5",
    ]);
    expect(findings[0].onFastify).toMatch(/Wildcard must be the last character/);
    expect(findings[0].fix).toMatch(/a plain '\*' at the path’s end/);
  });

  it('finds the refused route in tsc’s output too', async () => {
    const out = ts.transpileModule(WILDCARD_CONTROLLER, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, experimentalDecorators: true },
    });
    const { findings } = await scanOf({ 'proxy.controller.js': out.outputText }, 'proxy.controller.js');
    expect(findings.map((f) => f.rule)).toEqual(["@All('*path')"]);
  });

  it('records where ThrottlerModule.forRoot is called, and a throttler the package.json alone declares', async () => {
    const scanned = await scanOf({ 'app.module.ts': THROTTLED_MODULE }, 'app.module.ts');
    expect(scanned.throttler).toEqual({ forRoot: 'app.module.ts:6' });
    rmSync(join(dir, 'app.module.ts'));
    const declared = await scanOf(
      {
        'package.json': JSON.stringify({ dependencies: { '@nestjs/throttler': '^6.0.0' } }),
        'app.module.ts': 'export class AppModule {}\n',
      },
      'app.module.ts',
    );
    expect(declared.throttler).toEqual({ forRoot: null });
    rmSync(join(dir, 'package.json'));
    const none = await scanOf({}, 'app.module.ts');
    expect(none.throttler).toBeUndefined();
  });

  it('calls redirect(status, url) breaking on Fastify 5 and working, deprecated, on the app’s Fastify 4', async () => {
    const five = await scanOf({ 'moved.controller.ts': REDIRECTING }, 'moved.controller.ts');
    const rule = (findings: CodeFinding[]) => findings.find((f) => f.rule === 'res.redirect(status, url)');
    expect(rule(five.findings)).toMatchObject({ kind: 'breaks', onFastify: expect.stringMatching(/500/) });
    write({ 'node_modules/fastify/package.json': JSON.stringify({ name: 'fastify', version: '4.28.1' }) });
    const four = await scanOf({}, 'moved.controller.ts');
    expect(rule(four.findings)).toMatchObject({
      kind: 'works',
      onFastify: expect.stringMatching(/4\.28\.1.*FSTDEP021/),
    });
  });
});

describe('middleware another file gives to app.use', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scan-middleware-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is judged by its own body, read as middleware, in main.ts and a setup alike; an unknown one keeps the general note', async () => {
    const files: Record<string, string> = {
      'app.module.ts': 'export class AppModule {}\n',
      'request-id.middleware.ts': `import { Request, Response } from 'express';
export const RequestIdMiddleware = (req: Request, res: Response, next: () => void): void => {
  const id = req.header('x-request-id') || 'generated';
  res.setHeader('x-request-id', id);
  next();
};
`,
      'main.ts': `import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { RequestIdMiddleware } from './request-id.middleware';
import { tenant } from 'tenant-kit';
const app = await NestFactory.create(AppModule);
app.use(RequestIdMiddleware);
app.use(tenant());
await app.listen(3000, '0.0.0.0');
`,
      'bench.setup.mjs': `import { createRequire } from 'node:module';
const fromApp = createRequire('/srv/app/package.json');
export function configure(app) {
  const { RequestIdMiddleware } = fromApp('./dist/request-id.middleware');
  app.use(RequestIdMiddleware);
}
`,
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const { findings } = await scanApp({
      moduleFile: join(dir, 'app.module.ts'),
      setupFile: join(dir, 'bench.setup.mjs'),
      appDir: dir,
    });
    expect(findings.filter((f) => f.rule.startsWith('app.use')).map((f) => `${f.file}:${f.line} ${f.rule}`)).toEqual([
      'main.ts:7 app.use(tenant())',
    ]);
    expect(findings.map((f) => `${f.kind} ${f.rule} ${f.file}:${f.line}`)).toContain(
      'breaks req.header request-id.middleware.ts:3',
    );
  });
});

describe('a package function that never touches the HTTP request', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scan-request-free-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const scan = async (text: string) => {
    writeFileSync(join(dir, 'events.gateway.ts'), text);
    return (await scanApp({ moduleFile: join(dir, 'events.gateway.ts'), setupFile: null, appDir: dir })).findings;
  };

  it('is no finding: cookie-parser’s signedCookie() in a socket.io handshake, as a namespace or a named import', async () => {
    const namespace = `import * as cookieParser from 'cookie-parser';
export class EventsGateway {
  handleConnection(socket: { handshake: { headers: Record<string, string> } }) {
    return cookieParser.signedCookie(socket.handshake.headers.cookie, 'secret');
  }
}
`;
    expect(await scan(namespace)).toEqual([]);
    expect(
      await scan(
        `import { signedCookie } from 'cookie-parser';\nexport const read = (v: string) => signedCookie(v, 's');\n`,
      ),
    ).toEqual([]);
  });

  it('leaves cookie-parser itself, used as middleware elsewhere, a finding', async () => {
    const findings = await scan(
      `import * as cookieParser from 'cookie-parser';\nexport const middleware = cookieParser('secret');\n`,
    );
    expect(findings.map((f) => f.rule)).toEqual(['import cookie-parser']);
  });
});

/** A request-scoped service as apps write one: the request injected, read in its methods. */
const SESSION_SERVICE = `import { Inject, Injectable, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { Request } from 'express';

@Injectable({ scope: Scope.REQUEST })
export class SessionService {
  constructor(@Inject(REQUEST) private readonly request: Request, private readonly other: { cookies: string }) {}

  token() {
    return this.request.cookies['token'] ?? this.other.cookies;
  }

  agent() {
    return this.request.get('user-agent');
  }
}
`;

describe('a request-scoped service', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scan-request-scoped-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads @Inject(REQUEST)’s request as Fastify’s in every method: this.request.cookies needs @fastify/cookie', async () => {
    writeFileSync(join(dir, 'session.service.ts'), SESSION_SERVICE);
    const { findings } = await scanApp({ moduleFile: join(dir, 'session.service.ts'), setupFile: null, appDir: dir });
    expect(findings.map((f) => `${f.kind} ${f.rule} :${f.line}`)).toEqual([
      'plugin this.request.cookies :10',
      'breaks this.request.get :14',
      'ifRemoved import express (types) :3',
    ]);
    expect(findings[0].fix).toMatch(/@fastify\/cookie/);
  });

  it('reads it with TypeScript 4.7 too, which has no getDecorators() (a Nest 8 app’s own TypeScript)', () => {
    const tree = ts.createSourceFile('session.service.ts', SESSION_SERVICE, ts.ScriptTarget.Latest, true);
    const service = tree.statements.find(ts.isClassDeclaration)!;
    const before48 = { ...ts, getDecorators: undefined, canHaveDecorators: undefined } as unknown as typeof ts;
    expect(injectedRequest(before48, service)).toEqual([['this.request', 'request']]);
  });

  it('reads it in tsc’s output too, where @Inject(REQUEST) is a __param in the class’s __decorate call', async () => {
    const compiled = ts.transpileModule(SESSION_SERVICE, {
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
      },
    }).outputText;
    writeFileSync(join(dir, 'session.service.js'), compiled);
    const { findings } = await scanApp({ moduleFile: join(dir, 'session.service.js'), setupFile: null, appDir: dir });
    expect(findings.filter((f) => f.rule.startsWith('this.request')).map((f) => `${f.kind} ${f.rule}`)).toEqual([
      'plugin this.request.cookies',
      'breaks this.request.get',
    ]);
  });
});

describe('res.cookie in middleware', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scan-middleware-cookie-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names @fastify/cookie as its fix', async () => {
    const middleware = `export class VisitMiddleware {
  use(req: unknown, res: { cookie(name: string, value: string): void }, next: () => void) {
    res.cookie('visited', '1');
    next();
  }
}
`;
    writeFileSync(join(dir, 'visit.middleware.ts'), middleware);
    const { findings } = await scanApp({ moduleFile: join(dir, 'visit.middleware.ts'), setupFile: null, appDir: dir });
    expect(findings.map((f) => `${f.kind} ${f.rule}`)).toEqual(['plugin res.cookie in middleware']);
    expect(findings[0].fix).toMatch(/^register @fastify\/cookie/);
  });
});

describe('a rate-limit key read with optional chaining', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scan-ips-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is no finding: req.ips?.length falls to req.ip on both adapters without a proxy', async () => {
    const guard = `import { ExecutionContext } from '@nestjs/common';
export class RateLimitGuard {
  canActivate(context: ExecutionContext) {
    const req = context.switchToHttp().getRequest();
    const key = req.ips?.length ? req.ips[0] : req.ip;
    const all = req.ips ?? [];
    return Boolean(key) && all.length >= 0;
  }
}
`;
    writeFileSync(join(dir, 'rate-limit.guard.ts'), guard);
    const { findings } = await scanApp({ moduleFile: join(dir, 'rate-limit.guard.ts'), setupFile: null, appDir: dir });
    expect(findings).toEqual([]);
  });
});
