// A measurement session whose servers and load generator are stand-ins, for tests of what a design does with them:
// which runs it makes, in what order, and what it records. Nothing is booted and no request is sent.
import { BUILTIN_CONFIG } from '../../../bench/model/builtin-config.js';
import { designOf } from '../../../bench/model/design.js';
import { Recorder } from '../../../bench/model/recorder.js';
import type { Results } from '../../../bench/model/results.js';
import { instanceName } from '../../../bench/model/stacks.js';
import type { LoadRequest, LoadResult } from '../../../bench/run/drivers/registry.js';
import type { Options } from '../../../bench/run/options.js';
import type { Pair } from '../../../bench/run/plan.js';
import { createProgress } from '../../../bench/run/progress.js';
import { planRuntime, runState, type RuntimeInput } from '../../../bench/run/runtime-plan.js';
import type { ServedTarget } from '../../../bench/run/targets.js';

export const RUNTIME = 'node@20';
/** The compared pair on the plainest scenario. */
export const HELLO_PAIR: Pair[] = [
  { target: 'nest-express', scenario: 'hello', stack: 'bare' },
  { target: 'nest-fastify', scenario: 'hello', stack: 'bare' },
];

/** A load every server answered: `requests` responses of the expected status in the run's length. */
export function answered(request: LoadRequest, requests = 1000): LoadResult {
  return {
    requests,
    statusCounts: { 200: requests },
    durationSec: request.durationSec,
    rps: requests / request.durationSec,
    latencyMs: { p50: 1, p90: 2, p99: 3, p999: null, mean: 1, max: 4 },
    errors: 0,
    timeouts: 0,
    unexpectedStatus: 0,
    generatorCpuSec: 0,
    warnings: [],
  };
}

/** Where the progress lines go unless a test reads them: nowhere. */
const nowhere = { isTTY: false, write: () => true } as unknown as NodeJS.WriteStream;

/** A server on another host as the bench sees one: no pid to read, alive throughout. */
function remoteServer(port: number): ServedTarget {
  return {
    pid: null,
    url: `http://127.0.0.1:${port}`,
    startupLine: '',
    stop: async () => ({ code: 0, signal: null }),
    exited: new Promise(() => {}),
    exitInfo: () => null,
    stderrTail: () => '',
    telemetry: null,
    telemetryMissing: null,
  };
}

/**
 * A runtime's plan over `pairs` on the built-in config and its state, its servers running, each load going to `run`
 * (the stand-in for the generator), every run recorded in `results` (through the Recorder) and the progress written
 * to `log`.
 */
export function fakeSession(
  pairs: Pair[],
  flags: Partial<Options>,
  run: (request: LoadRequest) => Promise<LoadResult>,
  {
    standing = () => 'undecided',
    glance = () => null,
    log = nowhere,
  }: { standing?: RuntimeInput['standing']; glance?: RuntimeInput['glance']; log?: NodeJS.WriteStream } = {},
) {
  const options = {
    rounds: 2,
    budgetSec: null,
    starts: 1,
    warmupSec: 0,
    burstSec: 0,
    durationSec: 0.01,
    connections: 2,
    pipelining: 1,
    cpus: null,
    ...flags,
  } as Options;
  const record = new Recorder({
    runs: [],
    stops: [],
    started: [],
    verification: [],
    targetFailures: [],
  } as unknown as Results);
  const controller = new AbortController();
  const plan = planRuntime({
    runtime: { name: 'node', version: '20' } as never,
    runtimeKey: RUNTIME,
    config: BUILTIN_CONFIG,
    options,
    design: designOf(options),
    driver: { name: 'stand-in', sendsMixes: false, checkAvailable: async () => {}, version: async () => '0', run },
    pairs,
    token: null,
    env: {},
    outDir: '',
    record,
    progress: createProgress({ stream: log, totalPlannedSec: 1 }),
    signal: controller.signal,
    standing,
    glance,
  });
  // port 9 (discard): nothing listens, so the settle before each run finds nothing held
  const state = runState(plan, new Map(pairs.map((pair) => [instanceName(pair), remoteServer(9)])));
  return { plan, state, results: record.results, abort: () => controller.abort() };
}
