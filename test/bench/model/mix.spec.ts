import { readFileSync } from 'node:fs';
import { interleave } from '../../../bench/model/mix.js';
import { parseWrkOutput } from '../../../bench/run/drivers/wrk-output.js';
import { sequenceEnv } from '../../../bench/run/drivers/wrk.js';

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

describe('a mix for wrk (bench/run/drivers/wrk.lua)', () => {
  const get = { method: 'GET', headers: {}, body: undefined, expectedStatus: 200 };
  const post = {
    route: 'c',
    method: 'POST',
    path: '/c',
    headers: { 'content-type': 'application/json' },
    body: '{"x":1}',
    expectedStatus: 201,
  };

  it('passes each route once and the cycle as indices into them', () => {
    const env = sequenceEnv([
      { ...get, route: 'a', path: '/a' },
      { ...get, route: 'b', path: '/b?x=1', headers: { 'x-who': 'bee', accept: '*/*' } },
      { ...get, route: 'a', path: '/a' },
      post,
    ]);
    expect(env).toEqual({
      BENCH_SEQUENCE: '1,2,1,3',
      BENCH_REQUEST_1_ROUTE: 'a',
      BENCH_REQUEST_1_METHOD: 'GET',
      BENCH_REQUEST_1_PATH: '/a',
      BENCH_REQUEST_1_HEADERS: '',
      BENCH_REQUEST_2_ROUTE: 'b',
      BENCH_REQUEST_2_METHOD: 'GET',
      BENCH_REQUEST_2_PATH: '/b?x=1',
      BENCH_REQUEST_2_HEADERS: 'x-who: bee\naccept: */*',
      BENCH_REQUEST_3_ROUTE: 'c',
      BENCH_REQUEST_3_METHOD: 'POST',
      BENCH_REQUEST_3_PATH: '/c',
      BENCH_REQUEST_3_HEADERS: 'content-type: application/json',
      BENCH_REQUEST_3_BODY: '{"x":1}',
    });
  });

  const mixOutput = () => readFileSync(new URL('../fixtures/wrk-mix.txt', import.meta.url), 'utf8');

  it("reads the requests sent per route from wrk's output (recorded with the cycle a,b,a,c; c a POST)", () => {
    const result = parseWrkOutput(mixOutput(), [200, 201]);
    expect(result.sentByRoute).toEqual({ a: 3113, b: 1557, c: 1556 });
    expect(result.requests).toBe(6225);
  });

  it("counts each route's own status as throughput: the GETs' 200 and the POST's 201", () => {
    const both = parseWrkOutput(mixOutput(), [200, 201]);
    expect(both.unexpectedStatus).toBe(0);
    expect(both.rps).toBeCloseTo(6225 / 1.006867, 6);
    expect(parseWrkOutput(mixOutput(), 200).unexpectedStatus).toBe(1556);
  });

  it('leaves sentByRoute out of a run of one request', () => {
    const result = parseWrkOutput(readFileSync(new URL('../fixtures/wrk-hello.txt', import.meta.url), 'utf8'), 200);
    expect(result).not.toHaveProperty('sentByRoute');
  });
});
