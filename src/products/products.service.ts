import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { RAW_DATABASE, type RawDatabase } from '../database/raw-database.js';
import { Product } from './product.entity.js';

/** Same columns, same order as the entity, so both paths return the same bytes. */
const SELECT_ALL_PRODUCTS = 'SELECT id, name, priceCents, stock FROM product ORDER BY id';

@Injectable()
export class ProductsService {
  constructor(
    @InjectRepository(Product) private readonly productsRepository: Repository<Product>,
    @Inject(RAW_DATABASE) private readonly rawDatabase: RawDatabase,
  ) {}

  findAll(): Promise<Product[]> {
    return this.productsRepository.find({ order: { id: 'ASC' } });
  }

  findAllRaw(): Promise<Product[]> {
    return this.rawDatabase.query<Product>(SELECT_ALL_PRODUCTS);
  }

  findOne(id: number): Promise<Product | null> {
    return this.productsRepository.findOneBy({ id });
  }
}
