import { Controller, Get, UseGuards } from '@nestjs/common';
import { JwtAuthGuard } from '../auth/jwt-auth.guard.js';
import type { Product } from './product.entity.js';
import { ProductsService } from './products.service.js';

/** GET /products behind the bearer-token guard: what authentication adds to a query. */
@Controller('secure/products')
@UseGuards(JwtAuthGuard)
export class SecureProductsController {
  constructor(private readonly productsService: ProductsService) {}

  @Get()
  findAll(): Promise<Product[]> {
    return this.productsService.findAll();
  }
}
