import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Controller, Get, Module, type INestApplication } from '@nestjs/common';
import { APP_GUARD, ModulesContainer, NestFactory } from '@nestjs/core';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import {
  THROTTLE_MODES,
  applyThrottleMode,
  describeGuard,
  throttlerGuards,
  type ThrottleMode,
} from '../../../../bench/own-app/launch/throttle.js';

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
async function overTheLimit(url: string) {
  const answers = [];
  for (let i = 0; i <= LIMIT; i++) answers.push(await fetch(url));
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
