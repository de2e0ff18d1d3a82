import { beyondProfiles } from '../../../bench/analysis/beyond-profiles.js';
import { measuredConfig } from '../../../bench/analysis/analyze.js';
import { BUILTIN_CONFIG } from '../../../bench/model/builtin-config.js';
import { configRecord } from '../../../bench/model/config.js';
import type { Verification } from '../../../bench/model/records.js';
import type { LoadResult, Results, RunRecord } from '../../../bench/model/results.js';
import { results as syntheticResults } from '../support/synthetic-results.js';

const RUNTIME = 'node@26.12.1';
const block = { runtime: RUNTIME, stack: 'bare' };
const recorded = syntheticResults(() => 1, { runtime: RUNTIME });
const [timedRun] = recorded.runs;
const builtIn = configRecord(BUILTIN_CONFIG);

const run = (
  target: string,
  scenario: string,
  load: Partial<LoadResult>,
  status: RunRecord['status'] = 'ok',
): RunRecord => ({
  ...timedRun,
  ...block,
  target,
  scenario,
  status,
  generator: { cpuShare: 0.4, saturated: false },
  load: { ...timedRun.load, errors: 0, timeouts: 0, ...load },
});

const verified = (target: string, scenario: string, reason: string | null = null): Verification => ({
  ...block,
  target,
  scenario,
  ok: reason === null,
  reason,
  status: 200,
  headers: {},
});

const upload = builtIn.scenarios.find((entry) => entry.name === 'upload-20m')!;
const results: Results = {
  ...recorded,
  options: { ...recorded.options, connections: 50 },
  config: {
    ...builtIn,
    scenarios: [
      { ...upload, load: { connections: 4, durationSec: 4, requestsPerConnection: null, connectionRate: null } },
    ],
  },
  verification: [
    verified('nest-express-transfer', 'upload-20m'),
    verified('nest-fastify-transfer', 'upload-20m', 'a truncated file'),
    verified('nest-fastify', 'hello'),
  ],
  runs: [
    run('nest-express', 'close-every', { requests: 1000, rps: 900, connectionsOpened: 150 }),
    run('nest-fastify', 'close-every', { requests: 1000, rps: 1100, connectionsOpened: 150 }),
    run('nest-fastify', 'close-every', { requests: 0, rps: 0 }, 'failed'),
    run('nest-fastify', 'hello', { requests: 1000, rps: 1000 }),
  ],
};
const planned = {
  runtimes: [RUNTIME],
  scenarios: ['hello', 'upload-20m', 'close-every', 'idle-1k'],
  stacks: ['bare'],
  targetRows: [],
};

describe("a beyond profile's facts", () => {
  const profiles = beyondProfiles(results, planned, measuredConfig(results).scenarioOf);
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
