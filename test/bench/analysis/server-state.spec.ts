import { attributeSpikes, pairState, targetState } from '../../../bench/analysis/server-state.js';
import type { RunRecord } from '../../../bench/model/results.js';

const NO_GC = { pauses: {}, flagged: {}, events: [], droppedEvents: 0 };

function run(target: string, round: number, youngMiB: number, extra: Partial<RunRecord> = {}): RunRecord {
  return {
    runtime: 'node@26.10.0',
    target,
    scenario: 'hello',
    stack: 'bare',
    round,
    slot: 1,
    start: 0,
    startedAt: '2026-11-25T00:00:00Z',
    status: 'ok',
    failure: null,
    load: { rps: 1000, durationSec: 0.5 } as RunRecord['load'],
    server: null,
    generator: null,
    neighbours: null,
    state: {
      between: NO_GC,
      during: { ...NO_GC, pauses: { minor: { count: 4, totalMs: 5, maxMs: 2 } } },
      heapBefore: { youngMiB, oldMiB: 30, heapTotalMiB: 90, heapUsedMiB: 40, externalMiB: 5, rssMiB: 180 },
      heapAfter: null,
      eventLoopDelay: { p50Ms: 1, p99Ms: 3, maxMs: 4 },
      eventLoopUtilization: 1,
      unsupported: {},
    },
    host: { stealShare: 0, serverCore: null },
    ...extra,
  };
}

const reducing = {
  ...NO_GC,
  pauses: { major: { count: 1, totalMs: 74, maxMs: 74 } },
  flagged: { allExternalMemory: 1 },
};

describe('a server’s state over its rounds', () => {
  /** Ten rounds of 100 requests; rounds 3 and 7 had a full GC before them, costing `cpuThen` µs per request. */
  function fullGcSide(cpuThen: number, pauseMs = 0) {
    const fullGc = { ...NO_GC, pauses: { major: { count: 1, totalMs: pauseMs, maxMs: pauseMs } } };
    return Array.from({ length: 10 }, (_, i) => {
      const round = i + 1;
      const gcRound = round === 3 || round === 7;
      const r = run('nest-express', round, 64, {
        load: { rps: 200, durationSec: 0.5, requests: 100 } as RunRecord['load'],
        server: { cpuUsPerRequest: gcRound ? cpuThen : 2000, peakRssMiB: 200, peakRssWindow: 'run' },
      });
      if (gcRound) r.state = { ...r.state!, between: fullGc };
      return r;
    });
  }
  const asPairs = (side: RunRecord[]) => side.map((r) => ({ round: r.round, numerator: r, denominator: r }));

  it('names the rounds a full GC preceded when they cost more CPU per request than the rest', () => {
    const [cost] = pairState(asPairs(fullGcSide(3000))).fullGcCosts;
    // every run's 5 ms of scavenges over 100 requests (50 µs each) is GC, not the code
    expect(cost).toEqual({ target: 'nest-express', rounds: [3, 7], cpuRatio: (3000 - 50) / (2000 - 50) });
  });

  it('names nothing when the rounds a full GC preceded cost what the rest did', () => {
    expect(pairState(asPairs(fullGcSide(2100))).fullGcCosts).toEqual([]);
  });

  it('does not count the GC’s own pauses during the run as the code’s cost', () => {
    const side = fullGcSide(3000);
    for (const r of side.filter((r) => r.round === 3 || r.round === 7))
      r.state = {
        ...r.state!,
        between: NO_GC,
        during: { ...NO_GC, pauses: { major: { count: 1, totalMs: 100, maxMs: 100 } } },
      };
    expect(pairState(asPairs(side)).fullGcCosts).toEqual([]);
  });

  it('names the rounds whose young generation started at most half its largest size, and the usual size', () => {
    const express = [1, 2, 3, 4, 5, 6].map((round) =>
      run('nest-express', round, round < 5 ? 64 : round === 5 ? 1 : 16),
    );
    const fastify = [1, 2, 3, 4, 5, 6].map((round) => run('nest-fastify', round, 64));
    const state = pairState(express.map((e, i) => ({ round: e.round, numerator: fastify[i], denominator: e })));
    expect(state.heapSteps).toEqual([
      { target: 'nest-express', rounds: [5, 6], steppedMiB: { low: 1, high: 16 }, usualMiB: 64 },
    ]);
  });

  it('finds no step when the young generation kept its size', () => {
    const runs = [1, 2, 3].map((round) => run('nest-fastify', round, 64));
    expect(pairState(runs.map((r) => ({ round: r.round, numerator: r, denominator: r }))).heapSteps).toEqual([]);
  });

  it('marks the round before which a collection flagged allExternalMemory ran', () => {
    const runs = [1, 2, 3].map((round) => run('nest-express', round, 64));
    runs[2].state = { ...runs[2].state!, between: reducing };
    const own = targetState(runs);
    expect(own?.reducingRounds).toEqual([3]);
    expect(own?.majorGcs).toBe(1);
    expect(own?.rounds.map((r) => r.reducing)).toEqual([false, false, true]);
  });

  it('sums GC pauses as a share of the run’s time', () => {
    expect(targetState([run('nest-express', 1, 64)])?.gcShare).toBeCloseTo(5 / 500);
  });

  it('has nothing to say about runs recorded without telemetry', () => {
    expect(targetState([run('nest-express', 1, 64, { state: null, host: null })])).toBeNull();
  });
});

describe('load-curve spikes', () => {
  const latency = { p50: { value: 1 }, p90: { value: 2 }, p99: { value: 60 } };

  it('lines a percentile over ten times the median up with a GC pause at least half as long', () => {
    const runs = [{ state: { ...run('x', 1, 64).state!, during: reducing } }];
    expect(attributeSpikes(latency, runs)).toEqual([{ percentile: 'p99', ms: 60, cause: 'a major GC pause of 74 ms' }]);
  });

  it('names event-loop delay when no GC pause was long enough', () => {
    const state = { ...run('x', 1, 64).state!, eventLoopDelay: { p50Ms: 1, p99Ms: 40, maxMs: 45 } };
    expect(attributeSpikes(latency, [{ state }])[0].cause).toBe('an event-loop delay of 45 ms, beyond any GC pause');
  });

  it('says nothing was found when the runs were observed and showed nothing', () => {
    expect(attributeSpikes(latency, [{ state: run('x', 1, 64).state }])[0].cause).toBe('nothing found');
  });

  it('leaves percentiles within ten times the median alone', () => {
    expect(attributeSpikes({ p50: { value: 1 }, p99: { value: 9 } }, [])).toEqual([]);
  });
});
