import { routeTiming } from '../../../bench/analysis/own-app-facts.js';
import { untimed } from '../../../bench/report/own-app-tables.js';

const run = (target: string, status: string, reason?: string) =>
  ({ scenario: 'post-users', target, status, failure: reason ? { reason } : null }) as any;
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
});
