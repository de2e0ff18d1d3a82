import { Module, type DynamicModule } from '@nestjs/common';
import { AppController } from './app.controller.js';
import { AppService } from './app.service.js';
import { AuthModule } from './auth/auth.module.js';
import { CatalogModule } from './catalog/catalog.module.js';
import type { AppSettings } from './config/app-settings.js';
import { DatabaseModule } from './database/database.module.js';
import { OrdersModule } from './orders/orders.module.js';
import { ProductsModule } from './products/products.module.js';
import { PurchasesModule } from './purchases/purchases.module.js';
import { StackModule } from './stack/stack.module.js';
import { TransferModule } from './transfer/transfer.module.js';
import { WorldModule } from './world/world.module.js';

@Module({
  imports: [DatabaseModule, AuthModule, ProductsModule, WorldModule, OrdersModule, CatalogModule, PurchasesModule],
  controllers: [AppController],
  providers: [AppService],
})
export class AppModule {
  /** The app as APP_STACK and its settings make it (see config/app-settings.ts), on one adapter. */
  static forSettings(settings: AppSettings, adapter: 'express' | 'fastify'): DynamicModule {
    const transfer = settings.transfer ? [TransferModule.forAdapter(adapter)] : [];
    return { module: AppModule, imports: [StackModule.forSettings(settings), ...transfer] };
  }
}
