/**
 * The product catalogue is a formula, not data: the seed writes it to the
 * database, and POST /orders prices an order from it without a query.
 */
export const PRODUCT_COUNT = 20;

/** Ten adjectives × two nouns give 20 distinct, stable names. */
const ADJECTIVES = ['Basic', 'Classic', 'Compact', 'Deluxe', 'Eco', 'Giant', 'Mini', 'Pro', 'Smart', 'Ultra'];
const NOUNS = ['Widget', 'Gadget'];

/** 100..9999 cents; 7919 is prime, so consecutive ids scatter across the range. */
export function unitPriceCents(productId: number): number {
  return 100 + ((productId * 7919) % 9900);
}

export function productName(productId: number): string {
  const index = productId - 1;
  return `${ADJECTIVES[index % ADJECTIVES.length]} ${NOUNS[Math.floor(index / ADJECTIVES.length) % NOUNS.length]}`;
}

/** 0..99 units in stock. */
export function productStock(productId: number): number {
  return (productId * 37) % 100;
}
