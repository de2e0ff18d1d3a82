import { measureRounds } from '../../../../bench/run/designs/rounds.js';
import { answered, fakeSession, HELLO_PAIR, RUNTIME } from '../../support/fake-session.js';

const pairs = HELLO_PAIR;

describe('the rounds design', () => {
  it('runs --rounds rounds of every pair, numbered from 1, the pair swapping who goes first each round', async () => {
    const { plan, state, results } = fakeSession(pairs, { rounds: 3 }, async (request) => answered(request));
    expect(await measureRounds(plan, state, pairs)).toBe(true);
    expect(results.runs.map((run) => [run.round, run.slot, run.target])).toEqual([
      [1, 1, 'nest-express'],
      [1, 2, 'nest-fastify'],
      [2, 1, 'nest-fastify'],
      [2, 2, 'nest-express'],
      [3, 1, 'nest-express'],
      [3, 2, 'nest-fastify'],
    ]);
    expect(results.runs.every((run) => run.runtime === RUNTIME && run.status === 'ok')).toBe(true);
  });

  it('sends an untimed burst right before each timed run when --burst asks for one', async () => {
    const lengths: number[] = [];
    const { plan, state } = fakeSession(pairs, { rounds: 1, burstSec: 0.5, durationSec: 2 }, async (request) => {
      lengths.push(request.durationSec);
      return answered(request);
    });
    await measureRounds(plan, state, pairs);
    expect(lengths).toEqual([0.5, 2, 0.5, 2]);
  });

  it('records a run whose generator failed as failed, naming the generator, and goes on with the next', async () => {
    let loads = 0;
    const { plan, state, results } = fakeSession(pairs, { rounds: 1 }, async (request) => {
      if (loads++ === 0) throw new Error('connection refused');
      return answered(request);
    });
    await measureRounds(plan, state, pairs);
    expect(results.runs.map((run) => [run.target, run.status, run.failure?.reason ?? null])).toEqual([
      ['nest-express', 'failed', 'stand-in failed: connection refused'],
      ['nest-fastify', 'ok', null],
    ]);
  });

  it('stops at Ctrl-C and keeps no record of the run it cut short', async () => {
    const { plan, state, results, abort } = fakeSession(pairs, { rounds: 3 }, async (request) => {
      if (results.runs.length === 2) abort();
      return answered(request);
    });
    expect(await measureRounds(plan, state, pairs)).toBe(false);
    expect(results.runs).toHaveLength(2);
  });
});
