import { ANSWERS_PER_CONNECTION_IN_A_BLOCK } from '../../../bench/model/design.js';
import {
  blockLoadFrom,
  MAX_LOWERED_DURATION_SEC,
  MIN_ANSWERS_PER_CONNECTION,
  MIN_LOWERED_CONNECTIONS,
  loadFor,
  type RouteLoad,
} from '../../../bench/run/route-load.js';
import { type Drain, drainCapMs, MAX_DRAIN_CAP_MS, probeDeadlineMs } from '../../../bench/run/recover.js';
import type { Results } from '../../../bench/model/results.js';
import { results as syntheticResults } from '../support/synthetic-results.js';
import { SETTLE_CAP_MS } from '../../../bench/run/settle.js';
import { routeLoadTable } from '../../../bench/report/route-load-table.js';
import { routeFindings } from '../../../bench/analysis/route-findings.js';
import { plainText } from '../../../bench/report/rich-table.js';

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

describe('how each route was measured, in the report', () => {
  const load = (scenario: string, aloneMs: number, connections: number, durationSec: number): RouteLoad => ({
    runtime: 'node@26.10.0',
    scenario,
    stack: 'bare',
    aloneMs: { 'nest-express': aloneMs, 'nest-fastify': aloneMs },
    connections,
    durationSec,
    lowered: connections < 50 || durationSec > 0.25,
  });
  const drain = (scenario: string, extra: Pick<Drain, 'outcome'> & Partial<Drain>): Drain => ({
    runtime: 'node@26.10.0',
    target: 'nest-express',
    scenario,
    stack: 'bare',
    phase: 'warm-up',
    round: 0,
    start: 0,
    connections: 50,
    heldAtEnd: 0,
    drainedMs: 40,
    capMs: 2000,
    heldAfter: 0,
    probes: [],
    lastAnswer: { requests: 12, statusCounts: { '202': 12 } },
    ...extra,
  });
  const made = syntheticResults(() => 2);
  const results: Results = {
    ...made,
    options: { ...made.options, connections: 50, durationSec: 0.25 },
    routeLoads: [
      load('health', 0.4, 50, 0.25),
      load('post-accounts', 48, 4, 0.96),
      load('reports', 0.6, 50, 0.25),
      load('post-events', 0.5, 50, 0.25),
    ],
    drains: [
      drain('post-accounts', { outcome: 'backlog', heldAtEnd: 4, drainedMs: 620, probes: [] }),
      drain('reports', {
        outcome: 'hung',
        heldAtEnd: 5,
        lastAnswer: { requests: 0, statusCounts: {} },
        probes: [{ request: 'GET /reports', answered: false, ms: 2003, status: null }],
        eventLoopDelay: { p50Ms: 10, p99Ms: 10.3, maxMs: 12 },
      }),
      drain('post-events', {
        outcome: 'crashed',
        exit: {
          exitCode: 1,
          signal: null,
          stderrTail:
            "Error: event batch of 15 is over the sink's limit of 8\n    at Timeout.flush (app.js:1:1)\n\nNode.js v26.10.0\n",
        },
      }),
    ],
  };
  const rows = () => {
    const table = routeLoadTable(routeFindings(results), results.options)!;
    return Object.fromEntries(table.rows.map((row) => [plainText(row[1]), plainText(row[row.length - 1])]));
  };

  it('says a route that answered the flags’ load did', () => {
    expect(rows().health).toBe('answered the flags’ load');
  });

  it('names a slow route with the load it was measured at and the backlog it left', () => {
    expect(rows()['post-accounts']).toBe(
      'left a backlog after 1 load: drained in up to 620 ms, up to 4 requests held when the load stopped; ' +
        'slow: measured at 4 connections for 0.96 s instead of 50 for 0.25 s',
    );
  });

  it('names a hang with its connections, what was held, the unanswered probe and the event-loop delay', () => {
    expect(rows().reports).toBe(
      'hangs under 50 connections (nest-express, warm-up): 0 answers in that load, 5 requests held when it stopped, ' +
        '0 after 40 ms, GET /reports unanswered after 2,003 ms, event-loop delay p99 10.3 ms; restarted, left out of the run',
    );
  });

  it("names a crash with its exit code and the error line of the server's stderr", () => {
    expect(rows()['post-events']).toBe(
      'crashed its server (nest-express, warm-up): exit code 1, "Error: event batch of 15 is over the sink\'s limit of 8"; ' +
        '12 answers in that load; restarted, left out of the run',
    );
  });

  it('has no table for a run that fitted no route', () => {
    expect(routeLoadTable(routeFindings({ ...results, routeLoads: undefined }), results.options)).toBeNull();
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
