import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import {
  Controller,
  ForbiddenException,
  Get,
  HttpException,
  HttpStatus,
  Module,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
} from '@nestjs/common';
import { APP_GUARD, ModulesContainer, NestFactory } from '@nestjs/core';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import {
  THROTTLE_MODES,
  applyThrottleMode,
  describeGuard,
  letTooManyRequestsThrough,
  limitingGuards,
  throttleRecord,
  throttlerGuards,
  type ThrottleMode,
} from '../../../../bench/own-app/launch/throttle.js';
import type { LimiterFound } from '../../../../bench/own-app/scan/scan-limiters.js';

const LIMIT = 2;
const TTL_MS = 60_000;

class ItemsController {
  list() {
    return [{ id: 1 }];
  }
}
Get()(ItemsController.prototype, 'list', Object.getOwnPropertyDescriptor(ItemsController.prototype, 'list')!);
Controller('items')(ItemsController);

/** A subclass as apps write one: its own tracker, the base class's limits. */
class BehindProxyGuard extends ThrottlerGuard {
  protected async getTracker(req: Record<string, any>) {
    return String(req.headers['x-forwarded-for'] ?? req.ip);
  }
}

/** An app with a global throttler, as the Nest docs set one up: LIMIT requests per TTL_MS. */
function appModule(guard: typeof ThrottlerGuard) {
  class AppModule {}
  Module({
    imports: [ThrottlerModule.forRoot([{ ttl: TTL_MS, limit: LIMIT }])],
    controllers: [ItemsController],
    providers: [{ provide: APP_GUARD, useClass: guard }],
  })(AppModule);
  return AppModule;
}

async function started(mode: ThrottleMode, guard: typeof ThrottlerGuard = ThrottlerGuard) {
  const app = await NestFactory.create(appModule(guard), { logger: false });
  const guards = throttlerGuards(app, ModulesContainer);
  applyThrottleMode(guards, mode);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, guards, url: `http://127.0.0.1:${port}/items` };
}

/** One more request than the limit lets through. */
async function overTheLimit(url: string, init?: RequestInit) {
  const answers = [];
  for (let i = 0; i <= LIMIT; i++) answers.push(await fetch(url, init));
  return answers;
}

describe('the app’s throttler, as the bench starts its servers', () => {
  let app: INestApplication | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('finds the global ThrottlerGuard Nest made, and what it limits', async () => {
    const run = await started(THROTTLE_MODES.keep);
    app = run.app;
    expect(run.guards).toHaveLength(1);
    expect(describeGuard(run.guards[0], '6.7.1')).toEqual({
      guard: 'ThrottlerGuard',
      version: '6.7.1',
      limits: [{ name: 'default', limit: String(LIMIT), ttl: '60 s' }],
    });
  });

  it('kept, it refuses the request over its limit with 429', async () => {
    const run = await started(THROTTLE_MODES.keep);
    app = run.app;
    expect((await overTheLimit(run.url)).map((answer) => answer.status)).toEqual([200, 200, 429]);
  });

  it('counted, it runs on every request but lets the one over its limit through', async () => {
    const run = await started(THROTTLE_MODES.count);
    app = run.app;
    const answers = await overTheLimit(run.url);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual(['1', '0', '0']);
  });

  it('lifted, it lets every request through without running', async () => {
    const run = await started(THROTTLE_MODES.lift);
    app = run.app;
    const answers = await overTheLimit(run.url);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.some((answer) => answer.headers.has('x-ratelimit-limit'))).toBe(false);
  });

  it('lifts an app’s own subclass of it too', async () => {
    const run = await started(THROTTLE_MODES.lift, BehindProxyGuard);
    app = run.app;
    expect(describeGuard(run.guards[0], '6.7.1').guard).toBe('BehindProxyGuard');
    expect((await overTheLimit(run.url)).map((answer) => answer.status)).toEqual([200, 200, 200]);
  });

  it('reads a limit before major 5 as { ttl, limit } in seconds', () => {
    expect(describeGuard({ options: { ttl: 60, limit: 10 } }, '4.2.1').limits).toEqual([
      { name: 'default', limit: '10', ttl: '60 s' },
    ]);
    expect(describeGuard({ options: { throttlers: [{ ttl: () => 1000, limit: 3 }] } }, '5.2.0').limits).toEqual([
      { name: 'default', limit: '3', ttl: 'set per request' },
    ]);
  });
});

