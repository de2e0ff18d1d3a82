import { MIN_PRIME_RUN_SEC, PRIME_REQUESTS, PRIME_RUN_SEC, primeRunSec } from '../../../../bench/run/designs/prime.js';

describe('primeRunSec: how long the next priming run of a server lasts', () => {
  it('runs the first run for PRIME_RUN_SEC, before the server has a rate', () => {
    expect(primeRunSec({ requests: 0, seconds: 0 })).toBe(PRIME_RUN_SEC);
  });

  it('sizes a later run to the requests still missing at the rate so far, a little longer', () => {
    // 20,000 answered in 1 s: the 10,000 missing take 0.5 s at that rate
    const sec = primeRunSec({ requests: PRIME_REQUESTS - 10_000, seconds: 1 });
    expect(sec).toBeGreaterThan(0.5);
    expect(sec).toBeLessThan(0.6);
  });

  it('never runs longer than the first run, however slow the server', () => {
    expect(primeRunSec({ requests: 1_000, seconds: 1 })).toBe(PRIME_RUN_SEC);
  });

  it('never runs shorter than MIN_PRIME_RUN_SEC, however few requests are missing', () => {
    expect(primeRunSec({ requests: PRIME_REQUESTS - 10, seconds: 1 })).toBe(MIN_PRIME_RUN_SEC);
  });
});
