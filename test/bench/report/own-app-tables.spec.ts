import { routeTiming } from '../../../bench/analysis/own-app-facts.js';
import type { Drain } from '../../../bench/model/records.js';
import type { RunRecord } from '../../../bench/model/results.js';
import { ownRoutesTable, untimed } from '../../../bench/report/own-app-tables.js';
import type { SwitchingCost } from '../../../bench/analysis/switching-cost.js';
import { plainText } from '../../../bench/report/rich-table.js';
import { routeEntry } from '../support/own-app-record.js';
import { results } from '../support/synthetic-results.js';
import { analyze } from '../support/analyze-read.js';
import { renderHtml } from '../../../bench/report/html.js';
import { renderMarkdown } from '../../../bench/report/markdown.js';
import { ownAppRecord } from '../support/own-app-record.js';

const run = (target: string, status: RunRecord['status'], reason?: string): RunRecord => ({
  ...results(() => 2).runs[0],
  scenario: 'post-users',
  target,
  status,
  failure: reason ? { reason } : null,
});
const text = (value: unknown) => JSON.stringify(value);

describe('a route listed for timing that has no ratio says why', () => {
  it('says nothing when both adapters have a timed run that answered', () => {
    expect(untimed(routeTiming('post-users', [run('nest-express', 'ok'), run('nest-fastify', 'ok')]))).toBeNull();
  });

  it('names the adapter no timed run answered on, with the run’s failure', () => {
    const why = untimed(
      routeTiming('post-users', [run('nest-express', 'ok'), run('nest-fastify', 'failed', 'status 409 ≠ 201')]),
    );
    expect(text(why)).toContain('no timed run on nest-fastify answered as checked (status 409 ≠ 201)');
  });

  it('says it was never timed when no run measured it', () => {
    expect(text(untimed(routeTiming('post-users', [])))).toContain('never timed');
  });

  it('says a route skipped by its verification was skipped, with what it answered and the flag that times it alone', () => {
    const skipped = {
      runtime: 'node@20',
      target: 'nest-express',
      scenario: 'post-users',
      stack: 'bare',
      ok: false,
      reason: 'expected status 201, got 403 (Forbidden resource)',
      status: 403,
      headers: {},
    };
    const why = text(untimed(routeTiming('post-users', [], { verification: [skipped], drains: [], chosen: null })));
    expect(why).toContain(
      'skipped: its verification before timing on nest-express failed (expected status 201, got 403 (Forbidden resource))',
    );
    expect(why).toContain('--scenarios post-users times it alone');
    expect(why).not.toContain('hang or crash');
  });

  it('names a hang under load, and --scenarios when it left the route out', () => {
    const hung: Drain = {
      runtime: 'node@20',
      target: 'nest-fastify',
      scenario: 'post-users',
      stack: 'bare',
      phase: 'round',
      round: 1,
      start: 0,
      connections: 4,
      outcome: 'hung',
      heldAtEnd: 4,
      drainedMs: 2000,
      capMs: 2000,
      heldAfter: 4,
      probes: [],
    };
    expect(text(untimed(routeTiming('post-users', [], { drains: [hung] })))).toContain(
      'its server hung on nest-fastify under 4 connections',
    );
    expect(text(untimed(routeTiming('post-users', [], { chosen: ['users'] })))).toContain(
      '--scenarios left it out: add post-users to time it',
    );
  });
});

describe('the NODE_ENV the app’s servers ran with', () => {
  /** report.md and report.html of a run whose record says the servers' folder and, when given, their NODE_ENV. */
  function reports(nodeEnv?: string) {
    const run = results(() => 1.2);
    run.ownApp = ownAppRecord({
      cwd: '/srv/shop',
      versions: { '@nestjs/core': '11.1.18' },
      ...(nodeEnv ? { nodeEnv } : {}),
    });
    const analysis = analyze(run);
    return [renderMarkdown(analysis), renderHtml(analysis)];
  }

  it('is said beside the folder in report.md and report.html, with how to run them otherwise', () => {
    for (const report of reports('production')) {
      expect(report).toContain('Its servers ran in /srv/shop');
      expect(report).toContain('The bench started them with NODE_ENV=production');
      expect(report).toContain('set process.env.NODE_ENV at the top of the setup module');
    }
  });

  it('is not claimed for a run recorded before the bench said it', () => {
    for (const report of reports()) expect(report).not.toContain('NODE_ENV');
  });
});

describe('a route whose own request a global filter turned into a 500', () => {
  it('says, beside why it has no ratio, that Express refused it and the filter failed on Fastify', () => {
    const record = ownAppRecord({
      routes: [
        {
          ...routeEntry({ method: 'POST', path: '/offers', handler: 'Offers.create', scenario: null }),
          notMeasured: 'differs on Fastify: status 400 → 500',
        },
      ],
    });
    const switching = {
      findings: [
        {
          kind: 'breaks',
          source: 'code',
          what: 'response.json',
          route: null,
          where: 'src/filters/http-exception.filter.ts:14',
          code: null,
          request: null,
          onFastify: '',
          fix: '',
          answers: null,
          place: '',
          shared: {
            role: 'filter',
            registered: 'src/main.ts:12',
            routes: 1,
            symptoms: [
              {
                source: 'request',
                route: 'POST /offers',
                what: 'status 400 → 500',
                request: 'POST /offers',
                express: 400,
                fastify: 500,
              },
            ],
          },
        },
      ],
    } as unknown as SwitchingCost;
    const [row] = ownRoutesTable({ registered: record.routes, traffic: null, mix: null, timing: {} }, switching).rows;
    expect(plainText(row[4])).toBe(
      'differs on Fastify: status 400 → 500: Express refused its request (400); Fastify’s 500 is the filter at src/filters/http-exception.filter.ts:14 failing to answer that refusal (first in What to change for Fastify)',
    );
  });

  it('says what a middleware explains as what the adapters answered, where it was no refusal turned 500', () => {
    const record = ownAppRecord({
      routes: [
        {
          ...routeEntry({ method: 'POST', path: '/login', handler: 'Auth.login', scenario: null }),
          notMeasured: 'differs on Fastify: status 200 → none',
        },
      ],
    });
    const switching = {
      findings: [
        {
          where: 'src/main.ts:12',
          shared: {
            role: 'middleware',
            registered: 'src/main.ts:12',
            routes: 1,
            symptoms: [
              {
                source: 'request',
                route: 'POST /login',
                what: 'status 200 → none',
                request: 'POST /login',
                express: 200,
                fastify: null,
              },
            ],
          },
        },
      ],
    } as unknown as SwitchingCost;
    const [row] = ownRoutesTable({ registered: record.routes, traffic: null, mix: null, timing: {} }, switching).rows;
    expect(plainText(row[4])).toBe(
      'differs on Fastify: status 200 → none: Express answered 200, Fastify nothing: the middleware at src/main.ts:12 explains it (in What to change for Fastify)',
    );
  });
});
