import { leadTable } from '../../bench/report/lead-table.js';

const RUNTIME = 'node@26.12.1';

/** The parts of a run's records and analysis the table reads. */
function table(ratios: object[], verification: object[], runs: object[] = [], targetRows: object[] = []) {
  const results = { options: { connections: 50 }, verification, runs } as any;
  const analysis = {
    runtimes: [RUNTIME],
    runtimeLabels: { [RUNTIME]: `${RUNTIME} (active LTS)` },
    scenarios: ['hello', 'upload-20m', 'close-every', 'h2'],
    stacks: ['bare'],
    ratios,
    targetRows,
  } as any;
  return leadTable(results, analysis);
}

const ratio = (scenario: string, median: number) => ({
  kind: 'adapters',
  runtime: RUNTIME,
  scenario,
  stack: 'bare',
  summary: { n: 6, median, ci: { low: median * 0.9, high: median * 1.1 } },
  verdict: 'does not hold',
  tooSlow: [],
});

describe('where the lead lives', () => {
  it('shows only the beyond profiles, each with its ratio, interval and verdict', () => {
    const rows = table([ratio('hello', 1.3), ratio('close-every', 1.2)], []).rows.filter((row) => row[1] !== 'h2');
    expect(rows).toHaveLength(1);
    expect(rows[0].slice(1, 6)).toEqual(['close-every', 'bare', '1.20×', '1.08× – 1.32×', 'does not hold']);
  });

  it('states why a profile has no ratio when an adapter gave a wrong answer', () => {
    const refused = {
      runtime: RUNTIME,
      target: 'nest-fastify',
      scenario: 'upload-20m',
      stack: 'bare',
      ok: false,
      reason: 'the file: 20971520 bytes sent, the app received 1048576',
    };
    const [row] = table([], [refused]).rows;
    expect(row[5]).toBe('no ratio');
    expect(row[7]).toContain('nest-fastify refused: the file: 20971520 bytes sent, the app received 1048576');
  });

  it('shows the connections the generator opened again after the server closed them', () => {
    const run = (requests: number) => ({
      status: 'ok',
      runtime: RUNTIME,
      scenario: 'close-every',
      stack: 'bare',
      generator: { cpuShare: 0.5 },
      load: { requests, connectionsOpened: 50 + requests },
    });
    const [row] = table([ratio('close-every', 1.2)], [], [run(400), run(600)]).rows;
    expect(row[6]).toBe('up to 50 % of a core; reopened 1.00 connections per answer');
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
      generator: { cpuShare: 0.3 },
      load: { requests: 9000, protocol: 'h2' },
    };
    const [row] = table([], [], [run], [alone]).rows;
    expect(row[5]).toBe('no ratio');
    expect(row[6]).toContain('spoke h2');
    expect(row[7]).toMatch(/^nest-fastify-h2 alone: 9,000 req\/s\. Express: no HTTP\/2 through Nest's ExpressAdapter/);
  });
});
