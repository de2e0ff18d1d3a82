import { type Results, type RunRecord, upgradeResults } from '../../../bench/model/results.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../../bench/analysis/analyze.js';
import { renderHtml } from '../../../bench/report/html.js';
import { renderMarkdown } from '../../../bench/report/markdown.js';
import { writeReports } from '../../../bench/bin/run-reports.js';
import { median } from '../../../bench/maths/quantile.js';
import { verdictTable } from '../../../bench/report/tables.js';
import { plainText } from '../../../bench/report/rich-table.js';
import { roundRatios } from '../support/raw-ratios.js';
import { results as syntheticResults } from '../support/synthetic-results.js';

// results.json of a real run on the development machine: all 5 targets, hello/json/orders, 3 rounds of 0.5 s.
const FIXTURE = new URL('../fixtures/results-quick.json', import.meta.url);
const load = (): Results => upgradeResults(JSON.parse(readFileSync(FIXTURE, 'utf8')));

function render(results: Results) {
  const analysis = analyze(results);
  return { markdown: renderMarkdown(analysis), html: renderHtml(analysis) };
}

describe('report.md from a results.json', () => {
  it('states, per scenario, the median of the per-round Fastify/Express ratios and a verdict word', () => {
    const results = load();
    const { markdown } = render(results);
    for (const scenario of ['hello', 'json', 'orders']) {
      const ratios = roundRatios(results, { scenario });
      const row = markdown
        .split('\n')
        .find(
          (line) =>
            line.startsWith(`| node@20.20.2 (end of life since 2026-04-30) | ${scenario} | `) && line.includes('**'),
        )!;
      expect(row).toContain(`| ${median(ratios).toFixed(2)}× |`);
      expect(row).toMatch(/\*\*(holds|understated|does not hold|inconclusive)\*\*/);
      expect(row).toContain(`| ${ratios.length} |`);
    }
  });

  it('gives the verdict of the computed interval', () => {
    // rounds alternating between two ratios: 12 rounds' 95 % signed-rank interval runs from the one to the other
    for (const [low, high, expected] of [
      [1.8, 2.2, 'holds'],
      [1.1, 1.3, 'does not hold'],
      [2.7, 3.1, 'understated'],
      [1.4, 1.6, 'inconclusive'],
      [2.3, 2.6, 'inconclusive'],
      // across an edge, within 5 % of it either side
      [2.4, 2.6, 'borderline at 2.5×'],
    ] as const) {
      const analysis = analyze(syntheticResults((round) => (round % 2 ? low : high)));
      const [row] = analysis.ratios.filter((r) => r.judged);
      expect(row.summary.ci!.low).toBeCloseTo(low, 9);
      expect(row.summary.ci!.high).toBeCloseTo(high, 9);
      const [tableRow] = verdictTable(analysis).rows;
      expect(plainText(tableRow[3])).toBe(`${low.toFixed(2)}× – ${high.toFixed(2)}×`);
      expect(plainText(tableRow[5])).toBe(expected);
    }
  });

  it('has the overhead, raw node:http, per-target, header and environment sections', () => {
    const { markdown } = render(load());
    for (const title of [
      'What Nest costs on each adapter',
      'Each target as a share of raw node:http',
      'Per target',
      'Response headers that differ between targets',
      'Environment',
    ]) {
      expect(markdown).toContain(`### ${title}`);
    }
    expect(markdown).toMatch(/\| hello \| x-powered-by \| Express \| \(absent\) \|/);
    expect(markdown).not.toContain('Skipped and failed');
  });

  it('lists a failed run with its reason and the error line of its stderr, and leaves its round out of the ratio', () => {
    const results = load();
    const run = results.runs.find((r) => r.target === 'nest-express' && r.scenario === 'hello' && r.round === 2)!;
    Object.assign(run, {
      status: 'failed',
      load: null,
      server: null,
      generator: null,
      failure: {
        reason: 'the target exited during this run (signal SIGKILL)',
        exitCode: null,
        signal: 'SIGKILL',
        stderrTail: 'Error: out of memory\n    at boom (x.js:1:1)\n\nNode.js v20.20.2\n',
      },
    });
    const { markdown } = render(results);
    expect(markdown).toContain('### Skipped and failed');
    expect(markdown).toContain(
      '| node@20.20.2 (end of life since 2026-04-30) | nest-express | hello | round 2 failed | the target exited during this run (signal SIGKILL) — stderr: Error: out of memory |',
    );
    const helloRow = markdown
      .split('\n')
      .find(
        (line) => line.startsWith('| node@20.20.2 (end of life since 2026-04-30) | hello | ') && line.includes('**'),
      )!;
    expect(helloRow).toContain('| 2 of 3 |');
    expect(helloRow).toContain('round 2 missing');
  });

  it('flags generator-saturated rounds instead of passing them off as server speed', () => {
    const results = load();
    results.runs.find((r) => r.target === 'nest-fastify' && r.scenario === 'json')!.generator!.saturated = true;
    const { markdown } = render(results);
    expect(markdown).toMatch(/\| json \|.*load generator saturated in round \d: the ratio may read low/);
    expect(markdown).toMatch(/\| json \| nest-fastify \|.*generator saturated in 1 run\(s\)/);
  });

  it('says in the verdict row when failed requests took the verdict away, and notes fewer without taking it', () => {
    const results = load();
    const orders = results.runs.find((r) => r.target === 'nest-express' && r.scenario === 'orders')!.load!;
    orders.unexpectedStatus = orders.requests; // every answer failed
    results.runs.find((r) => r.target === 'nest-express' && r.scenario === 'json')!.load!.errors = 1;
    const { markdown } = render(results);
    expect(markdown).toMatch(
      /\| orders \|.*more than 0\.1 % failed requests in round 1 \(see Per target\): no verdict/,
    );
    expect(markdown).toMatch(/\| json \|.*a few failed requests, below 0\.1 % a round/);
    expect(markdown).not.toMatch(/\| hello \|.*failed requests/);
  });

  it('shows a ratio near a band edge with the digits that keep it in its band', () => {
    const results = load();
    const [express, fastify] = ['nest-express', 'nest-fastify'].map((target) =>
      results.runs.filter((r) => r.target === target && r.scenario === 'hello'),
    );
    fastify.forEach((run, i) => (run.load!.rps = express[i].load!.rps * 2.503));
    const { markdown } = render(results);
    expect(markdown).toMatch(
      /\| node@20\.20\.2 \(end of life since 2026-04-30\) \| hello \| 2\.503× \| 2\.503× – 2\.503× \|/,
    );
  });

  it("shows how closely the two adapters' req/s moved together from round to round", () => {
    const results = load();
    const isNestHello = (r: RunRecord) =>
      r.runtime === 'node@20.20.2' && r.scenario === 'hello' && r.target.startsWith('nest-');
    const firstRound = results.runs.filter((r) => isNestHello(r) && r.round === 1);
    results.runs = results.runs.filter((r) => !(isNestHello(r) && r.round !== 1));
    // rounds 2 and 3 as round 1 on a machine at half and double speed: both adapters move alike, so r is exactly 1
    for (const [round, speed] of [
      [2, 0.5],
      [3, 2],
    ]) {
      for (const run of firstRound)
        results.runs.push({ ...run, round, load: { ...run.load!, rps: run.load!.rps * speed } });
    }
    // two rounds of json: no correlation to speak of
    results.runs = results.runs.filter(
      (r) => !(r.scenario === 'json' && r.target.startsWith('nest-') && r.round === 3),
    );
    const { markdown } = render(results);
    expect(markdown).toMatch(/\| node@20\.20\.2 \(end of life since 2026-04-30\) \| hello \| .*\| 3 \| 1\.00 \|/);
    expect(markdown).toMatch(/\| node@20\.20\.2 \(end of life since 2026-04-30\) \| json \| .*\| 2 of 3 \| — \|/);
  });

  it('says so at the top when the results are incomplete', () => {
    const results = { ...load(), complete: false, stopReason: 'interrupted (SIGINT)' };
    expect(render(results).markdown).toContain('**Incomplete results**: interrupted (SIGINT)');
  });
});

describe('report.html', () => {
  it('is self-contained: inline SVG charts, no scripts, no external resources', () => {
    const { html } = render(load());
    expect(html).toMatch(/^<!doctype html>/);
    expect(html.match(/<svg /g)!.length).toBeGreaterThanOrEqual(3);
    expect(html).not.toMatch(/<script|<link|<img|url\(|(src|href)="https?:/i);
    expect(html).toContain('<strong>');
  });

  it('escapes text that came from servers', () => {
    const results = load();
    results.headerDifferences[0].values['nest-express'] = '<b>x</b>';
    expect(render(results).html).toContain('&lt;b&gt;x&lt;/b&gt;');
  });
});

describe('writing the reports', () => {
  it('renders the same files every time from the same results.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
    try {
      const first = await writeReports(dir, load());
      const markdown = readFileSync(first.markdownFile, 'utf8');
      const html = readFileSync(first.htmlFile, 'utf8');
      await writeReports(dir, load());
      expect(readFileSync(first.markdownFile, 'utf8')).toBe(markdown);
      expect(readFileSync(first.htmlFile, 'utf8')).toBe(html);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