/** A rate limit of the app's own, as apps write one: a guard that also refuses a request without its key. */
class KeyedLimitGuard implements CanActivate {
  private hits = 0;
  canActivate(context: ExecutionContext) {
    if (!context.switchToHttp().getRequest().headers['x-key']) throw new ForbiddenException('no key');
    if (++this.hits > LIMIT) throw new HttpException('Too many requests', HttpStatus.TOO_MANY_REQUESTS);
    return true;
  }
}

/** A guard that refuses nothing with 429: not a limiter. */
class OpenGuard implements CanActivate {
  canActivate() {
    return Promise.resolve(true);
  }
}

/** An app whose own guard limits it, given to useGlobalGuards() as main.ts does; the guards the bench finds lifted. */
async function ownLimited(lift: boolean) {
  class AppModule {}
  Module({ controllers: [ItemsController] })(AppModule);
  const app = await NestFactory.create(AppModule, { logger: false });
  app.useGlobalGuards(new KeyedLimitGuard(), new OpenGuard());
  const guards = limitingGuards(app, ModulesContainer);
  if (lift) letTooManyRequestsThrough(guards);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, guards, url: `http://127.0.0.1:${port}/items` };
}

describe('a guard of the app’s own that refuses with 429', () => {
  let app: INestApplication | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });
  const keyed = { headers: { 'x-key': 'k' } };

  it('is found among the app’s guards by the 429 its class names, and no other guard is', async () => {
    const run = await ownLimited(false);
    app = run.app;
    expect(run.guards.map((guard) => guard.constructor.name)).toEqual(['KeyedLimitGuard']);
  });

  it('kept, it refuses the request over its limit with 429', async () => {
    const run = await ownLimited(false);
    app = run.app;
    expect((await overTheLimit(run.url, keyed)).map((answer) => answer.status)).toEqual([200, 200, 429]);
  });

  it('lifted, it still runs and refuses what it refuses besides the rate, but lets its 429 through', async () => {
    const run = await ownLimited(true);
    app = run.app;
    expect((await overTheLimit(run.url, keyed)).map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect((await fetch(run.url)).status).toBe(403);
  });
});

describe('throttleRecord', () => {
  const guards = [
    { guard: 'ThrottlerGuard', version: '6.7.1', limits: [{ name: 'default', limit: '2', ttl: '60 s' }] },
  ];
  const limiters: LimiterFound[] = [
    {
      kind: 'express-rate-limit',
      name: 'rateLimit()',
      at: 'src/main.ts:6',
      limits: '100 per 900 s',
      liftable: true,
      note: 'lifted',
    },
    {
      kind: 'answer',
      name: 'LimitMiddleware',
      at: 'src/limit.middleware.ts:4',
      limits: null,
      liftable: false,
      note: 'kept',
    },
  ];
  const scan = { throttler: { forRoot: 'src/app.module.ts:9' }, limiters };

  it('names the other limiters beside the throttler’s guards, each lifted where it can be', () => {
    expect(throttleRecord({ throttlers: guards }, scan, {}).throttle?.limiters).toEqual([
      {
        kind: 'express-rate-limit',
        name: 'rateLimit()',
        at: 'src/main.ts:6',
        limits: '100 per 900 s',
        lifted: true,
        note: 'lifted',
      },
      {
        kind: 'answer',
        name: 'LimitMiddleware',
        at: 'src/limit.middleware.ts:4',
        limits: null,
        lifted: false,
        note: 'kept',
      },
    ]);
  });

  it('keeps every one of them with --keep-throttle, and says so', () => {
    const kept = throttleRecord({ throttlers: guards }, scan, { keepThrottle: true }).throttle;
    expect(kept?.timed).toBe('keep');
    expect(kept?.limiters?.map((limiter) => limiter.lifted)).toEqual([false, false]);
    expect(kept?.limiters?.[0].note).toMatch(/--keep-throttle/);
  });

  it('writes the other limiters where the app has no throttler guard, and no record where it has no limiter', () => {
    expect(throttleRecord({}, scan, {}).throttle).toMatchObject({
      timed: 'lift',
      guards: [],
      limiters: [
        { at: 'src/main.ts:6', lifted: true },
        { at: 'src/limit.middleware.ts:4', lifted: false },
      ],
    });
    expect(throttleRecord({}, { throttler: { forRoot: null } }, {})).toEqual({});
  });
});
