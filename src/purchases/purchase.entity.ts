import { Column, Entity, OneToMany, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { PurchaseItem } from './purchase-item.entity.js';

/** Field order here is the key order of the JSON that /purchases returns. */
@Entity('purchases')
export class Purchase {
  @PrimaryGeneratedColumn()
  id: number;

  @OneToMany(() => PurchaseItem, (item) => item.purchase, { cascade: ['insert'] })
  items: Relation<PurchaseItem>[];

  @Column('int')
  totalCents: number;
}
