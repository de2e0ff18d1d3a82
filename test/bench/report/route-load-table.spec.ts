import { routeFindings } from '../../../bench/analysis/route-findings.js';
import type { Results } from '../../../bench/model/results.js';
import { routeLoadTable } from '../../../bench/report/route-load-table.js';
import { plainText } from '../../../bench/report/rich-table.js';
import type { Drain } from '../../../bench/run/recover.js';
import type { RouteLoad } from '../../../bench/run/route-load.js';
import { results as syntheticResults } from '../support/synthetic-results.js';

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
  /** What a drain records that these tests leave as a clear warm-up's. */
  type Usual =
    | 'runtime'
    | 'target'
    | 'stack'
    | 'phase'
    | 'round'
    | 'start'
    | 'connections'
    | 'heldAtEnd'
    | 'drainedMs'
    | 'capMs'
    | 'heldAfter'
    | 'probes'
    | 'lastAnswer';
  const drain = (scenario: string, extra: Omit<Drain, 'scenario' | Usual> & { [K in Usual]?: Drain[K] }): Drain => ({
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
