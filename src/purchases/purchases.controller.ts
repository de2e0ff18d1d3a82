import { Body, Controller, Get, NotFoundException, Param, Post } from '@nestjs/common';
import { ParsePositiveIntPipe } from '../common/pipes/parse-positive-int.pipe.js';
import { CreatePurchaseDto } from './dto/create-purchase.dto.js';
import type { Purchase } from './purchase.entity.js';
import { PurchasesService } from './purchases.service.js';

@Controller('purchases')
export class PurchasesController {
  constructor(private readonly purchasesService: PurchasesService) {}

  @Post()
  create(@Body() createPurchaseDto: CreatePurchaseDto): Promise<Purchase> {
    return this.purchasesService.create(createPurchaseDto);
  }

  @Get(':id')
  async findOne(@Param('id', ParsePositiveIntPipe) id: number): Promise<Purchase> {
    const purchase = await this.purchasesService.findOne(id);
    if (!purchase) throw new NotFoundException(`Purchase ${id} not found`);
    return purchase;
  }
}
