import { TRANSFER_SCENARIOS } from '../../../bench/model/beyond.js';
import { BUILTIN_CONFIG } from '../../../bench/model/builtin-config.js';
import { BUILTIN_RUN_CONFIG, prepareBuiltinApp } from '../../../bench/run/builtin-app.js';

const TRANSFER = TRANSFER_SCENARIOS.map((scenario) => scenario.name);

// raw-node only: the prepare step builds nothing, and mints no token without the secure route
const prepare = async (scenarios: string[]) => {
  const prepared = await prepareBuiltinApp({ targets: ['raw-node'], scenarios, log: () => {} });
  if (!prepared) throw new Error('the built-in prepare step hands the run its environment');
  return prepared;
};

describe("the built-in app's prepare step", () => {
  it('leaves APP_TRANSFER to each target: the environment every server gets does not name it', async () => {
    for (const scenarios of [
      ['hello', 'catalog'],
      ['hello', ...TRANSFER],
      ['close-every', 'tls', 'h2c'],
    ]) {
      expect((await prepare(scenarios)).env).not.toHaveProperty('APP_TRANSFER');
    }
  });

  it('is the one a run of the built-in setup takes; the setup itself is data', () => {
    expect(BUILTIN_CONFIG.prepare).toBeNull();
    expect(BUILTIN_RUN_CONFIG.prepare).toBe(prepareBuiltinApp);
    expect(BUILTIN_RUN_CONFIG.targets).toBe(BUILTIN_CONFIG.targets);
  });
});
