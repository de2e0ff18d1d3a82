import { ApiProperty } from '@nestjs/swagger';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('file')
export class FileEntity {
  @ApiProperty({ format: 'uuid' })
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @ApiProperty()
  @Column()
  path!: string;

  @ApiProperty()
  @Column()
  mimeType!: string;

  @ApiProperty()
  @Column()
  size!: number;

  @CreateDateColumn()
  createdAt!: Date;
}
