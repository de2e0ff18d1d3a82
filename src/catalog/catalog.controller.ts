import { Controller, Get, Query } from '@nestjs/common';
import type { CatalogItem } from './catalog-item.entity.js';
import { CatalogService } from './catalog.service.js';
import { CatalogPageQueryDto } from './dto/catalog-page-query.dto.js';

@Controller('catalog')
export class CatalogController {
  constructor(private readonly catalogService: CatalogService) {}

  @Get()
  findPage(@Query() { page, pageSize }: CatalogPageQueryDto): Promise<CatalogItem[]> {
    return this.catalogService.findPage(page, pageSize);
  }
}
