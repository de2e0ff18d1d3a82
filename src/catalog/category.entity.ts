import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('categories')
export class Category {
  @PrimaryColumn('int')
  id: number;

  @Column('varchar', { length: 32 })
  name: string;
}
