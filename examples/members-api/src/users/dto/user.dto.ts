import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEmail, IsInt, IsNotEmpty, IsOptional, IsUUID, Max, Min, MinLength, ValidateNested } from 'class-validator';

/** A relation by id, as clients send it: `{ "role": { "id": "…" } }`. */
export class EntityRefDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  id!: string;
}

export class CreateUserDto {
  @ApiProperty({ example: 'jane.doe@example.com' })
  @IsEmail()
  email!: string;

  @ApiProperty({ minLength: 8 })
  @MinLength(8)
  password!: string;

  @ApiProperty({ example: 'Jane' })
  @IsNotEmpty()
  firstName!: string;

  @ApiProperty({ example: 'Doe' })
  @IsNotEmpty()
  lastName!: string;

  @ApiProperty({ type: EntityRefDto })
  @ValidateNested()
  @Type(() => EntityRefDto)
  role!: EntityRefDto;

  @ApiPropertyOptional({ type: EntityRefDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => EntityRefDto)
  photo?: EntityRefDto | null;
}

export class UpdateUserDto extends PartialType(CreateUserDto) {}

export class UpdateProfileDto extends PartialType(OmitType(CreateUserDto, ['email', 'password', 'role'] as const)) {}

export class QueryUsersDto {
  @ApiPropertyOptional({ default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page = 1;

  @ApiPropertyOptional({ default: 10, maximum: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(50)
  limit = 10;
}
