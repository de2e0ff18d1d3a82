// Seeded noise for the interval simulations: the same rounds every time, so a coverage test cannot flake.

/** mulberry32: a tiny, well-distributed 32-bit PRNG. Returns uniform values in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal values by Box–Muller. */
export function seededNormal(seed: number): () => number {
  const random = seededRandom(seed);
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/**
 * n per-round ratios around `centre` with lognormal noise of the given coefficient of variation; consecutive rounds
 * follow an AR(1) process with coefficient `phi` (0: independent rounds), as on a host whose speed drifts.
 */
export function lognormalRounds(normal: () => number, n: number, centre: number, cv: number, phi = 0): number[] {
  const sigma = Math.sqrt(Math.log(1 + cv ** 2));
  const values: number[] = [];
  let state = normal();
  for (let i = 0; i < n; i++) {
    if (i > 0) state = phi * state + Math.sqrt(1 - phi ** 2) * normal();
    values.push(centre * Math.exp(sigma * state));
  }
  return values;
}
