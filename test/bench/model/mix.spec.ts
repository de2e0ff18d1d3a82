import { interleave } from '../../../bench/model/mix.js';

const SHARES = [
  { route: 'catalog', weight: 40 },
  { route: 'product-by-id', weight: 25 },
  { route: 'secure', weight: 15 },
  { route: 'purchases', weight: 10 },
  { route: 'hello', weight: 10 },
];
const countsOf = (routes: string[]) =>
  routes.reduce<Record<string, number>>((counts, route) => ({ ...counts, [route]: (counts[route] ?? 0) + 1 }), {});

describe('a mix as one interleaved cycle', () => {
  it('holds each route weight ÷ gcd(weights) times per cycle', () => {
    const cycle = interleave(SHARES);
    expect(cycle).toHaveLength(20);
    expect(countsOf(cycle)).toEqual({ catalog: 8, 'product-by-id': 5, secure: 3, purchases: 2, hello: 2 });
  });

  it('spreads the routes out: all five within the first six requests, never the same route twice in a row', () => {
    const cycle = interleave(SHARES);
    expect(new Set(cycle.slice(0, 6))).toEqual(new Set(SHARES.map((s) => s.route)));
    expect(cycle.slice(1).every((route, i) => route !== cycle[i])).toBe(true);
  });

  it('keeps the shares in any half of the cycle to within one request per route', () => {
    const cycle = interleave(SHARES);
    for (const start of [0, 5, 10]) {
      const half = countsOf(cycle.slice(start, start + 10));
      for (const { route, weight } of SHARES) expect(Math.abs((half[route] ?? 0) - weight / 10)).toBeLessThanOrEqual(1);
    }
  });

  it('is the same cycle every time', () => {
    expect(interleave(SHARES)).toEqual(interleave(SHARES));
  });

  it('refuses an empty mix, a repeated route and weights that are not whole numbers above 0', () => {
    expect(() => interleave([])).toThrow(/at least one route/);
    expect(() => interleave([SHARES[0], SHARES[0]])).toThrow(/catalog is listed twice/);
    expect(() => interleave([{ route: 'hello', weight: 0 }])).toThrow(/whole number above 0/);
    expect(() => interleave([{ route: 'hello', weight: 1.5 }])).toThrow(/whole number above 0/);
  });
});
