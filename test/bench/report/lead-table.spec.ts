import {
  analyze,
  measuredConfig,
  type Analysis,
  type RatioRow,
  type TargetRow,
} from '../../../bench/analysis/analyze.js';
import { beyondProfiles } from '../../../bench/analysis/beyond-profiles.js';
import { BUILTIN_CONFIG } from '../../../bench/model/builtin-config.js';
import { configRecord } from '../../../bench/model/config.js';
import type { Verification } from '../../../bench/model/records.js';
import type { LoadResult, Results, RunRecord } from '../../../bench/model/results.js';
import { leadFigure, leadRows } from '../../../bench/report/lead-chart.js';
import { leadTable } from '../../../bench/report/lead-table.js';
import { heapOf, judgedRatio, results as syntheticResults, serverState } from '../support/synthetic-results.js';

const RUNTIME = 'node@26.12.1';
const synthetic = syntheticResults(() => 1, { runtime: RUNTIME });
const syntheticAnalysis = analyze(synthetic);
const [timedRun] = synthetic.runs;
const builtIn = configRecord(BUILTIN_CONFIG);

/** The run's records and analysis around what the table reads: these ratios, verifications, runs and target rows. */
function recorded(
  ratios: RatioRow[],
  verification: Verification[],
  runs: RunRecord[] = [],
  targetRows: TargetRow[] = [],
): Analysis {
  const scenarios = [
    {
      ...builtIn.scenarios.find((entry) => entry.name === 'close-every')!,
      load: { connections: null, durationSec: 0, requestsPerConnection: 10, connectionRate: null },
    },
    {
      ...builtIn.scenarios.find((entry) => entry.name === 'idle-1k')!,
      load: { connections: 1000, durationSec: 6, requestsPerConnection: null, connectionRate: 0.5 },
    },
  ];
  const results: Results = {
    ...synthetic,
    options: { ...synthetic.options, connections: 50 },
    config: { ...builtIn, scenarios },
    verification,
    runs,
  };
  const analysis: Analysis = {
    ...syntheticAnalysis,
    runtimes: [RUNTIME],
    runtimeLabels: { [RUNTIME]: `${RUNTIME} (active LTS)` },
    scenarios: ['hello', 'upload-20m', 'close-every', 'idle-1k', 'h2'],
    stacks: ['bare'],
    ratios,
    targetRows,
    compared: { ...syntheticAnalysis.compared, builtIn: true },
  };
  return { ...analysis, beyond: beyondProfiles(results, analysis, measuredConfig(results).scenarioOf) };
}

/** A timed run of `scenario` on the bare stack, as the synthetic results record one, with `load` over its own. */
const timed = (scenario: string, load: Partial<LoadResult>, run: Partial<RunRecord> = {}): RunRecord => ({
  ...timedRun,
  runtime: RUNTIME,
  scenario,
  stack: 'bare',
  ...run,
  load: { ...timedRun.load, ...load },
});

function table(...args: Parameters<typeof recorded>) {
  return leadTable(recorded(...args));
}

const REFUSED: Verification = {
  runtime: RUNTIME,
  target: 'nest-fastify-transfer',
  scenario: 'upload-20m',
  stack: 'bare',
  ok: false,
  reason: 'the file: 20971520 bytes sent, the app received 1048576',
  status: 200,
  headers: {},
};
const H2_VERIFIED: Verification = {
  runtime: RUNTIME,
  target: 'nest-fastify-h2',
  scenario: 'h2',
  stack: 'bare',
  ok: true,
  reason: null,
  status: 200,
  headers: {},
};

/** Both adapters' answers to close-every, verified before its runs. */
const CLOSE_EVERY_VERIFIED = ['nest-express', 'nest-fastify'].map((target) => ({
  ...H2_VERIFIED,
  target,
  scenario: 'close-every',
}));

const ratio = (scenario: string, median: number) => judgedRatio(RUNTIME, scenario, median, 'does not hold');

