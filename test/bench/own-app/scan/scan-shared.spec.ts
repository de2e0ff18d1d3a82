import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanApp } from '../../../../bench/own-app/scan/scan.js';
import { routesReached } from '../../../../bench/own-app/scan/scan-shared.js';

/** An exception filter answering with Express's json(), as Nest's docs write it. */
const FILTER = `import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';

@Catch(HttpException)
export class GlobalExceptionFilter implements ExceptionFilter {
  catch(exception: HttpException, host: ArgumentsHost) {
    const response = host.switchToHttp().getResponse();
    response.status(exception.getStatus()).json({ message: exception.message });
  }
}
`;

const ROUTES = [
  { path: '/api/users', handler: 'UsersController.list' },
  { path: '/api/users/:id', handler: 'UsersController.one' },
  { path: '/api/orders', handler: 'OrdersController.list' },
];

describe('a class registered for many routes', () => {
  let dir: string;
  const scan = async (files: Record<string, string>, entry: string) => {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return (await scanApp({ moduleFile: join(dir, entry), setupFile: null, appDir: dir })).findings;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scan-shared-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('marks a finding in a filter given to app.useGlobalFilters with where it is registered, for every route', async () => {
    const main = `import { NestFactory } from '@nestjs/core';
import { GlobalExceptionFilter } from './filter';
async function bootstrap() {
  const app = await NestFactory.create({});
  app.useGlobalFilters(new GlobalExceptionFilter());
}
`;
    const [json] = (await scan({ 'filter.ts': FILTER, 'main.ts': main }, 'main.ts')).filter(
      (f) => f.rule === 'response.json',
    );
    expect(json.shared).toEqual({
      role: 'filter',
      name: 'GlobalExceptionFilter',
      registered: 'main.ts:5',
      routes: null,
    });
  });

  it('reads an APP_FILTER provider as a global filter', async () => {
    const module = `import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { GlobalExceptionFilter } from './filter';
@Module({ providers: [{ provide: APP_FILTER, useClass: GlobalExceptionFilter }] })
export class AppModule {}
`;
    const findings = await scan({ 'filter.ts': FILTER, 'app.module.ts': module }, 'app.module.ts');
    expect(findings.find((f) => f.rule === 'response.json')?.shared?.registered).toBe('app.module.ts:4');
  });

  it('leaves a filter no one registers globally as the class it is', async () => {
    const findings = await scan({ 'filter.ts': FILTER }, 'filter.ts');
    expect(findings.find((f) => f.rule === 'response.json')?.shared).toBeUndefined();
  });

  it('gives a filter’s json() the fix a filter takes, not a handler’s', async () => {
    const [json] = (await scan({ 'filter.ts': FILTER }, 'filter.ts')).filter((f) => f.rule === 'response.json');
    expect(json.fix).toMatch(/^response\.status\(status\)\.send\(body\)/);
    expect(json.onFastify).toMatch(/answers 500 in place of every status it sets/);
  });

  it('reads @UseFilters on a controller as reaching that controller’s routes', async () => {
    const controller = `import { Controller, Get, UseFilters } from '@nestjs/common';
import { GlobalExceptionFilter } from './filter';
@Controller('users')
@UseFilters(GlobalExceptionFilter)
export class UsersController {
  @Get()
  list() {
    return [];
  }
}
`;
    const findings = await scan({ 'filter.ts': FILTER, 'users.controller.ts': controller }, 'users.controller.ts');
    const shared = findings.find((f) => f.rule === 'response.json')?.shared;
    expect(shared).toEqual({
      role: 'filter',
      name: 'GlobalExceptionFilter',
      registered: 'users.controller.ts:4',
      routes: ['UsersController'],
    });
    expect(routesReached(shared ?? { routes: [] }, ROUTES)).toHaveLength(2);
  });

  it('reads middleware applied to some controllers as reaching their routes only', async () => {
    const module = `export class AppModule {
  configure(consumer) {
    consumer.apply(AuditMiddleware).exclude('health').forRoutes(UsersController);
  }
}
export class AuditMiddleware {
  use(req, res, next) {
    res.set('x-audit', '1');
    next();
  }
}
`;
    const findings = await scan({ 'app.module.ts': module }, 'app.module.ts');
    const shared = findings.find((f) => f.handler === 'AuditMiddleware.use')?.shared;
    expect(shared).toMatchObject({ role: 'middleware', routes: ['UsersController'] });
    expect(routesReached(shared ?? { routes: [] }, ROUTES).map((r) => r.handler)).toEqual([
      'UsersController.list',
      'UsersController.one',
    ]);
  });
});

describe('routesReached', () => {
  it('reaches every route for a global registration, and the routes under a path for forRoutes(path)', () => {
    expect(routesReached({ routes: null }, ROUTES)).toHaveLength(3);
    expect(routesReached({ routes: ['/orders'] }, ROUTES).map((r) => r.path)).toEqual(['/api/orders']);
  });
});
