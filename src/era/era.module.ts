import { Module } from '@nestjs/common';
import { AppController } from '../app.controller.js';
import { AppService } from '../app.service.js';
import { OrdersController } from '../orders/orders.controller.js';
import { OrdersService } from '../orders/orders.service.js';

/**
 * The routes every Nest major since 6 can serve, from the app's own controllers: hello, json and the validated POST.
 * Compiled apart for old Node (tsconfig.era.json) and run on each package set (bench/packages/).
 */
@Module({
  controllers: [AppController, OrdersController],
  providers: [AppService, OrdersService],
})
export class EraModule {}
