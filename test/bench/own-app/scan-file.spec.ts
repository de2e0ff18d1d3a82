import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanApp, type CodeFinding } from '../../../bench/own-app/scan.js';

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
    expect(byLine(10)).toEqual(['breaks app.use(graphql-upload)', 'differs app.use(acceptCheck)']);
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
