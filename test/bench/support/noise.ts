// Seeded noise for the interval simulations: the same rounds every time, so a coverage test cannot flake.
import { seededRandom } from '../../../bench/analysis/stats.js';

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
