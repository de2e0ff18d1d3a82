/** The body POST /orders answers with. */
export interface Order {
  productId: number;
  quantity: number;
  unitPriceCents: number;
  totalCents: number;
}
