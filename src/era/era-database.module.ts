import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../catalog/catalog.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { Product } from '../products/product.entity.js';
import { ProductsController } from '../products/products.controller.js';
import { ProductsService } from '../products/products.service.js';
import { PurchasesModule } from '../purchases/purchases.module.js';
import { WorldModule } from '../world/world.module.js';
import { EraModule } from './era.module.js';

/**
 * The era app with the app's own DB routes (products, queries, catalog, purchases) on the embedded sql.js database,
 * for the sets whose TypeORM has the API the services use (DataSource, findOneBy: TypeORM 0.3 and later). Products
 * come without ProductsModule, whose JWT-guarded route needs @nestjs/jwt.
 */
@Module({
  imports: [
    EraModule,
    DatabaseModule,
    TypeOrmModule.forFeature([Product]),
    WorldModule,
    CatalogModule,
    PurchasesModule,
  ],
  controllers: [ProductsController],
  providers: [ProductsService],
})
export class EraDatabaseModule {}
