import { readFileSync } from 'node:fs';
import { parseWrkOutput } from '../../../../bench/run/drivers/wrk-output.js';
import { sequenceEnv } from '../../../../bench/run/drivers/wrk.js';

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

  const mixOutput = () => readFileSync(new URL('../../fixtures/wrk-mix.txt', import.meta.url), 'utf8');

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
    const result = parseWrkOutput(readFileSync(new URL('../../fixtures/wrk-hello.txt', import.meta.url), 'utf8'), 200);
    expect(result).not.toHaveProperty('sentByRoute');
  });
});
