import { SET_CONFIG_SHAPE, setConfig } from '../../../bench/packages/set-config.js';
import { parseOptions } from '../support/options.js';
import { refusal } from '../support/refusal.js';

describe('--packages options', () => {
  it('measures every era app route, the DB routes among them where a cell has them, on the bare stack by default', () => {
    const options = parseOptions(['--packages', 'nest@10'], SET_CONFIG_SHAPE);
    expect(options.packages).toBe('nest@10');
    expect(options.scenarios).toEqual(SET_CONFIG_SHAPE.scenarios.map((s) => s.name));
    expect(options.scenarios).toEqual(expect.arrayContaining(['hello', 'json', 'orders', 'products', 'purchases']));
    expect(options.stacks).toEqual(['bare']);
  });

  it('refuses --nest-benchmark without --packages, and --packages beside --prof or --config', () => {
    expect(refusal(() => parseOptions(['--nest-benchmark']))).toBe(
      '--nest-benchmark runs on package sets; add --packages',
    );
    expect(refusal(() => parseOptions(['--packages', 'nest@10', '--prof'], SET_CONFIG_SHAPE))).toMatch(
      /^--prof profiles one set of servers per runtime/,
    );
    expect(refusal(() => parseOptions(['--packages', 'nest@10', '--config', 'x.json'], SET_CONFIG_SHAPE))).toMatch(
      /^--packages runs the era app on each set; --config/,
    );
  });
});

describe('setConfig', () => {
  it('gives a framework set its framework and the baseline, and a Nest set all five servers', () => {
    expect(setConfig('express', '/sets/express-4', false).targets.map((t) => t.name)).toEqual([
      'raw-node',
      'raw-express',
    ]);
    expect(setConfig('nest', '/sets/nest-10', false).targets.map((t) => t.name)).toEqual([
      'nest-express',
      'nest-fastify',
      'raw-node',
      'raw-express',
      'raw-fastify',
    ]);
  });

  it('serves the DB routes on both adapters only where the cell has them, and tells the server so', () => {
    const names = (database: boolean) => setConfig('nest', '/sets/nest-10', database).scenarios.map((s) => s.name);
    expect(names(false)).toEqual(['hello', 'json', 'orders']);
    expect(names(true)).toEqual([
      'hello',
      'json',
      'products',
      'product-by-id',
      'queries',
      'orders',
      'catalog',
      'purchases',
    ]);
    const nest = setConfig('nest', '/sets/nest-10', true).targets.filter((t) => t.group === 'nest');
    expect(nest.map((t) => t.env.ERA_DATABASE)).toEqual(['1', '1']);
    expect(nest.every((t) => t.scenarios?.includes('purchases'))).toBe(true);
    expect(setConfig('nest', '/sets/nest-10', false).targets.every((t) => !t.env.ERA_DATABASE)).toBe(true);
  });
});
