// A tiny catalogue API. Plain JavaScript, so the decorators are applied as functions: no build step, and inside this
// repository it runs on the repository's own node_modules (Node looks for packages up the directory tree).
import 'reflect-metadata';
import { Body, Controller, Get, HttpCode, Module, NotFoundException, Param, Post } from '@nestjs/common';

const ITEMS = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `item ${i + 1}`, price: (i + 1) * 100 }));

export class ItemsController {
  list() {
    return ITEMS;
  }

  one(id) {
    const item = ITEMS.find((candidate) => candidate.id === Number(id));
    if (!item) throw new NotFoundException(`no item ${id}`);
    return item;
  }

  order(body) {
    return { itemId: body.itemId, quantity: body.quantity, status: 'accepted' };
  }
}

/** @param {string} method @param {...((target: object, key: string, index: number) => void)} parameters */
function route(method, ...parameters) {
  parameters.forEach((decorate, index) => decorate(ItemsController.prototype, method, index));
  return Object.getOwnPropertyDescriptor(ItemsController.prototype, method);
}
Get()(ItemsController.prototype, 'list', route('list'));
Get(':id')(ItemsController.prototype, 'one', route('one', Param('id')));
Post('orders')(ItemsController.prototype, 'order', route('order', Body()));
HttpCode(201)(ItemsController.prototype, 'order', route('order'));
Controller('items')(ItemsController);

export class AppModule {}
Module({ controllers: [ItemsController] })(AppModule);

/** Both entrypoints listen where the bench says: PORT (its portEnv) on HOST. */
export async function listen(app) {
  await app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1');
}
