import { Controller, Get, NotFoundException, Param } from '@nestjs/common';
import { ParsePositiveIntPipe } from '../common/pipes/parse-positive-int.pipe.js';
import type { Product } from './product.entity.js';
import { ProductsService } from './products.service.js';

@Controller('products')
export class ProductsController {
  constructor(private readonly productsService: ProductsService) {}

  @Get()
  findAll(): Promise<Product[]> {
    return this.productsService.findAll();
  }

  /** Declared before ':id', which Express would otherwise match first. */
  @Get('raw')
  findAllRaw(): Promise<Product[]> {
    return this.productsService.findAllRaw();
  }

  @Get(':id')
  async findOne(@Param('id', ParsePositiveIntPipe) id: number): Promise<Product> {
    const product = await this.productsService.findOne(id);
    if (!product) throw new NotFoundException(`Product ${id} not found`);
    return product;
  }
}
