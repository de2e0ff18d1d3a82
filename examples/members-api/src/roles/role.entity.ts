import { ApiProperty } from '@nestjs/swagger';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export enum RoleName {
  Admin = 'admin',
  User = 'user',
}

@Entity('role')
export class Role {
  @ApiProperty({ format: 'uuid' })
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @ApiProperty({ enum: RoleName })
  @Column({ unique: true })
  name!: string;
}
