import { analyze } from '../../../bench/analysis/analyze.js';
import { ratioIn, targetRowIn } from '../../../bench/analysis/block-rows.js';
import { results } from '../support/synthetic-results.js';

describe('a block’s rows on one runtime', () => {
  const analysis = analyze(results(() => 2, { runtime: 'node@24' }));
  const block = { runtime: 'node@24', scenario: 'hello', stack: 'bare' };

  it('finds the judged ratio of the block, and none on a runtime or stack it was not measured on', () => {
    expect(ratioIn(analysis, block, { judged: true })).toMatchObject({
      judged: true,
      numerator: 'nest-fastify',
      denominator: 'nest-express',
    });
    expect(ratioIn(analysis, { ...block, runtime: 'node@20' }, { judged: true })).toBeUndefined();
    expect(ratioIn(analysis, { ...block, stack: 'production' }, { judged: true })).toBeUndefined();
  });

  it('finds a ratio by its kind and numerator, and none of a numerator the block has not', () => {
    const judged = ratioIn(analysis, block, { judged: true });
    expect(ratioIn(analysis, block, { kind: judged?.kind, numerator: 'nest-fastify' })).toBe(judged);
    expect(ratioIn(analysis, block, { kind: 'baseline', numerator: 'nest-fastify' })).toBeUndefined();
  });

  it('finds each target’s summary in the block', () => {
    expect(targetRowIn(analysis, block, 'nest-express')?.target).toBe('nest-express');
    expect(targetRowIn(analysis, block, 'raw-node')).toBeUndefined();
  });
});
