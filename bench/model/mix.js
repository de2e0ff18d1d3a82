// @ts-check
// A weighted traffic mix as one fixed, interleaved cycle of requests that every generator goes round: the same shares
// in every run and on every generator, with no random numbers to seed.

/**
 * @typedef {{ route: string, weight: number }} MixShare weight: a whole number, the route's share of the mix
 */

/** @param {number} a @param {number} b @returns {number} */
const gcd = (a, b) => (b === 0 ? a : gcd(b, a % b));

/**
 * One cycle of the mix by smooth weighted round-robin (how nginx spreads requests over weighted upstreams): each route
 * appears weight ÷ gcd(weights) times per cycle, spread out rather than bunched, so that any slice of the cycle a short
 * run or a single connection goes through holds every route near its share.
 * @param {MixShare[]} shares
 * @returns {string[]} route names, one per request of the cycle
 * @throws {Error} on an empty mix, a repeated route or a weight that is not a whole number above 0
 */
export function interleave(shares) {
  if (shares.length === 0) throw new Error('a mix needs at least one route');
  for (const { route, weight } of shares) {
    if (!Number.isInteger(weight) || weight < 1)
      throw new Error(`mix weight of ${route} must be a whole number above 0`);
  }
  const repeated = shares.find((share, i) => shares.findIndex((other) => other.route === share.route) !== i);
  if (repeated) throw new Error(`mix route ${repeated.route} is listed twice`);
  const divisor = shares.map((s) => s.weight).reduce(gcd);
  const weights = shares.map((s) => s.weight / divisor);
  const total = weights.reduce((a, b) => a + b, 0);
  const current = weights.map(() => 0);
  /** @type {string[]} */
  const cycle = [];
  for (let n = 0; n < total; n++) {
    weights.forEach((weight, i) => {
      current[i] += weight;
    });
    const chosen = current.indexOf(Math.max(...current));
    current[chosen] -= total;
    cycle.push(shares[chosen].route);
  }
  return cycle;
}
