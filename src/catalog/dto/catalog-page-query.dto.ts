import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const DEFAULT_PAGE_SIZE = 50;
export const MIN_PAGE_SIZE = 1;
export const MAX_PAGE_SIZE = 100;
/** Keeps the row offset well inside a SQL INT. */
export const MAX_PAGE = 1_000_000;

/** `?page=P&pageSize=S`: P must be an integer from 1; S is clamped to 1..100 by the service. */
export class CatalogPageQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page: number = 1;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  pageSize: number = DEFAULT_PAGE_SIZE;
}