describe('where the lead lives', () => {
  it('shows only the beyond profiles, each with its ratio, interval and verdict', () => {
    const rows = table([ratio('hello', 1.3), ratio('close-every', 1.2)], CLOSE_EVERY_VERIFIED).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0].slice(1, 8)).toEqual([
      'close-every',
      '50 connections, a new one every 10 requests',
      'bare',
      'nest-fastify ÷ nest-express',
      '1.20×',
      '1.08× – 1.32×',
      'does not hold',
    ]);
  });

  it('states why a profile has no ratio when an adapter gave a wrong answer', () => {
    const [row] = table([], [REFUSED]).rows;
    expect(row[7]).toBe('no ratio');
    expect(row[4]).toBe('nest-fastify-transfer');
    expect(row[9]).toContain('nest-fastify-transfer refused: the file: 20971520 bytes sent, the app received 1048576');
  });

  it('shows that the generator kept up and the connections it opened, per run and per answer', () => {
    const run = (requests: number) =>
      timed(
        'close-every',
        {
          requests,
          rps: requests,
          errors: 0,
          timeouts: 0,
          connectionsOpened: 50 + requests / 10,
          protocol: 'http/1.1',
        },
        { generator: { cpuShare: 0.5, saturated: false } },
      );
    const [row] = table([ratio('close-every', 1.2)], [], [run(400), run(600)]).rows;
    expect(row[8]).toBe(
      'kept up (≤ 50 % of a core); opened 100 connections a run (50, then 0.10 per answer); spoke http/1.1',
    );
  });

  it('says the generator did not keep up when it used a core, met socket errors or fell behind its pace', () => {
    const run = timed(
      'idle-1k',
      { requests: 2000, rps: 300, errors: 3, timeouts: 1, latencyMs: { ...timedRun.load.latencyMs, p99: 2500 } },
      { generator: { cpuShare: 0.95, saturated: true } },
    );
    const [row] = table([ratio('idle-1k', 1)], [], [run]).rows;
    expect(row[2]).toBe('1,000 connections, 0.5 req/s each, runs ≥ 6 s');
    expect(row[8]).toBe(
      'did not keep up (used 95 % of a core, 4 socket errors or timeouts, p99 2,500 ms, past the 2,000 ms between ' +
        'requests); offered 500 req/s, answered 300–300',
    );
  });

  it('reports what each server held per connection on the idle profiles, from its RSS and heap', () => {
    const run = (target: string, rssMiB: number, peakRssMiB: number, heapUsed: [number, number]) =>
      timed(
        'idle-1k',
        { requests: 3000, rps: 500, errors: 0, timeouts: 0 },
        {
          target,
          generator: { cpuShare: 0.2, saturated: false },
          server: { peakRssMiB, peakRssWindow: 'run', cpuUsPerRequest: 40 },
          state: serverState(heapOf(rssMiB, heapUsed[0]), heapOf(peakRssMiB, heapUsed[1])),
        },
      );
    const runs = [run('nest-express', 100, 110, [20, 25]), run('nest-fastify', 100, 105, [20, 18])];
    const [row] = table([ratio('idle-1k', 1)], [], runs).rows;
    expect(row[9]).toContain('nest-express: RSS +10.2 KiB, heap +5.1 KiB per connection, 40 µs CPU per request');
    expect(row[9]).toContain('nest-fastify: RSS +5.1 KiB, heap −2.0 KiB per connection');
  });

  it("names CPU per request as what a paced profile's ratio divides, in its note and its picture's label", () => {
    const paced: RatioRow = { ...ratio('idle-1k', 1.28), metric: 'cpu-per-request' };
    const runs = [timed('idle-1k', { requests: 3000, rps: 500 })];
    const [row] = table([paced], [], runs).rows;
    expect(row[5]).toBe('1.28×');
    expect(row[9]).toMatch(/^on CPU per request, Express's ÷ Fastify's; /);
    expect(leadRows(recorded([paced], [], runs)).map((entry) => entry.label)).toEqual(['idle-1k (CPU per request)']);
  });

  it('says why HTTP/2 has no ratio, beside what Fastify alone served and the protocol h2load spoke', () => {
    const [targetRow] = syntheticAnalysis.targetRows;
    const alone: TargetRow = {
      ...targetRow,
      runtime: RUNTIME,
      scenario: 'h2',
      stack: 'bare',
      target: 'nest-fastify-h2',
      okRuns: 2,
      rps: { ...targetRow.rps, median: 9000 },
    };
    const run = timed(
      'h2',
      { requests: 9000, rps: 9000, errors: 0, timeouts: 0, protocol: 'h2' },
      { target: 'nest-fastify-h2', generator: { cpuShare: 0.3, saturated: false } },
    );
    const [row, ...others] = table([], [H2_VERIFIED], [run], [alone]).rows;
    expect(others).toEqual([]);
    expect(row[4]).toBe('nest-fastify-h2');
    expect(row[7]).toBe('no ratio');
    expect(row[8]).toContain('spoke h2');
    expect(row[9]).toMatch(/^nest-fastify-h2 alone: 9,000 req\/s\. Express: no HTTP\/2 through Nest's ExpressAdapter/);
  });

  it('has no HTTP/2 row on a stack its Fastify side never ran on', () => {
    expect(table([], [], []).rows).toEqual([]);
  });
});

describe('where the lead lives, as a picture', () => {
  const analysis = recorded(
    [ratio('close-every', 1.2), ratio('hello', 1.3)],
    [REFUSED, ...CLOSE_EVERY_VERIFIED, H2_VERIFIED],
  );

  it('draws every profile of the table: a ratio with its interval, or in words why there is none', () => {
    const rows = leadRows(analysis);
    expect(rows.map((row) => [row.label, row.ratio, row.reason])).toEqual([
      ['upload-20m', null, 'not verified (nest-fastify-transfer)'],
      ['close-every', 1.2, undefined],
      ['h2', null, 'no Express side'],
    ]);
    expect(rows[1]).toMatchObject({ interval: { low: 1.08, high: 1.32 }, verdict: 'does not hold', decided: true });
  });

  it('is drawn wide and narrow in one figure, with the reasons written out', () => {
    const figure = leadFigure(analysis);
    expect(figure.match(/<svg /g)).toHaveLength(2);
    expect(figure).toContain('class="wide"');
    expect(figure).toContain('class="narrow"');
    expect(figure).toContain('no Express side');
    expect(figure).toContain('not verified (nest-fastify-transfer)');
    expect(figure).not.toContain('>hello<');
  });
});
