import { BUILTIN_CONFIG } from '../../../bench/model/builtin-config.js';

// raw-node only: the prepare step builds nothing, and mints no token without the secure route
const prepare = async (scenarios: string[]) => {
  const prepared = await BUILTIN_CONFIG.prepare!({ targets: ['raw-node'], scenarios, log: () => {} });
  if (!prepared) throw new Error('the built-in prepare step hands the run its environment');
  return prepared;
};

describe("the built-in app's prepare step", () => {
  it('leaves the transfer routes (and @fastify/multipart with them) out of a run that times none of them', async () => {
    for (const scenarios of [
      ['hello', 'catalog', 'purchases'],
      ['close-every', 'tls', 'h2c'],
    ]) {
      expect((await prepare(scenarios)).env?.APP_TRANSFER).toBe('0');
    }
  });

  it('switches them on for a run that times a body, an upload, a static file or a stream', async () => {
    for (const profile of ['body-1k', 'upload-20m', 'static-304', 'stream-10m', 'sse']) {
      expect((await prepare(['hello', profile])).env?.APP_TRANSFER).toBe('1');
    }
  });

  it('keeps them off the protocol twins, which time /json whatever else the run measures', () => {
    const twins = BUILTIN_CONFIG.targets.filter((target) => target.protocol !== 'http');
    expect(twins.map((target) => target.name).sort()).toEqual([
      'nest-express-tls',
      'nest-fastify-h2',
      'nest-fastify-h2c',
      'nest-fastify-tls',
    ]);
    for (const target of twins) expect(target.env.APP_TRANSFER).toBe('0');
  });
});
