import { Exclude } from 'class-transformer';
import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Purchase } from './purchase.entity.js';

/**
 * One line of a purchase. Its row id is internal: ClassSerializerInterceptor
 * (production stack) leaves it out; the bare stack sends it.
 */
@Entity('purchase_items')
export class PurchaseItem {
  @Exclude()
  @PrimaryGeneratedColumn()
  id: number;

  @Column('int')
  productId: number;

  @Column('int')
  quantity: number;

  @Column('int')
  unitPriceCents: number;

  @ManyToOne(() => Purchase, (purchase) => purchase.items, { nullable: false })
  @JoinColumn({ name: 'purchaseId' })
  purchase: Relation<Purchase>;
}
