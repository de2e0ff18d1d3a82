import { join } from 'node:path';
import { analyze } from '../../../bench/analysis/analyze.js';
import { readResults } from '../../../bench/model/results.js';
import { answerSentence } from '../../../bench/report/answer-chart.js';
import { renderOutcome } from '../../../bench/report/outcome.js';
import { results } from '../support/synthetic-results.js';

// A committed default run: six rows, every one decided.
const DEFAULT_RUN = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'results',
  'reference',
  'answer-per-minute',
  'amd-model-17',
  'stop-rule',
  'default-5',
);
const FILES = { results: '/tmp/run/results.json', markdown: '/tmp/run/report.md', html: '/tmp/run/report.html' };

function outcome(output: { quiet?: boolean; json?: boolean; terminal?: boolean }) {
  const results = readResults(DEFAULT_RUN);
  const analysis = analyze(results);
  const text = renderOutcome(analysis, {
    quiet: false,
    json: false,
    terminal: true,
    ...output,
    files: FILES,
  });
  return { text, analysis };
}

/** The verdict table's rows, as Markdown lines. */
const tableRows = (text: string) => text.split('\n').filter((line) => line.startsWith('| node@'));

describe('what a run prints on stdout when it ends', () => {
  it('under --quiet: the verdict table alone', () => {
    const { text } = outcome({ quiet: true });
    expect(text.split('\n')[0]).toBe('### Verdict: is Nest on Fastify "almost two times" faster than on Express?');
    expect(tableRows(text)).toHaveLength(6);
    expect(text).not.toContain('geometric mean of the per-start ratios');
    expect(text).not.toContain('### Where the noise lives');
    expect(text.split('\n').length).toBeLessThan(12);
  });

  it('otherwise: the answer and the main tables', () => {
    const { text } = outcome({});
    expect(text).toMatch(/^\*\*node@26\.10\.0 \(active LTS\)\*\*: Nest-Fastify served hello · bare 1\.83× /);
    expect(text).toContain('### Where the noise lives');
  });

  it('in a log (stdout not a terminal): the verdict table and what it cannot say, short enough for a CI log', () => {
    const { text } = outcome({ terminal: false });
    expect(text.split('\n')[0]).toBe('### Verdict: is Nest on Fastify "almost two times" faster than on Express?');
    expect(tableRows(text)).toHaveLength(6);
    expect(text).not.toContain('geometric mean of the per-start ratios');
    expect(text).not.toContain('### Where the noise lives');
    expect(text).not.toContain('results.json beside this report');
    expect(text.split('\n')).toHaveLength(10);
  });

  it("with --json: one JSON document and nothing else, each row's ratio, interval, level and verdict", () => {
    const { text, analysis } = outcome({ json: true, quiet: true });
    const decision = JSON.parse(text);
    expect(decision.answer).toBe(answerSentence(analysis));
    expect(decision.complete).toBe(true);
    expect(decision.files).toEqual(FILES);
    expect(decision.rows).toHaveLength(6);
    expect(decision.rows[0]).toEqual({
      runtime: 'node@26.10.0',
      scenario: 'hello',
      stack: 'bare',
      ratio: expect.closeTo(1.83, 2),
      metric: 'req/s',
      interval: { low: expect.closeTo(1.66, 2), high: expect.closeTo(2.02, 2), level: 0.98 },
      verdict: 'holds',
      edge: null,
      decided: true,
      rounds: 15,
      starts: 4,
    });
    expect(decision.rows.filter((row: { verdict: string }) => row.verdict === 'does not hold')).toHaveLength(5);
  });

  it('with --json: a borderline row names its edge, and the bands give the margin', () => {
    // four starts agreeing within 1 % of 1.5×
    const levels = [0.99, 1.01, 1, 1.005];
    const analysis = analyze(results((_, __, start) => 1.5 * levels[start], { starts: 4 }));
    const decision = JSON.parse(renderOutcome(analysis, { quiet: false, json: true, terminal: false, files: FILES }));
    expect(decision.rows[0]).toEqual(
      expect.objectContaining({ verdict: 'borderline at 1.5×', edge: 1.5, decided: true }),
    );
    expect(decision.bands.borderline).toEqual({ edges: [1.5, 2.5], margin: 0.05 });
  });
});
