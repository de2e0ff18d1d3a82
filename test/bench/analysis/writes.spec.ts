import { halvesShift, writeGrowth } from '../../../bench/analysis/writes.js';
import { ownAppRecord, routeCompatibility, routeEntry } from '../support/own-app-record.js';
import { results } from '../support/synthetic-results.js';

describe('writes (rows written and the rate over the run)', () => {
  it('sees a route that slows as the data grows', () => {
    const shift = halvesShift([100, 98, 99, 60, 58, 61]);
    expect(shift?.estimate).toBeLessThan(-0.3);
    expect(shift?.high).toBeLessThan(0);
  });

  it('has nothing to say below two rounds a half', () => {
    expect(halvesShift([100, 90, 80])).toBeNull();
  });

  it('counts the answers with the route’s success status in its own runs, per adapter', () => {
    const made = results(() => 1);
    const run = (target: string, round: number, created: number) => {
      const [base] = made.runs;
      return {
        ...base,
        runtime: 'node@26',
        target,
        scenario: 'post-notes',
        round,
        load: { ...base.load, rps: created, statusCounts: { '201': created, '409': 1 } },
      };
    };
    const growth = writeGrowth({
      ...made,
      runs: [run('nest-express', 1, 10), run('nest-express', 2, 12), run('nest-fastify', 1, 20)],
      ownApp: ownAppRecord({
        routes: [routeEntry({ method: 'POST', path: '/notes', scenario: 'post-notes' })],
        compatibility: {
          startFailure: null,
          routes: [routeCompatibility({ scenario: 'post-notes', request: 'POST /notes' }, 201)],
        },
      }),
    });
    expect(growth.map((g) => [g.target, g.written])).toEqual([
      ['nest-express', 22],
      ['nest-fastify', 20],
    ]);
  });
});
