import { blockKey, pairKey } from '../../../bench/model/keys.js';

describe('block and pair keys', () => {
  it('give every record of one scenario on one stack the same block key, whatever else it holds', () => {
    const run = { target: 'nest-express', scenario: 'json', stack: 'production', round: 3 };
    expect(blockKey(run)).toBe(blockKey({ scenario: 'json', stack: 'production' }));
    expect(blockKey(run)).not.toBe(blockKey({ scenario: 'json', stack: 'bare' }));
  });

  it('never run two names together: a scenario and stack that concatenate alike are two blocks', () => {
    expect(blockKey({ scenario: 'json', stack: 'production' })).not.toBe(
      blockKey({ scenario: 'jsonp', stack: 'roduction' }),
    );
    expect(pairKey({ target: 'a', scenario: 'bc', stack: 'bare' })).not.toBe(
      pairKey({ target: 'ab', scenario: 'c', stack: 'bare' }),
    );
  });

  it('tell the pairs of a block apart by target', () => {
    const block = { scenario: 'hello', stack: 'bare' };
    expect(pairKey({ ...block, target: 'nest-express' })).not.toBe(pairKey({ ...block, target: 'nest-fastify' }));
  });
});
