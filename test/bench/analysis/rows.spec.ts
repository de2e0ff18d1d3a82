import { analyze } from '../../../bench/analysis/analyze.js';
import { failureCount } from '../../../bench/model/results.js';
import { verdictTable } from '../../../bench/report/tables.js';
import { plainText } from '../../../bench/report/rich-table.js';
import { ROUNDS, results } from '../support/synthetic-results.js';

const IN_FLIGHT = 50;

/** Synthetic results where Nest-Express answered nothing within the given rounds' runs. */
function withTooSlowExpress(rounds: number[]) {
  const made = results(() => 2);
  for (const run of made.runs) {
    if (run.target !== 'nest-express' || !rounds.includes(run.round)) continue;
    Object.assign(run, {
      status: 'too-slow',
      failure: { reason: `none of the ${IN_FLIGHT} requests in flight answered within 0.5 s` },
      inFlight: IN_FLIGHT,
      load: { ...run.load, requests: 0, rps: 0, statusCounts: {} },
    });
  }
  return Object.assign(made, { targetFailures: [], verification: [], options: { ...made.options, durationSec: 0.5 } });
}

describe('a target too slow to answer within a run', () => {
  it('fails no run whose other target was measured', () => {
    expect(failureCount(withTooSlowExpress([1, 2, 3]))).toBe(0);
  });

  it('fails a run that measured nothing at all', () => {
    const slowOnly = withTooSlowExpress([...Array(ROUNDS).keys()].map((i) => i + 1));
    slowOnly.runs = slowOnly.runs.filter((run) => run.target === 'nest-express');
    expect(failureCount(slowOnly)).toBe(ROUNDS);
  });

  it('takes the ratio away: the verdict is too slow, naming the target and its rounds', () => {
    const [row] = analyze(withTooSlowExpress([2, 5])).ratios.filter((r) => r.judged);
    expect(row.verdict).toBe('too slow');
    expect(row.tooSlow).toEqual([{ target: 'nest-express', rounds: [2, 5], durationSec: 0.5, inFlight: IN_FLIGHT }]);
  });

  it("counts its runs in the target's row apart from failed ones", () => {
    const row = analyze(withTooSlowExpress([2, 5])).targetRows.find((r) => r.target === 'nest-express')!;
    expect(row).toMatchObject({ okRuns: ROUNDS - 2, failedRuns: 0, tooSlow: { rounds: [2, 5] } });
  });

  it('shows no ratio in the verdict table, only the verdict and why', () => {
    const [row] = verdictTable(analyze(withTooSlowExpress([2]))).rows;
    expect(row.slice(2, 6).map((cell) => plainText(cell))).toEqual(['—', '—', '—', 'too slow']);
    expect(plainText(row[10])).toMatch(
      /^nest-express too slow for --duration 0\.5 s: none of the 50 requests in flight answered in round 2, so no ratio/,
    );
  });
});

/** Synthetic results on a scenario resolved to CPU per request: both at the same req/s, Express dearer per request. */
function pacedResults(expressUs: number, fastifyUs: number) {
  const made = results(() => 1);
  const config = made.config!;
  const scenarios = config.scenarios.map((scenario) =>
    scenario.name === 'hello' ? { ...scenario, metric: 'cpu-per-request' as const } : scenario,
  );
  for (const run of made.runs)
    run.server = { ...run.server, cpuUsPerRequest: run.target === 'nest-express' ? expressUs : fastifyUs };
  return { ...made, config: { ...config, scenarios } };
}

describe('a scenario whose req/s is its pace', () => {
  it("takes its ratio, interval and verdict on CPU per request, Express's over Fastify's", () => {
    const [row] = analyze(pacedResults(200, 100)).ratios.filter((r) => r.judged);
    expect(row.metric).toBe('cpu-per-request');
    expect(row.summary.median).toBeCloseTo(2, 6);
    expect(row.byRound.every((ratio) => Math.abs(ratio - 2) < 1e-9)).toBe(true);
    expect(row.verdict).toBe('holds');
  });

  it('reads a req/s scenario at the same numbers as a ratio of 1', () => {
    const made = pacedResults(200, 100);
    const [row] = analyze({ ...made, config: results(() => 1).config }).ratios.filter((r) => r.judged);
    expect(row.metric).toBe('req/s');
    expect(row.summary.median).toBeCloseTo(1, 6);
    expect(row.verdict).toBe('does not hold');
  });

  it('names the metric in the verdict table and the intro', () => {
    const table = verdictTable(analyze(pacedResults(180, 120)));
    expect(plainText(table.rows[0][10])).toMatch(
      /^on CPU per request, Express's ÷ Fastify's: paced, so req\/s is the pace/,
    );
    expect(plainText(table.intro!)).toContain("divides Express's CPU per request by Fastify's");
  });
});
