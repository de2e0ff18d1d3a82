import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { Product } from './product.entity.js';
import { ProductsController } from './products.controller.js';
import { ProductsService } from './products.service.js';
import { SecureProductsController } from './secure-products.controller.js';

@Module({
  imports: [TypeOrmModule.forFeature([Product]), DatabaseModule, AuthModule],
  controllers: [ProductsController, SecureProductsController],
  providers: [ProductsService],
})
export class ProductsModule {}
