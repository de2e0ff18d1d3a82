import { beyondProfiles } from '../../../bench/analysis/beyond-profiles.js';
import { leadFigure, leadRows } from '../../../bench/report/lead-chart.js';
import { leadTable } from '../../../bench/report/lead-table.js';

const RUNTIME = 'node@26.12.1';

/** The parts of a run's records and analysis the table reads. */
function recorded(ratios: object[], verification: object[], runs: object[] = [], targetRows: object[] = []) {
  const scenarios = [
    {
      name: 'close-every',
      load: { connections: null, durationSec: 0, requestsPerConnection: 10, connectionRate: null },
    },
    { name: 'idle-1k', load: { connections: 1000, durationSec: 6, requestsPerConnection: null, connectionRate: 0.5 } },
  ];
  const results = { options: { connections: 50 }, config: { scenarios }, verification, runs } as any;
  const analysis: any = {
    runtimes: [RUNTIME],
    runtimeLabels: { [RUNTIME]: `${RUNTIME} (active LTS)` },
    scenarios: ['hello', 'upload-20m', 'close-every', 'idle-1k', 'h2'],
    stacks: ['bare'],
    ratios,
    targetRows,
    compared: { builtIn: true },
  };
  analysis.beyond = beyondProfiles(results, analysis);
  return analysis;
}

function table(...args: Parameters<typeof recorded>) {
  return leadTable(recorded(...args));
}

const REFUSED = {
  runtime: RUNTIME,
  target: 'nest-fastify-transfer',
  scenario: 'upload-20m',
  stack: 'bare',
  ok: false,
  reason: 'the file: 20971520 bytes sent, the app received 1048576',
};
const H2_VERIFIED = {
  runtime: RUNTIME,
  target: 'nest-fastify-h2',
  scenario: 'h2',
  stack: 'bare',
  ok: true,
  reason: null,
};

/** Both adapters' answers to close-every, verified before its runs. */
const CLOSE_EVERY_VERIFIED = ['nest-express', 'nest-fastify'].map((target) => ({
  ...H2_VERIFIED,
  target,
  scenario: 'close-every',
}));

const ratio = (scenario: string, median: number) => ({
  kind: 'adapters',
  judged: true,
  numerator: 'nest-fastify',
  denominator: 'nest-express',
  runtime: RUNTIME,
  scenario,
  stack: 'bare',
  summary: { n: 6, median, ci: { low: median * 0.9, high: median * 1.1 } },
  verdict: 'does not hold',
  tooSlow: [],
});

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
    const run = (requests: number) => ({
      status: 'ok',
      runtime: RUNTIME,
      scenario: 'close-every',
      stack: 'bare',
      generator: { cpuShare: 0.5, saturated: false },
      load: {
        requests,
        rps: requests,
        errors: 0,
        timeouts: 0,
        connectionsOpened: 50 + requests / 10,
        protocol: 'http/1.1',
      },
    });
    const [row] = table([ratio('close-every', 1.2)], [], [run(400), run(600)]).rows;
    expect(row[8]).toBe(
      'kept up (≤ 50 % of a core); opened 100 connections a run (50, then 0.10 per answer); spoke http/1.1',
    );
  });

  it('says the generator did not keep up when it used a core, met socket errors or fell behind its pace', () => {
    const run = {
      status: 'ok',
      runtime: RUNTIME,
      scenario: 'idle-1k',
      stack: 'bare',
      generator: { cpuShare: 0.95, saturated: true },
      load: { requests: 2000, rps: 300, errors: 3, timeouts: 1, latencyMs: { p99: 2500 } },
    };
    const [row] = table([ratio('idle-1k', 1)], [], [run]).rows;
    expect(row[2]).toBe('1,000 connections, 0.5 req/s each, runs ≥ 6 s');
    expect(row[8]).toBe(
      'did not keep up (used 95 % of a core, 4 socket errors or timeouts, p99 2,500 ms, past the 2,000 ms between ' +
        'requests); offered 500 req/s, answered 300–300',
    );
  });

  it('reports what each server held per connection on the idle profiles, from its RSS and heap', () => {
    const run = (target: string, rssMiB: number, peakRssMiB: number, heapUsed: [number, number]) => ({
      status: 'ok',
      runtime: RUNTIME,
      target,
      scenario: 'idle-1k',
      stack: 'bare',
      generator: { cpuShare: 0.2, saturated: false },
      load: { requests: 3000, rps: 500, errors: 0, timeouts: 0 },
      server: { peakRssMiB, peakRssWindow: 'run', cpuUsPerRequest: 40 },
      state: { heapBefore: { rssMiB, heapUsedMiB: heapUsed[0] }, heapAfter: { heapUsedMiB: heapUsed[1] } },
    });
    const runs = [run('nest-express', 100, 110, [20, 25]), run('nest-fastify', 100, 105, [20, 18])];
    const [row] = table([ratio('idle-1k', 1)], [], runs).rows;
    expect(row[9]).toContain('nest-express: RSS +10.2 KiB, heap +5.1 KiB per connection, 40 µs CPU per request');
    expect(row[9]).toContain('nest-fastify: RSS +5.1 KiB, heap −2.0 KiB per connection');
  });

  it('says why HTTP/2 has no ratio, beside what Fastify alone served and the protocol h2load spoke', () => {
    const alone = {
      runtime: RUNTIME,
      scenario: 'h2',
      stack: 'bare',
      target: 'nest-fastify-h2',
      okRuns: 2,
      rps: { median: 9000 },
    };
    const run = {
      status: 'ok',
      runtime: RUNTIME,
      scenario: 'h2',
      stack: 'bare',
      generator: { cpuShare: 0.3, saturated: false },
      load: { requests: 9000, rps: 9000, errors: 0, timeouts: 0, protocol: 'h2' },
    };
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
