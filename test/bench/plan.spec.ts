import { DEFAULT_ROUNDS, QUICK } from '../../bench/run/options.js';
import { planPairs, roundOrder } from '../../bench/run/plan.js';
import { SCENARIO_NAMES } from '../../bench/run/scenarios.js';
import { TARGET_NAMES } from '../../bench/run/targets.js';

const key = (pair: { target: string; scenario: string }) => `${pair.target}/${pair.scenario}`;

describe('pairs', () => {
  it('give the raw targets only the scenarios they have routes for', () => {
    const { pairs, notApplicable } = planPairs(TARGET_NAMES, SCENARIO_NAMES);
    expect(pairs.filter((p) => p.target === 'raw-node').map((p) => p.scenario)).toEqual(['hello', 'json']);
    expect(pairs.filter((p) => p.target === 'nest-express')).toHaveLength(SCENARIO_NAMES.length);
    expect(pairs).toHaveLength(2 * 8 + 4 * 2);
    expect(notApplicable).toHaveLength(4 * 6);
  });
});

describe('round order', () => {
  const { pairs } = planPairs(TARGET_NAMES, SCENARIO_NAMES);
  const rounds = Array.from({ length: 6 }, (_, r) => roundOrder(pairs, r));

  it('runs every pair exactly once per round', () => {
    for (const order of rounds) expect(order.map(key).sort()).toEqual(pairs.map(key).sort());
  });

  it('runs each Express/Fastify pair of a scenario back to back, in every round', () => {
    for (const order of rounds) {
      for (const scenario of SCENARIO_NAMES) {
        for (const [express, fastify] of [
          ['nest-express', 'nest-fastify'],
          ['raw-express', 'raw-fastify'],
        ]) {
          const a = order.findIndex((p) => p.target === express && p.scenario === scenario);
          const b = order.findIndex((p) => p.target === fastify && p.scenario === scenario);
          if (a >= 0 || b >= 0) expect(Math.abs(a - b)).toBe(1);
        }
      }
    }
  });

  it('alternates which adapter of a pair goes first, and rotates what starts the round', () => {
    const firstOfHello = rounds.map(
      (order) => order.find((p) => p.scenario === 'hello' && p.target.startsWith('nest-'))!.target,
    );
    expect(firstOfHello).toEqual([
      'nest-express',
      'nest-fastify',
      'nest-express',
      'nest-fastify',
      'nest-express',
      'nest-fastify',
    ]);
    expect(new Set(rounds.map((order) => order[0].scenario)).size).toBeGreaterThan(1);
  });

  it.each([
    ['the default', DEFAULT_ROUNDS],
    ['--quick', QUICK.rounds],
  ])('over %s rounds, runs each Express/Fastify pair in both orders equally often', (_, rounds) => {
    expect(rounds % 2).toBe(0);
    const { pairs } = planPairs(TARGET_NAMES, SCENARIO_NAMES);
    for (const scenario of SCENARIO_NAMES) {
      for (const [express, fastify] of [
        ['nest-express', 'nest-fastify'],
        ['raw-express', 'raw-fastify'],
      ]) {
        const slots = Array.from({ length: rounds }, (__, round) => {
          const order = roundOrder(pairs, round).map(key);
          return [order.indexOf(`${express}/${scenario}`), order.indexOf(`${fastify}/${scenario}`)];
        }).filter(([e, f]) => e >= 0 && f >= 0);
        if (!slots.length) continue;
        expect(slots.filter(([e, f]) => e < f)).toHaveLength(rounds / 2);
      }
    }
  });
});
