import { BUILTIN_CONFIG } from '../../../bench/model/builtin-config.js';
import { TRANSFER_SCENARIOS } from '../../../bench/model/beyond.js';
import { judgedPairOn } from '../../../bench/model/compared.js';
import { planPairs } from '../../../bench/run/plan.js';

const TRANSFER = TRANSFER_SCENARIOS.map((scenario) => scenario.name);
const NEST_TARGETS = BUILTIN_CONFIG.targets.filter((target) => target.name.startsWith('nest-'));
const envOf = (name: string) => BUILTIN_CONFIG.targets.find((target) => target.name === name)!.env;

describe("the built-in app's servers", () => {
  it('run the transfer profiles, and only them, on twins that carry the transfer routes', () => {
    const all = BUILTIN_CONFIG.scenarios.map((scenario) => scenario.name);
    const { pairs } = planPairs(
      NEST_TARGETS.map((target) => target.name),
      all,
    );
    const carrying = pairs.filter((pair) => envOf(pair.target).APP_TRANSFER === '1');
    expect([...new Set(carrying.map((pair) => pair.target))].sort((a, b) => a.localeCompare(b))).toEqual([
      'nest-express-transfer',
      'nest-fastify-transfer',
    ]);
    expect([...new Set(carrying.map((pair) => pair.scenario))]).toEqual(TRANSFER);
    const others = pairs.filter((pair) => !TRANSFER.includes(pair.scenario));
    expect(others.length).toBeGreaterThan(0);
    for (const pair of others) expect(envOf(pair.target).APP_TRANSFER).toBe('0');
  });

  it('judge the transfer and TLS profiles on their twins, everything else on the plain pair', () => {
    expect(judgedPairOn(BUILTIN_CONFIG, 'upload-20m')).toEqual(['nest-fastify-transfer', 'nest-express-transfer']);
    expect(judgedPairOn(BUILTIN_CONFIG, 'tls')).toEqual(['nest-fastify-tls', 'nest-express-tls']);
    for (const scenario of ['hello', 'close-every', 'idle-4k', 'h2'])
      expect(judgedPairOn(BUILTIN_CONFIG, scenario)).toEqual(['nest-fastify', 'nest-express']);
  });
});
