import { Exclude } from 'class-transformer';
import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Category } from './category.entity.js';

/**
 * Field order here is the key order of the JSON that /catalog returns.
 * `costCents` is internal: ClassSerializerInterceptor (production stack)
 * leaves it out; the bare stack, which has no serializer, sends it.
 */
@Entity('catalog_items')
export class CatalogItem {
  @PrimaryColumn('int')
  id: number;

  @Column('varchar', { length: 64 })
  name: string;

  @Column('varchar', { length: 500 })
  description: string;

  @Column('int')
  priceCents: number;

  @Exclude()
  @Column('int')
  costCents: number;

  @ManyToOne(() => Category, { nullable: false })
  @JoinColumn({ name: 'categoryId' })
  category: Category;
}
