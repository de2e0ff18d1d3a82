// results.json of made-up but well-formed runs, for tests of what the analysis and the reports make of them.
import { designOf } from '../../../bench/model/design.js';
import { RESULTS_SCHEMA } from '../../../bench/model/results.js';

export const ROUNDS = 12;
const EXPRESS_RPS = 10_000;

/** A small, fixed wobble per round, so intervals have width but every ratio stays well inside its band. */
export const wobble = (round: number) => 1 + ((round * 7) % 5) / 100;

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
) {
  const runs = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const expressFirst = round % 2 === 1;
    const start = Math.floor(((round - 1) * starts) / ROUNDS);
    const express = EXPRESS_RPS * expressSpeed * wobble(round);
    for (const [target, rps, slot] of [
      ['nest-express', express, expressFirst ? 1 : 2],
      ['nest-fastify', express * ratioOf(round, expressFirst, start), expressFirst ? 2 : 1],
    ] as const) {
      const durationSec = 0.5;
      runs.push({
        runtime,
        target,
        scenario: 'hello',
        stack,
        round,
        slot,
        start,
        startedAt: '2026-01-01T00:00:00.000Z',
        status: 'ok',
        failure: null,
        load: {
          requests: Math.round(rps * durationSec),
          statusCounts: { 200: Math.round(rps * durationSec) },
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
      });
    }
  }
  return {
    schema: RESULTS_SCHEMA,
    startedAt: '2026-01-01T00:00:00.000Z',
    plan: {
      runtimes: [runtime],
      pairs: [],
      notApplicable: [],
      design: designOf({ rounds: ROUNDS / starts, budgetSec: null, starts }),
    },
    options: {
      rounds: ROUNDS / starts,
      starts,
      budgetSec: null,
      scenarios: ['hello'],
      targets: ['nest-express', 'nest-fastify'],
    },
    environment: { cpu: { model: 'AMD EPYC', count: 2, governor: null } },
    targetFailures: [],
    started: [],
    verification: [],
    headerDifferences: [],
    runs,
    stops: [],
  } as any;
}
