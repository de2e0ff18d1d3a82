import { Injectable, UnprocessableEntityException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { CatalogItem } from '../catalog/catalog-item.entity.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import type { CreatePurchaseDto } from './dto/create-purchase.dto.js';
import { Purchase } from './purchase.entity.js';

@Injectable()
export class PurchasesService {
  constructor(
    @InjectRepository(Purchase) private readonly purchasesRepository: Repository<Purchase>,
    private readonly transactions: TransactionRunner,
  ) {}

  /** Prices the lines from the catalogue and stores the purchase with its items in one transaction. */
  create({ items }: CreatePurchaseDto): Promise<Purchase> {
    return this.transactions.run(async (manager) => {
      const productIds = [...new Set(items.map((item) => item.productId))];
      const products = await manager.find(CatalogItem, {
        select: { id: true, priceCents: true },
        where: { id: In(productIds) },
      });
      const prices = new Map(products.map((product) => [product.id, product.priceCents]));
      const missing = productIds.filter((id) => !prices.has(id));
      if (missing.length > 0) {
        throw new UnprocessableEntityException(`Catalog items not found: ${missing.join(', ')}`);
      }
      const lines = items.map(({ productId, quantity }) => ({
        productId,
        quantity,
        unitPriceCents: prices.get(productId)!,
      }));
      const totalCents = lines.reduce((sum, line) => sum + line.quantity * line.unitPriceCents, 0);
      return manager.save(manager.create(Purchase, { items: lines, totalCents }));
    });
  }

  findOne(id: number): Promise<Purchase | null> {
    return this.purchasesRepository.findOne({
      where: { id },
      relations: { items: true },
      order: { items: { id: 'ASC' } },
    });
  }
}
