import { halvesShift, writeGrowth } from '../../../bench/analysis/writes.js';

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
    const run = (target: string, round: number, created: number) => ({
      runtime: 'node@26',
      target,
      scenario: 'post-notes',
      round,
      status: 'ok',
      load: { rps: created, statusCounts: { '201': created, '409': 1 } },
    });
    const growth = writeGrowth({
      runs: [run('nest-express', 1, 10), run('nest-express', 2, 12), run('nest-fastify', 1, 20)],
      ownApp: {
        routes: [{ method: 'POST', scenario: 'post-notes', request: 'POST /notes' }],
        compatibility: { routes: [{ scenario: 'post-notes', expect: { status: 201 } }] },
        mix: null,
      },
    } as any);
    expect(growth.map((g) => [g.target, g.written])).toEqual([
      ['nest-express', 22],
      ['nest-fastify', 20],
    ]);
  });
});
