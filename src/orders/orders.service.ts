import { Injectable } from '@nestjs/common';
import { unitPriceCents } from '../products/product-catalog.js';
import type { CreateOrderDto } from './dto/create-order.dto.js';
import type { Order } from './order.js';

/** Prices an order from the catalogue formula: this route measures parsing and validation, not the database. */
@Injectable()
export class OrdersService {
  create({ productId, quantity }: CreateOrderDto): Order {
    const price = unitPriceCents(productId);
    return { productId, quantity, unitPriceCents: price, totalCents: quantity * price };
  }
}
