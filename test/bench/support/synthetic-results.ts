// results.json of made-up but well-formed runs, for tests of what the analysis and the reports make of them. Built
// with model/'s own builders, so a change to the results shape fails the typecheck here, not in a report.
import { analyze, type RatioRow } from '../../../bench/analysis/analyze.js';
import type { Verdict } from '../../../bench/analysis/verdict.js';
import { BUILTIN_CONFIG } from '../../../bench/model/builtin-config.js';
import { configRecord } from '../../../bench/model/config.js';
import { designOf } from '../../../bench/model/design.js';
import { createResults, type LoadResult, type Results, type RunRecord } from '../../../bench/model/results.js';
import type { Environment, GcSummary, HeapState, ServerState } from '../../../bench/model/records.js';
import { parseOptions } from './options.js';

export const ROUNDS = 12;
const EXPRESS_RPS = 10_000;
const DRIVER = 'autocannon';
const STARTED_AT = '2026-01-01T00:00:00.000Z';

/** A small, fixed wobble per round, so intervals have width but every ratio stays well inside its band. */
export const wobble = (round: number) => 1 + ((round * 7) % 5) / 100;

/** The host the made-up runs ran on: two CPUs, nothing pinned, no runtime details. */
export const ENVIRONMENT: Environment = {
  cpu: { model: 'AMD EPYC', count: 2, governor: null },
  host: null,
  memoryGiB: 8,
  os: { kernel: 'Linux 6.8.0', distribution: null },
  bench: { node: '20.20.2', argv: [] },
  runtimes: [],
  packages: {},
  driver: DRIVER,
  git: { commit: null, dirty: null },
  database: 'sql.js',
  cpus: null,
};

const NO_COLLECTIONS: GcSummary = { pauses: {}, flagged: {}, events: [], droppedEvents: 0 };

/** A heap of `heapUsedMiB` in a process of `rssMiB`, all of it used. */
export const heapOf = (rssMiB: number, heapUsedMiB: number): HeapState => ({
  youngMiB: null,
  oldMiB: null,
  heapTotalMiB: heapUsedMiB,
  heapUsedMiB,
  externalMiB: 0,
  rssMiB,
});

/** A server's telemetry of a run that collected nothing, its heap `heapBefore` before the run and `heapAfter` after. */
export const serverState = (
  heapBefore: ServerState['heapBefore'],
  heapAfter: ServerState['heapAfter'],
): ServerState => ({
  between: NO_COLLECTIONS,
  during: NO_COLLECTIONS,
  heapBefore,
  heapAfter,
  eventLoopDelay: null,
  eventLoopUtilization: null,
  unsupported: {},
});

/** A timed run as the synthetic results hold it: every part measured, so a test may change each of them. */
export type SyntheticRun = Omit<RunRecord, 'load' | 'server' | 'generator'> & {
  load: LoadResult;
  server: NonNullable<RunRecord['server']>;
  generator: NonNullable<RunRecord['generator']>;
};
/** Results whose runs are all SyntheticRuns. */
export type SyntheticResults = Omit<Results, 'runs'> & { runs: SyntheticRun[] };

/** One timed run that answered every request with 200 at `rps`. */
function okRun(
  record: Pick<RunRecord, 'runtime' | 'target' | 'stack' | 'round' | 'slot' | 'start'>,
  rps: number,
): SyntheticRun {
  const durationSec = 0.5;
  const requests = Math.round(rps * durationSec);
  return {
    ...record,
    scenario: 'hello',
    startedAt: STARTED_AT,
    status: 'ok',
    failure: null,
    load: {
      requests,
      statusCounts: { 200: requests },
      durationSec,
      rps,
      latencyMs: { p50: 1, p90: 2, p99: 3, p999: 4, mean: 1, max: 5 },
      errors: 0,
      timeouts: 0,
      unexpectedStatus: 0,
      generatorCpuSec: 0.3,
      warnings: [],
    },
    server: { cpuUsPerRequest: 50, peakRssMiB: 80, peakRssWindow: 'run' },
    generator: { cpuShare: 0.6, saturated: false },
    neighbours: { busiest: 'raw-node', cpuShare: 0 },
    state: null,
    host: null,
  };
}

/**
 * results.json for Nest-Express and Nest-Fastify on one scenario: in odd rounds Express runs first, in even rounds
 * Fastify, as the plan's rotation does; Fastify's ratio in each round comes from `ratioOf`. With `starts`, the rounds
 * are split evenly over that many server starts, each record carrying its start.
 */
export function results(
  ratioOf: (round: number, expressFirst: boolean, start: number) => number,
  {
    runtime = 'node@20',
    expressSpeed = 1,
    starts = 1,
    stack = 'bare',
  }: { runtime?: string; expressSpeed?: number; starts?: number; stack?: string } = {},
): SyntheticResults {
  const runs: SyntheticRun[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const expressFirst = round % 2 === 1;
    const start = Math.floor(((round - 1) * starts) / ROUNDS);
    const express = EXPRESS_RPS * expressSpeed * wobble(round);
    const record = { runtime, stack, round, start };
    runs.push(
      okRun({ ...record, target: 'nest-express', slot: expressFirst ? 1 : 2 }, express),
      okRun(
        { ...record, target: 'nest-fastify', slot: expressFirst ? 2 : 1 },
        express * ratioOf(round, expressFirst, start),
      ),
    );
  }
  const rounds = ROUNDS / starts;
  const options = parseOptions([
    '--rounds',
    String(rounds),
    '--starts',
    String(starts),
    '--scenarios',
    'hello',
    '--targets',
    'nest-express,nest-fastify',
  ]);
  const made = createResults({
    startedAt: new Date(STARTED_AT),
    environment: ENVIRONMENT,
    options: { ...options, driver: DRIVER },
    config: configRecord(BUILTIN_CONFIG),
    plan: {
      driver: DRIVER,
      pairs: [],
      notApplicable: [],
      runtimes: [runtime],
      runtimeChoice: null,
      design: designOf({ rounds, budgetSec: null, starts }),
    },
  });
  return { ...made, complete: true, stopReason: null, runs };
}

/**
 * The judged ratio row the analysis makes of these results on `runtime`, moved to `scenario` with `median` inside a
 * ±10 % interval and `verdict`.
 */
export function judgedRatio(runtime: string, scenario: string, median: number, verdict: Verdict): RatioRow {
  const row = analyze(results(() => 1, { runtime })).ratios.find((ratio) => ratio.judged)!;
  return {
    ...row,
    scenario,
    verdict,
    summary: { ...row.summary, median, ci: { low: median * 0.9, high: median * 1.1, coverage: 0.95 } },
  };
}
