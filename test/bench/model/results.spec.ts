import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../../bench/errors.js';
import {
  RECORDED_BEFORE_STOP_RULE,
  RESULTS_SCHEMA,
  readResults,
  type RunRecord,
} from '../../../bench/model/results.js';
import { results } from '../support/synthetic-results.js';

/** A run as the first schema wrote it, before stacks and starts (a later run may have them). */
type FirstSchemaRun = Omit<RunRecord, 'stack' | 'start'> & Partial<Pick<RunRecord, 'stack' | 'start'>>;

/** results.json as the first schema wrote it: no stacks, no starts, no budget, no stops. */
function firstSchema(options: object = {}) {
  const current = results(() => 2);
  const { stack: _stack, start: _start, ...run } = current.runs[0];
  const runs: FirstSchemaRun[] = [run];
  return {
    ...current,
    schema: 1,
    options: { rounds: 12, scenarios: ['hello'], targets: ['nest-express', 'nest-fastify'], ...options },
    plan: { runtimes: ['node@20'], pairs: [{ target: 'nest-express', scenario: 'hello' }], notApplicable: [] },
    verification: [{ runtime: 'node@20', target: 'nest-express', scenario: 'hello', ok: true }],
    headerDifferences: [],
    runs,
    stops: undefined,
  };
}

describe('readResults', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'read-results-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const read = (written: unknown) => {
    writeFileSync(join(dir, 'results.json'), JSON.stringify(written));
    return readResults(dir);
  };

  it("fills in each scenario's metric from its load in results written before metrics were recorded", () => {
    const current = results(() => 2);
    const config = current.config!;
    const scenarios = [
      { name: 'hello', description: 'GET /', method: 'GET', path: '/' },
      {
        name: 'idle-1k',
        description: 'GET / on 1,000 connections',
        method: 'GET',
        path: '/',
        load: { connections: 1000, durationSec: 6, requestsPerConnection: null, connectionRate: 0.5 },
      },
    ];
    const upgraded = read({ ...current, config: { ...config, scenarios } });
    expect(upgraded.config!.scenarios.map((scenario) => [scenario.name, scenario.metric])).toEqual([
      ['hello', 'req/s'],
      ['idle-1k', 'cpu-per-request'],
    ]);
  });

  it('reads results of the first schema in the current shape: the bare stack, one start, no budget, no stops', () => {
    const upgraded = read(firstSchema());
    expect(upgraded.schema).toBe(RESULTS_SCHEMA);
    expect(upgraded.runs[0]).toMatchObject({ stack: 'bare', start: 0 });
    expect(upgraded.plan.pairs[0].stack).toBe('bare');
    expect(upgraded.plan.runtimeChoice).toBeNull();
    expect(upgraded.plan.design).toMatchObject({
      kind: 'rounds',
      starts: 1,
      roundsPerStart: 12,
      budgetPerRuntimeSec: null,
    });
    expect(upgraded.verification[0].stack).toBe('bare');
    expect(upgraded.options).toMatchObject({ starts: 1, budgetSec: null, burstSec: 0, pipelining: 1 });
    expect(upgraded.stops).toEqual([]);
    expect(upgraded.stopRule).toBeUndefined();
  });

  it('gives a budget over starts that recorded no stop rule nor design the ones it ran under', () => {
    const upgraded = read(firstSchema({ starts: 4, budgetSec: 300 }));
    expect(upgraded.stopRule).toEqual(RECORDED_BEFORE_STOP_RULE);
    expect(upgraded.plan.design).toMatchObject({
      kind: 'budgeted-starts',
      starts: 4,
      roundsPerStart: null,
      budgetPerRuntimeSec: 300,
    });
  });

  it('keeps what the first schema did record', () => {
    const written = firstSchema({ starts: 4, budgetSec: 300 });
    written.runs[0] = { ...written.runs[0], stack: 'production', start: 3 };
    const upgraded = read({ ...written, stops: [{ scenario: 'hello' }], stopRule: { decideConfidence: 0.9 } });
    expect(upgraded.runs[0]).toMatchObject({ stack: 'production', start: 3 });
    expect(upgraded.stops).toEqual([{ scenario: 'hello' }]);
    expect(upgraded.stopRule).toEqual({ decideConfidence: 0.9 });
  });

  it('reads what a run of the first schema did not observe (neighbours, server state, host) as null, and stacks its profiles', () => {
    const written = firstSchema();
    // the synthetic run records neither the server's state nor the host
    const { neighbours: _neighbours, ...unobserved } = written.runs[0];
    const upgraded = read({
      ...written,
      environment: { ...written.environment, host: undefined },
      runs: [unobserved],
      profiles: [{ target: 'nest-express', scenario: 'hello' }],
    });
    expect(upgraded.runs[0]).toMatchObject({ neighbours: null, state: null, host: null });
    expect(upgraded.environment.host).toBeNull();
    expect(upgraded.profiles?.[0].stack).toBe('bare');
  });

  it('reads results of the current schema as they are', () => {
    const current = results(() => 2);
    expect(read(current)).toEqual(current);
  });

  it('refuses a results file from a newer bench, and a file that is not one, with a UsageError', () => {
    expect(() => read({ ...results(() => 2), schema: RESULTS_SCHEMA + 1 })).toThrow(UsageError);
    expect(() => read({ schema: 1, runs: [] })).toThrow(/is not a results file this bench reads/);
  });
});
