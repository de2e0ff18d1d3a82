import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  Column,
  CreateDateColumn,
  DeleteDateColumn,
  Entity,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { FileEntity } from '../files/file.entity';
import { Role } from '../roles/role.entity';

@Entity('user')
export class User {
  @ApiProperty({ format: 'uuid' })
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @ApiProperty({ format: 'email' })
  @Column({ unique: true })
  email!: string;

  @Column({ select: false })
  password!: string;

  @ApiProperty()
  @Column()
  firstName!: string;

  @ApiProperty()
  @Column()
  lastName!: string;

  @ApiProperty({ type: () => Role })
  @ManyToOne(() => Role, { eager: true })
  role!: Role;

  @ApiPropertyOptional({ type: () => FileEntity })
  @ManyToOne(() => FileEntity, { eager: true, nullable: true })
  photo?: FileEntity | null;

  @ApiProperty()
  @CreateDateColumn()
  createdAt!: Date;

  @ApiProperty()
  @UpdateDateColumn()
  updatedAt!: Date;

  @DeleteDateColumn()
  deletedAt?: Date | null;
}
