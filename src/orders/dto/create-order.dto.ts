import { IsInt, Max, Min } from 'class-validator';

export const MAX_ORDER_QUANTITY = 100;

export class CreateOrderDto {
  @IsInt()
  @Min(1)
  productId: number;

  @IsInt()
  @Min(1)
  @Max(MAX_ORDER_QUANTITY)
  quantity: number;
}
