import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { fileLimiters, type LimiterFound } from '../../../../bench/own-app/scan/scan-limiters.js';
import { scanApp } from '../../../../bench/own-app/scan/scan.js';

/** The limiters the scan finds in one file, as a CommonJS app unless esm. */
function limiters(code: string, { esm = false, file = 'src/main.ts' } = {}): LimiterFound[] {
  const tree = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  return fileLimiters(ts, tree, file, { esm });
}

const EXPRESS_RATE_LIMIT_MAIN = `import { NestFactory } from '@nestjs/core';
import rateLimit from 'express-rate-limit';
import { AppModule } from './app.module';

const app = await NestFactory.create(AppModule);
app.use(rateLimit({ windowMs: 15 * 60 * 1000, max: 100 }));
await app.listen(3000);
`;

describe('the rate limiters the scan names besides @nestjs/throttler', () => {
  it('names express-rate-limit where main.ts makes it, with its limits, lifted while timing', () => {
    expect(limiters(EXPRESS_RATE_LIMIT_MAIN)).toEqual([
      {
        kind: 'express-rate-limit',
        name: 'rateLimit()',
        at: 'src/main.ts:6',
        limits: '100 per 900 s',
        liftable: true,
        note: expect.stringContaining('skips every request'),
      },
    ]);
  });

  it('reads tsc’s compiled call of it, and says which part is its default', () => {
    const compiled = `"use strict";
const express_rate_limit_1 = __importDefault(require("express-rate-limit"));
async function bootstrap() {
    const app = await core_1.NestFactory.create(app_module_1.AppModule);
    app.use((0, express_rate_limit_1.default)({ limit: 5 }));
}`;
    expect(limiters(compiled, { file: 'dist/main.js' })).toEqual([
      expect.objectContaining({ name: 'rateLimit()', at: 'dist/main.js:5', limits: '5 per its default window' }),
    ]);
  });

  it('keeps express-rate-limit where an ES module imports it (its ESM build), with the reason and a fix', () => {
    const [found] = limiters(EXPRESS_RATE_LIMIT_MAIN, { esm: true });
    expect(found.liftable).toBe(false);
    expect(found.note).toMatch(/ES module .*ESM build.*skip\(\).*--keep-throttle/);
  });

  it('lifts it where an ES module loads it with createRequire (its CommonJS build)', () => {
    const setup = `import { createRequire } from 'node:module';
const fromApp = createRequire(import.meta.url);
const rateLimit = fromApp('express-rate-limit');
export function configure(app) {
  app.use(rateLimit({ windowMs: 60_000, limit: 3 }));
}`;
    expect(limiters(setup, { esm: true, file: 'setup.js' })).toEqual([
      expect.objectContaining({ kind: 'express-rate-limit', at: 'setup.js:5', limits: '3 per 60 s', liftable: true }),
    ]);
  });

  it('names a rate-limiter-flexible limiter and @fastify/rate-limit with their limits', () => {
    const code = `import { RateLimiterMemory } from 'rate-limiter-flexible';
import fastifyRateLimit from '@fastify/rate-limit';

export const limiter = new RateLimiterMemory({ points: 10, duration: 1 });
export async function limit(app) {
  await app.register(fastifyRateLimit, { max: 100, timeWindow: '1 minute' });
}`;
    expect(
      limiters(code).map(({ kind, name, at, limits, liftable }) => ({ kind, name, at, limits, liftable })),
    ).toEqual([
      {
        kind: 'rate-limiter-flexible',
        name: 'RateLimiterMemory',
        at: 'src/main.ts:4',
        limits: '10 per 1 s',
        liftable: true,
      },
      {
        kind: '@fastify/rate-limit',
        name: 'register(fastifyRateLimit)',
        at: 'src/main.ts:6',
        limits: "100 per '1 minute'",
        liftable: true,
      },
    ]);
  });

  it('names a guard of the app’s that throws 429 at that line, lifted by letting its 429 through', () => {
    const code = `import { CanActivate, ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';

@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly hits = new Map<string, number>();
  canActivate(context: ExecutionContext): boolean {
    const key = context.switchToHttp().getRequest().ip;
    const hits = (this.hits.get(key) ?? 0) + 1;
    this.hits.set(key, hits);
    if (hits > 10) throw new HttpException('Too many requests', HttpStatus.TOO_MANY_REQUESTS);
    return true;
  }
}`;
    expect(limiters(code, { file: 'src/rate-limit.guard.ts' })).toEqual([
      {
        kind: 'guard',
        name: 'RateLimitGuard',
        at: 'src/rate-limit.guard.ts:10',
        limits: null,
        liftable: true,
        note: expect.stringContaining('the 429 it throws lets the request through'),
      },
    ]);
  });

  it('leaves a subclass of ThrottlerGuard to @nestjs/throttler, and a filter that answers the throttler’s 429 alone', () => {
    const code = `import { ThrottlerException, ThrottlerGuard } from '@nestjs/throttler';

export class ProxyThrottlerGuard extends ThrottlerGuard {
  protected async throwThrottlingException(): Promise<void> {
    throw new ThrottlerException('slow down');
  }
}

@Catch(ThrottlerException)
export class ThrottleFilter implements ExceptionFilter {
  catch(exception: ThrottlerException, host: ArgumentsHost) {
    host.switchToHttp().getResponse().status(429).send({ message: 'slow down' });
  }
}`;
    expect(limiters(code)).toEqual([]);
  });

  it('keeps a middleware that answers 429 in its own code, with the reason and a fix', () => {
    const code = `export class RequestLimitMiddleware implements NestMiddleware {
  private count = 0;
  use(req: Request, res: Response, next: () => void) {
    if (++this.count > 100) return res.status(429).send('slow down');
    next();
  }
}`;
    expect(limiters(code, { file: 'src/limit.middleware.ts' })).toEqual([
      expect.objectContaining({
        kind: 'answer',
        name: 'RequestLimitMiddleware',
        at: 'src/limit.middleware.ts:4',
        liftable: false,
        note: expect.stringMatching(/cannot let through without editing the app.*127\.0\.0\.1/),
      }),
    ]);
  });

  it('names a middleware that limits through rate-limiter-flexible as that package’s limiter only', () => {
    const code = `import { RateLimiterMemory } from 'rate-limiter-flexible';

export class FlexibleLimitMiddleware implements NestMiddleware {
  private readonly limiter = new RateLimiterMemory({ points: 5, duration: 60 });
  use(req: Request, res: Response, next: () => void) {
    this.limiter.consume(req.ip).then(() => next()).catch(() => res.status(429).send('slow down'));
  }
}`;
    expect(limiters(code).map(({ kind, limits }) => ({ kind, limits }))).toEqual([
      { kind: 'rate-limiter-flexible', limits: '5 per 60 s' },
    ]);
  });
});

describe('the scan of an app with a limiter besides @nestjs/throttler', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scan-limiters-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The app's module and main.ts, under a package.json of the given type. */
  const scanned = async (type: 'commonjs' | 'module') => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'limited', type }));
    writeFileSync(
      join(dir, 'app.module.ts'),
      `import { Module } from '@nestjs/common';\n@Module({})\nexport class AppModule {}\n`,
    );
    writeFileSync(join(dir, 'main.ts'), EXPRESS_RATE_LIMIT_MAIN);
    return scanApp({ moduleFile: join(dir, 'app.module.ts'), setupFile: null, appDir: dir });
  };

  it('records it at main.ts’s line, lifted in a CommonJS app and kept, with the reason, in an ES module one', async () => {
    expect((await scanned('commonjs')).limiters).toEqual([
      expect.objectContaining({ kind: 'express-rate-limit', at: 'main.ts:6', liftable: true }),
    ]);
    expect((await scanned('module')).limiters).toEqual([
      expect.objectContaining({ kind: 'express-rate-limit', at: 'main.ts:6', liftable: false }),
    ]);
  });
});
