import { DEFAULT_ROUNDS, QUICK } from '../../../bench/run/options.js';
import { planPairs, roundOrder } from '../../../bench/run/plan.js';
import { SCENARIO_NAMES } from '../../../bench/model/scenarios.js';
import { TARGET_NAMES } from '../../../bench/run/targets.js';
import { TRANSFER_SCENARIOS } from '../../../bench/model/beyond.js';

const key = (pair: { target: string; scenario: string }) => `${pair.target}/${pair.scenario}`;

/**
 * The targets and scenarios of the plain app over HTTP/1.1: the TLS, HTTP/2 and transfer twins have tests of their
 * own.
 */
const TWIN = /-(tls|h2c?|transfer)$/;
const HTTP1_TARGETS = TARGET_NAMES.filter((name) => !TWIN.test(name));
const TWINS_ONLY = ['tls', 'tls-close', 'h2', 'h2c', ...TRANSFER_SCENARIOS.map((scenario) => scenario.name)];
const HTTP1_SCENARIOS = SCENARIO_NAMES.filter((name) => !TWINS_ONLY.includes(name));

describe('pairs', () => {
  it('give the raw targets only the scenarios they have routes for', () => {
    const { pairs, notApplicable } = planPairs(HTTP1_TARGETS, HTTP1_SCENARIOS);
    expect(pairs.filter((p) => p.target === 'raw-node').map((p) => p.scenario)).toEqual(['hello', 'json']);
    expect(pairs.filter((p) => p.target === 'nest-express')).toHaveLength(HTTP1_SCENARIOS.length);
    expect(pairs).toHaveLength(2 * HTTP1_SCENARIOS.length + 4 * 2);
    expect(notApplicable).toHaveLength(4 * (HTTP1_SCENARIOS.length - 2));
  });

  it('give the TLS and HTTP/2 profiles to their twins of the app only', () => {
    const { pairs } = planPairs(TARGET_NAMES, ['tls', 'h2', 'h2c']);
    expect(pairs.map((p) => `${p.target} ${p.scenario}`)).toEqual([
      'nest-express-tls tls',
      'nest-fastify-tls tls',
      'nest-fastify-h2 h2',
      'nest-fastify-h2c h2c',
    ]);
  });

  it('give the bodies, uploads, static files and streams to the twins with the transfer routes only', () => {
    const { pairs } = planPairs(TARGET_NAMES, ['upload-1m', 'close-every']);
    expect(pairs.map((p) => `${p.target} ${p.scenario}`)).toEqual([
      'nest-express-transfer upload-1m',
      'nest-fastify-transfer upload-1m',
      'nest-express close-every',
      'nest-fastify close-every',
    ]);
  });

  it('run the production stack and its ablation variants on the targets that list it, never on the raw servers', () => {
    const stacks = [{ stack: 'bare' }, { stack: 'production' }, { stack: 'production-without-helmet' }];
    const { pairs, notApplicable } = planPairs(HTTP1_TARGETS, ['hello'], undefined, stacks);
    expect(pairs.map((p) => `${p.target}@${p.stack}`)).toEqual([
      'nest-express@bare',
      'nest-fastify@bare',
      'raw-node@bare',
      'raw-express@bare',
      'raw-fastify@bare',
      'raw-hono@bare',
      'nest-express@production',
      'nest-fastify@production',
      'nest-express@production-without-helmet',
      'nest-fastify@production-without-helmet',
    ]);
    expect(notApplicable).toHaveLength(2 * 4);
  });
});

describe('round order with stacks', () => {
  const stacks = [{ stack: 'bare' }, { stack: 'production' }, { stack: 'production-without-logger' }];
  const { pairs } = planPairs(TARGET_NAMES, ['hello', 'catalog'], undefined, stacks);

  it('runs the Express and Fastify servers of one stack back to back, in every round', () => {
    for (let round = 0; round < 6; round++) {
      const order = roundOrder(pairs, round);
      for (const { stack } of stacks) {
        for (const scenario of ['hello', 'catalog']) {
          const at = (target: string) =>
            order.findIndex((p) => p.target === target && p.scenario === scenario && p.stack === stack);
          expect(Math.abs(at('nest-express') - at('nest-fastify'))).toBe(1);
        }
      }
    }
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
