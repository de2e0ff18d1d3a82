import { join } from 'node:path';
import { analyze } from '../../../bench/analysis/analyze.js';
import { readResults } from '../../../bench/model/results.js';
import { escapeHtml } from '../../../bench/report/format.js';
import { renderHtml } from '../../../bench/report/html.js';
import { renderMarkdown, renderSummary } from '../../../bench/report/markdown.js';
import { SECTIONS, htmlSections, markdownSections } from '../../../bench/report/sections.js';

// A committed run over several runtimes: its report has a table in most sections and charts beside them.
const RUN = join(import.meta.dirname, '..', '..', '..', 'results', 'reference', 'node22-24-26');
const analysis = analyze(readResults(RUN));
const extras = { profiles: { markdown: '### Profiles\n', html: '<h2>Profiles</h2>' } };

const tables = SECTIONS.flatMap((section) => section.parts(analysis, extras)).flatMap((part) =>
  'table' in part && part.table.rows.length > 0 ? [part.table] : [],
);

describe('the sections after the verdict', () => {
  it('give report.md and report.html the same tables, each registered once', () => {
    expect(tables.length).toBeGreaterThan(5);
    const markdown = renderMarkdown(analysis, extras);
    const html = renderHtml(analysis, extras);
    for (const table of tables) {
      expect(markdown).toContain(`### ${table.title ?? ''}\n`);
      expect(html).toContain(`<h2>${escapeHtml(table.title ?? '')}</h2>`);
    }
  });

  it("put the summary's sections in the terminal's summary and the others in report.md alone", () => {
    const summary = renderSummary(analysis);
    for (const part of markdownSections(analysis, { summary: true })) expect(summary).toContain(part);
    const details = markdownSections(analysis, { summary: false }, extras);
    expect(details).toContain('### Profiles\n');
    for (const part of details) expect(summary).not.toContain(part);
  });

  it('draw the figures in report.html only', () => {
    const html = htmlSections(analysis, extras);
    expect(html).toContain('<svg');
    expect(markdownSections(analysis, { summary: true }).join('')).not.toContain('<svg');
    expect(markdownSections(analysis, { summary: false }, extras).join('')).not.toContain('<svg');
  });
});
