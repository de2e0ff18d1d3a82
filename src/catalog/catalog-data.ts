/**
 * The catalogue behind /catalog and /purchases is a formula, like the product
 * table's: the seed writes it, the e2e tests recompute it, and every start on
 * every database holds the same rows.
 */
export const CATALOG_ITEM_COUNT = 1_000;

export const CATEGORY_NAMES = [
  'Books',
  'Electronics',
  'Garden',
  'Home',
  'Kitchen',
  'Music',
  'Office',
  'Outdoors',
  'Sports',
  'Tools',
  'Toys',
  'Travel',
] as const;

const ADJECTIVES = ['Sturdy', 'Handy', 'Quiet', 'Bright', 'Light', 'Rugged', 'Sleek', 'Folding', 'Classic', 'Smart'];
const NOUNS = ['Lamp', 'Kettle', 'Backpack', 'Speaker', 'Planter', 'Notebook', 'Drill', 'Tent', 'Racket', 'Puzzle'];

/** Three of these per item: descriptions of 200–300 characters, so a page of 50 items is 10–30 KB of JSON. */
const SENTENCES = [
  'Built to last through years of daily use without losing its shape or finish.',
  'Ships flat in recycled packaging and assembles in minutes without any tools.',
  'Tested by our team in rain, dust and heat before it ever reached the catalogue.',
  'Pairs well with the rest of the range and fits the standard accessories.',
  'Comes with a two-year warranty and spare parts available on request.',
  'Its understated design suits a workshop, a kitchen or a living room alike.',
  'Customers most often buy it as a gift, and most of them buy a second one.',
];

/** 5 and 12 are coprime: consecutive items walk through every category. */
export function categoryIdOf(itemId: number): number {
  return 1 + ((itemId * 5) % CATEGORY_NAMES.length);
}

export function catalogItemName(itemId: number): string {
  const index = itemId - 1;
  return `${ADJECTIVES[index % ADJECTIVES.length]} ${NOUNS[Math.floor(index / ADJECTIVES.length) % NOUNS.length]} ${itemId}`;
}

export function catalogItemDescription(itemId: number): string {
  return [0, 2, 4].map((offset) => SENTENCES[(itemId + offset) % SENTENCES.length]).join(' ');
}

/** 100..49999 cents; 7919 is prime, so consecutive ids scatter across the range. */
export function catalogItemPriceCents(itemId: number): number {
  return 100 + ((itemId * 7919) % 49_900);
}

/** What the shop pays its supplier: internal, never sent by the production stack. */
export function catalogItemCostCents(itemId: number): number {
  return Math.floor((catalogItemPriceCents(itemId) * 3) / 5);
}
