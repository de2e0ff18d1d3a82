import {
  BARE,
  PRODUCTION,
  PRODUCTION_PARTS,
  baseStack,
  instanceName,
  omittedPart,
  stackEnv,
  stackHeaders,
  targetStackEnv,
  withoutPart,
} from '../../../bench/model/stacks.js';

const LOG = '/results/run/requests-nest-express.log';

describe('ablation variants', () => {
  it('name the part they leave out of production, and belong to the production stack', () => {
    for (const part of PRODUCTION_PARTS) {
      const variant = withoutPart(part);
      expect(omittedPart(variant)).toBe(part);
      expect(baseStack(variant)).toBe(PRODUCTION);
    }
  });

  it('are neither bare nor production themselves', () => {
    expect([BARE, PRODUCTION].map(omittedPart)).toEqual([null, null]);
    expect([BARE, PRODUCTION].map(baseStack)).toEqual([BARE, PRODUCTION]);
  });
});

describe('what a server of a stack is started with', () => {
  it('always names its stack, so it never falls back to what its environment says', () => {
    expect(stackEnv(BARE, LOG)).toEqual({ APP_STACK: 'bare', APP_STACK_OMIT: '' });
  });

  it('gives production and its variants the request log file, and a variant the part it omits', () => {
    expect(stackEnv(PRODUCTION, LOG)).toEqual({ APP_STACK: 'production', APP_STACK_OMIT: '', REQUEST_LOG_FILE: LOG });
    expect(stackEnv(withoutPart('helmet'), LOG)).toEqual({
      APP_STACK: 'production',
      APP_STACK_OMIT: 'helmet',
      REQUEST_LOG_FILE: LOG,
    });
  });

  it('gives a target that runs only as it is (one stack) no stack environment at all', () => {
    expect(targetStackEnv({ stacks: [BARE] }, BARE, LOG)).toEqual({});
    expect(targetStackEnv({ stacks: [BARE, PRODUCTION] }, PRODUCTION, LOG)).toMatchObject({ APP_STACK: 'production' });
  });

  it('has production requests accept gzip, so its compression is exercised, and bare ones not', () => {
    expect(stackHeaders(PRODUCTION)).toEqual({ 'accept-encoding': 'gzip' });
    expect(stackHeaders(BARE)).toEqual({});
  });
});

describe('instanceName', () => {
  it('is the target alone on the bare stack, and the target at its stack otherwise', () => {
    expect(instanceName({ target: 'nest-express', stack: BARE })).toBe('nest-express');
    expect(instanceName({ target: 'nest-express', stack: PRODUCTION })).toBe('nest-express@production');
  });
});
