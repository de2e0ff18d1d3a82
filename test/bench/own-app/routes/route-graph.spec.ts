import { Controller, Delete, Get, Module, Post, RequestMethod } from '@nestjs/common';
import * as constants from '@nestjs/common/constants.js';
import * as core from '@nestjs/core';
import { registeredRoutes } from '../../../../bench/own-app/routes/route-graph.js';

// Decorators applied by hand, as compiled JavaScript applies them.
class BaseController {
  health() {
    return 'ok';
  }
}
class ItemsController extends BaseController {
  list() {
    return [];
  }
  add() {
    return {};
  }
  remove() {
    return {};
  }
}
const decorate = (decorator: MethodDecorator, target: object, name: string) =>
  decorator(target, name, Object.getOwnPropertyDescriptor(target, name)!);
decorate(Get('health'), BaseController.prototype, 'health');
decorate(Get(), ItemsController.prototype, 'list');
decorate(Post(['', 'new']), ItemsController.prototype, 'add');
decorate(Delete(':id'), ItemsController.prototype, 'remove');
Controller('items')(ItemsController);
class AppModule {}
Module({ controllers: [ItemsController] })(AppModule);

const byPath = (a: { method: string; path: string }, b: { method: string; path: string }) =>
  `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`);

describe('registeredRoutes', () => {
  let app: Awaited<ReturnType<typeof core.NestFactory.create>>;

  beforeAll(async () => {
    app = await core.NestFactory.create(AppModule, { logger: false, snapshot: true });
    app.setGlobalPrefix('api');
    await app.init();
  });

  afterAll(() => app.close());

  it('reads them from the controllers’ metadata on a Nest that keeps no route graph (before 9.3), as the graph has them', () => {
    const fromGraph = registeredRoutes(core, app, constants, RequestMethod);
    const withoutGraph = registeredRoutes({ ...core, SerializedGraph: undefined }, app, constants, RequestMethod);
    expect([...fromGraph].sort(byPath)).toEqual([
      { method: 'GET', path: '/api/items', className: 'ItemsController', methodName: 'list', version: null },
      { method: 'POST', path: '/api/items', className: 'ItemsController', methodName: 'add', version: null },
      { method: 'DELETE', path: '/api/items/:id', className: 'ItemsController', methodName: 'remove', version: null },
      { method: 'GET', path: '/api/items/health', className: 'ItemsController', methodName: 'health', version: null },
      { method: 'POST', path: '/api/items/new', className: 'ItemsController', methodName: 'add', version: null },
    ]);
    expect([...withoutGraph].sort(byPath)).toEqual([...fromGraph].sort(byPath));
  });
});
