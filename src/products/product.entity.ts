import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Column order here is the key order of the JSON that /products and /products/raw return. */
@Entity('product')
export class Product {
  @PrimaryColumn('int')
  id: number;

  @Column('varchar', { length: 64 })
  name: string;

  @Column('int')
  priceCents: number;

  @Column('int')
  stock: number;
}
