import { Column, Entity, PrimaryColumn } from 'typeorm';

/** TechEmpower's "World" table: 10,000 rows of (id, randomNumber). */
@Entity('world')
export class World {
  @PrimaryColumn('int')
  id: number;

  @Column('int')
  randomNumber: number;
}
