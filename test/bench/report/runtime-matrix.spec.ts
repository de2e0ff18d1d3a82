import { type Results, upgradeResults } from '../../../bench/model/results.js';
import { readFileSync } from 'node:fs';
import { analyze } from '../../../bench/analysis/analyze.js';
import { renderHtml } from '../../../bench/report/html.js';
import { renderMarkdown } from '../../../bench/report/markdown.js';
import {
  baselineMatrixTable,
  nestOverheadMatrixTable,
  runtimeMatrixTable,
} from '../../../bench/report/runtime-matrix.js';
import { markdownText, plainText } from '../../../bench/report/rich-table.js';
import { median } from '../../../bench/maths/quantile.js';
import { roundRatios } from '../support/raw-ratios.js';

// results.json of a real `--quick --runtime node,node@24,bun --scenarios hello,json` run on the development machine.
const MULTI = new URL('../fixtures/results-runtimes.json', import.meta.url);
// results.json of a real run on the node running the bench only.
const SINGLE = new URL('../fixtures/results-quick.json', import.meta.url);
const load = (file: URL): Results => upgradeResults(JSON.parse(readFileSync(file, 'utf8')));
const RUNTIMES = ['node@20.20.2', 'node@24.21.0', 'bun@1.4.5'];
/** The runtimes with their release status on the run's date, 2026-11-21, as every table names them. */
const LABELS = [
  'node@20.20.2 (end of life since 2026-04-30)',
  'node@24.21.0 (maintenance LTS until 2028-04-30)',
  'bun@1.4.5 (no LTS schedule)',
];

/** Median of the per-round ratios of two targets, straight from the raw run records. */
const medianRatio = (results: Results, runtime: string, scenario: string, numerator: string, denominator: string) =>
  median(roundRatios(results, { runtime, scenario, numerator, denominator }));

describe('runtime matrix', () => {
  it('has one column per runtime, named with its release status, and one row per scenario', () => {
    const table = runtimeMatrixTable(analyze(load(MULTI)));
    expect(table.headers).toEqual(['scenario', ...LABELS]);
    expect(table.rows.map((row) => row[0])).toEqual(['hello', 'json']);
  });

  it('gives each cell the median per-round Nest-Fastify ÷ Nest-Express ratio of that runtime, its interval and a verdict', () => {
    const results = load(MULTI);
    const table = runtimeMatrixTable(analyze(results));
    for (const row of table.rows) {
      RUNTIMES.forEach((runtime, i) => {
        const ratio = medianRatio(results, runtime, plainText(row[0]), 'nest-fastify', 'nest-express');
        expect(markdownText(row[i + 1])).toMatch(
          new RegExp(
            `^${ratio.toFixed(2)}× \\([\\d.]+× – [\\d.]+×\\) \\*\\*(holds|understated|does not hold|inconclusive)\\*\\*`,
          ),
        );
      });
    }
  });

  it("shows Nest's share of the bare framework per adapter and runtime", () => {
    const results = load(MULTI);
    const table = nestOverheadMatrixTable(analyze(results));
    expect(table.headers).toEqual(['scenario', ...LABELS]);
    for (const row of table.rows) {
      RUNTIMES.forEach((runtime, i) => {
        const express = Math.round(
          medianRatio(results, runtime, plainText(row[0]), 'nest-express', 'raw-express') * 100,
        );
        const fastify = Math.round(
          medianRatio(results, runtime, plainText(row[0]), 'nest-fastify', 'raw-fastify') * 100,
        );
        expect(row[i + 1]).toBe(`Express ${express} % · Fastify ${fastify} %`);
      });
    }
  });

  it('puts both matrices in report.md and report.html, and one row of the answer per scenario and runtime', () => {
    const results = load(MULTI);
    const analysis = analyze(results);
    const markdown = renderMarkdown(analysis);
    expect(markdown).toContain('### Verdict per runtime: Nest-Fastify ÷ Nest-Express');
    expect(markdown).toContain(`| scenario | ${LABELS.join(' | ')} |`);
    expect(markdown).toContain('### What Nest costs per runtime');
    const html = renderHtml(analysis);
    expect(html).toContain('<h2>Verdict per runtime: Nest-Fastify ÷ Nest-Express</h2>');
    for (const scenario of ['hello', 'json']) {
      for (const runtime of RUNTIMES) expect(html).toContain(`<title>${runtime} · ${scenario}: `);
    }
  });

  it('marks a runtime whose load generator saturated, and explains the mark under the table in both reports', () => {
    const results = load(MULTI);
    const run = results.runs.find(
      (r) => r.runtime === 'bun@1.4.5' && r.scenario === 'json' && r.target === 'nest-fastify' && r.status === 'ok',
    )!;
    run.generator!.saturated = true;
    const analysis = analyze(results);
    const json = runtimeMatrixTable(analysis).rows.find((row) => plainText(row[0]) === 'json')!;
    const mark = /\[(\d+)\]$/.exec(plainText(json[RUNTIMES.indexOf('bun@1.4.5') + 1]))![1];
    const { notes } = runtimeMatrixTable(analysis);
    const note = notes!
      .map((n) => plainText(n))
      .find((n) => n.startsWith(`[${mark}] json on bun@1.4.5 (no LTS schedule): `))!;
    expect(note).toMatch(/load generator saturated in round \d: the ratio may read low/);
    expect(notes!.map((n) => plainText(n)).find((n) => n.includes('json on node@20.20.2'))).not.toMatch(/saturated/);
    expect(renderMarkdown(analysis)).toContain(`\n\n${note}\n`);
    expect(renderHtml(analysis)).toContain(`<p class="note">${note}</p>`);
  });

  it('stays out of a report on one runtime, whose tables already say it all', () => {
    const results = load(SINGLE);
    const analysis = analyze(results);
    expect(runtimeMatrixTable(analysis).rows).toEqual([]);
    expect(nestOverheadMatrixTable(analysis).rows).toEqual([]);
    expect(renderMarkdown(analysis)).not.toContain('per runtime');
    expect(renderHtml(analysis)).not.toMatch(/per runtime|hello · node/);
  });

  it('orders the runtime columns by release, Node by version before Bun, whatever order they ran in', () => {
    const results = load(MULTI);
    results.plan.runtimes = ['bun@1.4.5', 'node@24.21.0', 'node@20.20.2'];
    expect(runtimeMatrixTable(analyze(results)).headers).toEqual(['scenario', ...LABELS]);
  });

  it("shows each framework's share of raw node:http per runtime, with its interval", () => {
    const results = load(MULTI);
    const table = baselineMatrixTable(analyze(results));
    expect(table.headers).toEqual(['target · scenario', ...LABELS]);
    const row = table.rows.find((r) => plainText(r[0]) === 'raw-express · hello')!;
    RUNTIMES.forEach((runtime, i) => {
      const share = Math.round(medianRatio(results, runtime, 'hello', 'raw-express', 'raw-node') * 100);
      expect(row[i + 1]).toMatch(new RegExp(`^${share} % \\(\\d+ % – \\d+ %\\)$`));
    });
  });

  it('charts Fastify ÷ Express and the shares of raw node:http per runtime in report.html', () => {
    const results = load(MULTI);
    const html = renderHtml(analyze(results));
    expect(html).toContain('<h2>Fastify ÷ Express per runtime</h2>');
    expect(html).toContain('aria-label="share of raw-node&#39;s req/s on hello"');
    expect(html).toContain('<tspan x="');
    expect(html).toMatch(/<tspan[^>]*>end of life<\/tspan><tspan[^>]*>since 2026-04-30<\/tspan>/);
  });
});
