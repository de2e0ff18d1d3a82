import { ANSWERS_PER_CONNECTION_IN_A_BLOCK } from '../../../bench/model/design.js';
import {
  blockLoadFrom,
  MAX_LOWERED_DURATION_SEC,
  MIN_ANSWERS_PER_CONNECTION,
  MIN_LOWERED_CONNECTIONS,
  loadFor,
} from '../../../bench/run/route-load.js';
import { drainCapMs, MAX_DRAIN_CAP_MS, probeDeadlineMs } from '../../../bench/run/recover.js';
import { SETTLE_CAP_MS } from '../../../bench/run/settle.js';

const QUICK = { connections: 50, durationSec: 0.25, pipelining: 1 };

describe('the load a route is measured with, from its single-request latency', () => {
  it('keeps the flags for a route fast enough that every connection gets its answers', () => {
    expect(loadFor(0.5, QUICK)).toEqual({ connections: 50, durationSec: 0.25 });
  });

  it('gives a 50 ms route few connections and a run long enough for each to be answered several times', () => {
    const load = loadFor(50, QUICK);
    expect(load.connections).toBe(MIN_LOWERED_CONNECTIONS);
    // Little's law: each of C connections waits about C × 50 ms per answer
    expect((load.durationSec * 1000) / (load.connections * 50)).toBeGreaterThanOrEqual(MIN_ANSWERS_PER_CONNECTION);
  });

  it('lowers the connections of a route of a few milliseconds without lengthening its run', () => {
    const load = loadFor(4, QUICK);
    expect(load).toEqual({ connections: Math.floor(250 / (MIN_ANSWERS_PER_CONNECTION * 4)), durationSec: 0.25 });
  });

  it('never runs longer than its cap: a route of seconds gets one connection instead', () => {
    const load = loadFor(2000, QUICK);
    expect(load).toEqual({ connections: 1, durationSec: MAX_LOWERED_DURATION_SEC });
  });

  it('counts pipelined requests as in flight', () => {
    expect(loadFor(1, QUICK).connections).toBe(50);
    expect(loadFor(1, { ...QUICK, pipelining: 4 }).connections).toBe(
      Math.floor(250 / (MIN_ANSWERS_PER_CONNECTION * 4)),
    );
  });
});

describe('the wait after a load', () => {
  it("allows a backlog several times its route's latency, between the settle cap and its own cap", () => {
    expect(drainCapMs(0.5, 50)).toBe(SETTLE_CAP_MS);
    expect(drainCapMs(100, 50)).toBe(20_000);
    expect(drainCapMs(1000, 50)).toBe(MAX_DRAIN_CAP_MS);
    expect(drainCapMs(null, 50)).toBe(SETTLE_CAP_MS);
  });

  it("gives the probe ten times the route's own latency, never less than two seconds", () => {
    expect(probeDeadlineMs(1)).toBe(2000);
    expect(probeDeadlineMs(500)).toBe(5000);
  });
});

describe("a block's load, fitted on its warm-up rounds", () => {
  const DEFAULT = { connections: 50, durationSec: 0.25, pipelining: 1 };

  it('keeps the flags where each connection is answered many times a run', () => {
    const fitted = blockLoadFrom([{ requests: 8000, durationSec: 0.25 }], 50, DEFAULT);
    expect(fitted).toMatchObject({ connections: 50, durationSec: 0.25 });
  });

  it('sets the load by the slower server: three waves of 50 become runs of many waves of fewer connections', () => {
    const fitted = blockLoadFrom(
      [
        { requests: 150, durationSec: 0.3 },
        { requests: 100, durationSec: 0.3 },
      ],
      50,
      DEFAULT,
    );
    expect(fitted?.msPerRequest).toBeCloseTo(3, 5);
    expect(fitted?.connections).toBe(Math.floor(250 / (ANSWERS_PER_CONNECTION_IN_A_BLOCK * 3)));
    const answersPerConnection = ((fitted?.durationSec ?? 0) * 1000) / ((fitted?.connections ?? 1) * 3);
    expect(answersPerConnection).toBeGreaterThanOrEqual(ANSWERS_PER_CONNECTION_IN_A_BLOCK - 0.5);
  });

  it('never lengthens a run: a route slower than the fewest connections can answer often keeps its length', () => {
    const fitted = blockLoadFrom([{ requests: 10, durationSec: 0.25 }], 50, DEFAULT);
    expect(fitted).toMatchObject({ connections: MIN_LOWERED_CONNECTIONS, durationSec: 0.25 });
  });

  it('takes a server that answered nothing as at least a run per wave, and a failed run as no evidence', () => {
    const fitted = blockLoadFrom([{ requests: 0, durationSec: 0.3 }, null], 50, DEFAULT);
    expect(fitted?.msPerRequest).toBeCloseTo(6, 5);
    expect(blockLoadFrom([null], 50, DEFAULT)).toBeNull();
  });
});
