// @ts-check
// Every table and figure after the verdict, in the reports' order, registered once: the terminal's summary and
// report.md render the tables (and sentences) as Markdown, report.html renders them and the figures as HTML.
import { escapeHtml } from './format.js';
import { htmlTable, htmlText, markdownTable, markdownText } from './rich-table.js';
import { baselineTable, orderTable, overheadTable, targetTable } from './tables.js';
import { environmentTable, headerTable, problemsTable } from './run-tables.js';
import { baselineMatrixTable, nestOverheadMatrixTable, runtimeMatrixTable } from './runtime-matrix.js';
import { ablationTable, mixTable, stackComparisonTable } from './stack-tables.js';
import { ownAppTables } from './own-app-tables.js';
import { throttleTables } from './throttle-table.js';
import { checkWritesTables } from './check-writes-table.js';
import { startsTable } from './starts-table.js';
import { hostTable } from './host-table.js';
import { timeTable, warmUpTable } from './warm-up-table.js';
import { packagesTables, timelineChart } from './packages-tables.js';
import {
  cpuPerThousandTable,
  latencyCurveCharts,
  latencyCurveTable,
  realisticLoadSentences,
} from './load-curve-tables.js';
import { startupTable } from './startup-table.js';
import { leadTable } from './lead-table.js';
import { leadFigure } from './lead-chart.js';
import { latencyCharts, roundCharts, runtimeTimelineCharts, throughputCharts } from './html-charts.js';

/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */
/** @typedef {import('./rich-table.js').Table} Table */

/**
 * A piece of a section: a table (with what to say when it is empty), a figure (report.html only), sentences under a
 * heading, or a part rendered elsewhere in both forms (the profiles).
 * @typedef {{ table: Table, empty?: string } | { figure: () => string } | { heading: string, sentences: import('./rich-table.js').Text[] }
 *   | { markdown: string, html: string }} Part
 *
 * What the reports are given beside the Analysis: the profiles section, rendered by bench/profile.
 * @typedef {{ profiles: { markdown: string, html: string } }} Extras
 *
 * @typedef {object} Section
 * @property {boolean} summary also in the summary a terminal shows at a run's end
 * @property {(analysis: Analysis, extras: Extras) => Part[]} parts
 */

/** @param {Table} table @returns {Part[]} */
const alone = (table) => [{ table }];

/** @type {Section[]} */
export const SECTIONS = [
  { summary: true, parts: (analysis) => [{ figure: () => leadFigure(analysis) }, { table: leadTable(analysis) }] },
  {
    summary: true,
    parts: (analysis) =>
      packagesTables(analysis).flatMap((packages, i) =>
        i === 0
          ? [{ table: packages }, { figure: () => `<div class="chart">${timelineChart(analysis)}</div>` }]
          : [{ table: packages }],
      ),
  },
  // one section with the starts: a run without a host to place adds no line to report.html
  { summary: true, parts: (analysis) => [{ table: hostTable(analysis) }, { table: startsTable(analysis) }] },
  { summary: true, parts: (analysis) => alone(warmUpTable(analysis.warmUps, analysis.runtimeLabels)) },
  { summary: true, parts: (analysis) => alone(timeTable(analysis.timeSpent)) },
  { summary: true, parts: (analysis) => alone(startupTable(analysis)) },
  // a section a run may not have joins one it shares a place with: each section is a line of report.html, so a new
  // one would change every committed report a run rebuilds
  { summary: true, parts: (analysis) => [...throttleTables(analysis), ...ownAppTables(analysis)] },
  { summary: true, parts: (analysis) => alone(stackComparisonTable(analysis)) },
  { summary: true, parts: (analysis) => alone(ablationTable(analysis)) },
  { summary: true, parts: (analysis) => alone(runtimeMatrixTable(analysis)) },
  { summary: true, parts: (analysis) => [{ figure: () => runtimeTimelineCharts(analysis) }] },
  { summary: true, parts: (analysis) => alone(baselineMatrixTable(analysis)) },
  { summary: true, parts: (analysis) => alone(nestOverheadMatrixTable(analysis)) },
  { summary: true, parts: (analysis) => alone(overheadTable(analysis)) },
  { summary: true, parts: (analysis) => alone(baselineTable(analysis)) },
  {
    summary: true,
    parts: (analysis) => [
      {
        heading: 'At a realistic load',
        sentences: realisticLoadSentences(analysis.loadCurve, analysis.runtimeLabels),
      },
    ],
  },
  {
    summary: true,
    parts: (analysis) => [{ figure: () => latencyCurveCharts(analysis.loadCurve, analysis.runtimeLabels) }],
  },
  { summary: true, parts: (analysis) => alone(cpuPerThousandTable(analysis.loadCurve, analysis.runtimeLabels)) },
  { summary: true, parts: (analysis) => alone(problemsTable(analysis)) },
  {
    summary: false,
    parts: (analysis) => [...checkWritesTables(analysis), { figure: () => throughputCharts(analysis) }],
  },
  { summary: false, parts: (analysis) => [{ figure: () => roundCharts(analysis) }] },
  { summary: false, parts: (analysis) => [{ figure: () => latencyCharts(analysis) }] },
  { summary: false, parts: (analysis) => alone(mixTable(analysis)) },
  { summary: false, parts: (analysis) => alone(orderTable(analysis)) },
  { summary: false, parts: (analysis) => alone(targetTable(analysis)) },
  { summary: false, parts: (analysis) => alone(latencyCurveTable(analysis.loadCurve, analysis.runtimeLabels)) },
  { summary: false, parts: (analysis) => alone(headerTable(analysis)) },
  { summary: false, parts: (_, { profiles }) => [profiles] },
  { summary: false, parts: (analysis) => alone(environmentTable(analysis)) },
];

/** @param {Part} part */
function markdownPart(part) {
  if ('table' in part) return markdownTable(part.table, part.empty);
  if ('heading' in part)
    return part.sentences.length
      ? [`### ${part.heading}`, '', ...part.sentences.map((s) => `${markdownText(s)}\n`)].join('\n')
      : '';
  return 'markdown' in part ? part.markdown : '';
}

/** @param {Part} part */
function htmlPart(part) {
  if ('table' in part) return htmlTable(part.table, part.empty);
  if ('heading' in part)
    return part.sentences.length
      ? `<h2>${escapeHtml(part.heading)}</h2>${part.sentences.map((s) => `<p>${htmlText(s)}</p>`).join('')}`
      : '';
  return 'figure' in part ? part.figure() : part.html;
}

/** Nothing beside the Analysis: no profiles section (the terminal's summary never has one). */
export const NO_EXTRAS = { profiles: { markdown: '', html: '' } };

/**
 * The sections' Markdown, one piece per part, the empty ones left out.
 * @param {Analysis} analysis @param {{ summary: boolean }} which the summary's sections or the others
 * @param {Extras} [extras]
 * @returns {string[]}
 */
export function markdownSections(analysis, { summary }, extras = NO_EXTRAS) {
  return SECTIONS.filter((section) => section.summary === summary)
    .flatMap((section) => section.parts(analysis, extras).map(markdownPart))
    .filter(Boolean);
}

/**
 * Every section's HTML, one line each.
 * @param {Analysis} analysis @param {Extras} extras
 */
export function htmlSections(analysis, extras) {
  return SECTIONS.map((section) => section.parts(analysis, extras).map(htmlPart).join('')).join('\n');
}
