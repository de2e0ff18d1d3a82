import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { CatalogItem } from './catalog-item.entity.js';
import { MAX_PAGE_SIZE, MIN_PAGE_SIZE } from './dto/catalog-page-query.dto.js';

@Injectable()
export class CatalogService {
  constructor(@InjectRepository(CatalogItem) private readonly catalogRepository: Repository<CatalogItem>) {}

  findPage(page: number, pageSize: number): Promise<CatalogItem[]> {
    const size = Math.min(MAX_PAGE_SIZE, Math.max(MIN_PAGE_SIZE, pageSize));
    return this.catalogRepository.find({
      relations: { category: true },
      order: { id: 'ASC' },
      skip: (page - 1) * size,
      take: size,
    });
  }
}
