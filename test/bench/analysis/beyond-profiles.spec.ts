import { beyondProfiles } from '../../../bench/analysis/beyond-profiles.js';

const RUNTIME = 'node@26.12.1';
const block = { runtime: RUNTIME, stack: 'bare' };

const run = (target: string, scenario: string, load: object, status = 'ok') => ({
  ...block,
  target,
  scenario,
  status,
  generator: { cpuShare: 0.4, saturated: false },
  load: { errors: 0, timeouts: 0, ...load },
});

const results = {
  options: { connections: 50 },
  config: {
    scenarios: [
      {
        name: 'upload-20m',
        load: { connections: 4, durationSec: 4, requestsPerConnection: null, connectionRate: null },
      },
    ],
  },
  verification: [
    { ...block, target: 'nest-express-transfer', scenario: 'upload-20m', ok: true, reason: null },
    { ...block, target: 'nest-fastify-transfer', scenario: 'upload-20m', ok: false, reason: 'a truncated file' },
    { ...block, target: 'nest-fastify', scenario: 'hello', ok: true, reason: null },
  ],
  runs: [
    run('nest-express', 'close-every', { requests: 1000, rps: 900, connectionsOpened: 150 }),
    run('nest-fastify', 'close-every', { requests: 1000, rps: 1100, connectionsOpened: 150 }),
    run('nest-fastify', 'close-every', { requests: 0, rps: 0 }, 'failed'),
    run('nest-fastify', 'hello', { requests: 1000, rps: 1000 }),
  ],
} as any;
const planned = { runtimes: [RUNTIME], scenarios: ['hello', 'upload-20m', 'close-every', 'idle-1k'], stacks: ['bare'] };

describe("a beyond profile's facts", () => {
  const profiles = beyondProfiles(results, planned);
  const named = (scenario: string) => profiles.find((profile) => profile.scenario === scenario)!;

  it('cover the beyond profiles that were verified or ran, never hello', () => {
    expect(profiles.map((profile) => profile.scenario)).toEqual(['upload-20m', 'close-every']);
  });

  it("take the profile's own load where it has one, else the run's connections", () => {
    expect(named('upload-20m').load).toEqual({
      connections: 4,
      connectionRate: null,
      requestsPerConnection: null,
      shortestSec: 4,
    });
    expect(named('close-every').load.connections).toBe(50);
  });

  it('say which answer verification refused, and why', () => {
    expect(named('upload-20m')).toMatchObject({
      verified: true,
      refused: [{ target: 'nest-fastify-transfer', reason: 'a truncated file' }],
    });
  });

  it('count the connections the generator opened over its ok runs, per run and per answer past the first', () => {
    expect(named('close-every').generator.opened).toEqual({ perRun: 150, reopenedPerAnswer: 0.1 });
    expect(named('close-every').held).toEqual([]);
  });
});
