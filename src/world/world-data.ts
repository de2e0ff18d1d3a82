export const WORLD_ROW_COUNT = 10_000;
const WORLD_SEED = 0x5eed;

/**
 * randomNumber (1..10000) of every world row in id order, from mulberry32
 * seeded with a constant: the same table on every start and every database.
 */
export function worldRandomNumbers(count = WORLD_ROW_COUNT): number[] {
  let state = WORLD_SEED;
  const numbers: number[] = [];
  for (let i = 0; i < count; i++) {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const unit = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    numbers.push(1 + Math.floor(unit * WORLD_ROW_COUNT));
  }
  return numbers;
}
