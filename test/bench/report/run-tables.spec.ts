import { analyze } from '../support/analyze-read.js';
import { environmentTable, measuredWith, roundsDesign, statusLine } from '../../../bench/report/run-tables.js';
import { ownAppRecord } from '../support/own-app-record.js';
import { results } from '../support/synthetic-results.js';

const plan = (starts: number, roundsPerStart: number | null, budgetPerRuntimeSec: number | null, steady = false) => ({
  starts,
  roundsPerStart,
  budgetPerRuntimeSec,
  steady,
});

describe('how a report says its rounds were planned', () => {
  it('names a fixed number of paired rounds', () => {
    expect(roundsDesign(plan(1, 12, null))).toBe('12 paired rounds');
  });

  it('names the budget of a one-start run and where each scenario’s count is', () => {
    expect(roundsDesign(plan(1, null, 600))).toBe(
      "paired rounds under a budget of 10m00s per runtime (each scenario's count in the verdict table)",
    );
  });

  it('names fixed starts, with steady rounds when the blocks ran to a steady state', () => {
    expect(roundsDesign(plan(4, 3, null))).toBe('4 server starts × 3 paired rounds');
    expect(roundsDesign(plan(4, 3, null, true))).toBe('4 server starts × 3 steady rounds of alternating runs');
  });

  it('names the fewest starts of a budget over starts', () => {
    expect(roundsDesign(plan(3, null, 600))).toBe(
      'at least 3 server starts, each with a block of paired rounds, under a budget of 10m00s per runtime',
    );
  });
});

describe('the line above an incomplete report', () => {
  const analysis = (complete: boolean, stopReason: string | null) =>
    analyze({ ...results(() => 2), complete, stopReason });

  it('is absent when the run finished', () => {
    expect(statusLine(analysis(true, null))).toBeNull();
  });

  it('says why the run stopped', () => {
    expect(JSON.stringify(statusLine(analysis(false, 'interrupted (SIGINT)')))).toContain(
      ': interrupted (SIGINT). Tables show what was measured before it stopped.',
    );
  });
});

describe('the environment table', () => {
  it('names every load generator the run used, each with its version', () => {
    const run = results(() => 2);
    run.environment = { ...run.environment, generators: ['wrk debian/4.1.0-3+b2', 'h2load nghttp2/1.52.0'] };
    const row = environmentTable(analyze(run)).rows.find((cells) => cells[0] === 'load generator')!;
    expect(row[1]).toMatch(/^wrk debian\/4\.1\.0-3\+b2 and h2load nghttp2\/1\.52\.0, \d+ connections/);
  });
});

describe('the environment of a --nest-app run', () => {
  const run = () => {
    const synthetic = results(() => 2);
    synthetic.ownApp = ownAppRecord({
      versions: { '@nestjs/core': '10.4.17', fastify: '4.28.1' },
      scan: {
        files: [],
        fromSourceMaps: 0,
        findings: [],
        skipped: null,
        database: { typeorm: '0.3.25', pg: '8.16.0' },
      },
    });
    return synthetic;
  };
  const rows = () => Object.fromEntries(environmentTable(analyze(run())).rows.map((cells) => [cells[0], cells[1]]));

  it('shows the app’s packages and database, and the bench’s own packages apart from them', () => {
    expect(rows()).toMatchObject({
      "your app's packages": '@nestjs/core 10.4.17, fastify 4.28.1',
      "your app's database": 'through typeorm 0.3.25, pg 8.16.0, on the server its own config names',
    });
    expect(Object.keys(rows())).toContain("the bench's own packages (your app ran on its own)");
  });

  it('does not name the bench’s own database as the run’s', () => {
    expect(rows().database).toBeUndefined();
  });
});

describe('the method line', () => {
  it('names no rounds when no pair was measured', () => {
    const empty = analyze({ ...results(() => 2), runs: [] });
    expect(measuredWith(empty)).toBeNull();
    expect(measuredWith(analyze(results(() => 2)))).toMatch(/paired rounds with /);
  });

  it('names the rounds of a run that timed one side alone (HTTP/2 on Fastify), which forms no ratio', () => {
    const made = results(() => 2);
    const fastifyAlone = analyze({ ...made, runs: made.runs.filter((run) => run.target === 'nest-fastify') });
    expect(fastifyAlone.ratios).toEqual([]);
    expect(measuredWith(fastifyAlone)).toMatch(/rounds with /);
  });
});
