// @ts-check
// report.md, and the summary printed at the end of a run (the same tables, as Markdown).
import { verdictTable } from './tables.js';
import { measuredWith, problemsTable, statusLine } from './run-tables.js';
import { markdownTable, markdownText } from './rich-table.js';
import { decisionSentences } from './decision.js';
import { ANSWER_SVG_FILE, answerRows, answerSentence } from './answer-chart.js';
import { switchingFindingsTable, switchingSummaryTable } from './switching-tables.js';
import { NO_EXTRAS, markdownSections } from './sections.js';

/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */

/**
 * The one-sentence decision over the picture written beside report.md, when a row was judged.
 * @param {Analysis} analysis
 */
function answerMarkdown(analysis) {
  if (answerRows(analysis).length === 0) return '';
  const sentence = answerSentence(analysis);
  return `**${sentence}**\n\n![${sentence.replace(/[[\]]/g, '')}](${ANSWER_SVG_FILE})\n`;
}

/**
 * The answer in plain sentences, one paragraph each.
 * @param {Analysis} analysis
 * @param {{ log?: boolean }} [options] log: only what the verdict table cannot say (decisionSentences)
 */
function decisionMarkdown(analysis, { log = false } = {}) {
  return decisionSentences(analysis, { log })
    .map((paragraph) => `${markdownText(paragraph)}\n`)
    .join('\n');
}

/**
 * What the terminal shows when the run ends: the answer in sentences, the verdict, then the summary's sections (the
 * lead, Nest's cost, the ceiling, anything that went wrong: sections.js).
 * @param {Analysis} analysis
 * @param {{ decision?: boolean }} [options] decision: open with the answer (report.md puts it above its method)
 */
export function renderSummary(analysis, { decision = true } = {}) {
  const status = statusLine(analysis);
  return [
    decision && decisionMarkdown(analysis),
    status && markdownText(status),
    markdownTable(verdictTable(analysis), 'No Nest-Express / Nest-Fastify pair was measured.'),
    ...markdownSections(analysis, { summary: true }),
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * The verdict alone, for --quiet: whether the run finished, and the verdict table without its method paragraph
 * (report.md has it, and every other table).
 * @param {Analysis} analysis
 */
export function renderVerdict(analysis) {
  const status = statusLine(analysis);
  return [status && `${markdownText(status)}\n`, verdictAlone(analysis)].filter(Boolean).join('\n');
}

/**
 * What a log (stdout is not a terminal: CI, a file) gets when the run ends, short enough to read there: the verdict
 * table, what it cannot say (a boot failure, a refusal, what switching costs) and what went wrong. report.md holds
 * every other table; the log's last line names it.
 * @param {Analysis} analysis
 */
export function renderLogSummary(analysis) {
  const status = statusLine(analysis);
  const switching = analysis.switching;
  return [
    status && `${markdownText(status)}\n`,
    decisionMarkdown(analysis, { log: true }),
    verdictAlone(analysis),
    ...(switching
      ? [switchingSummaryTable(switching, analysis.runtimeLabels), switchingFindingsTable(switching)]
      : []
    ).map((table) => markdownTable(table)),
    markdownTable(problemsTable(analysis)),
  ]
    .filter(Boolean)
    .join('\n')
    .trimEnd();
}

/**
 * The verdict table without its method paragraph (report.md has it).
 * @param {Analysis} analysis
 */
function verdictAlone(analysis) {
  return markdownTable(
    { ...verdictTable(analysis), intro: undefined },
    'No Nest-Express / Nest-Fastify pair was measured.',
  );
}

/**
 * @param {Analysis} analysis
 * @param {import('./sections.js').Extras} [extras] the profiles section; none by default
 */
export function renderMarkdown(analysis, extras = NO_EXTRAS) {
  return [
    analysis.compared.builds
      ? '# Your app: the candidate build against the base\n'
      : '# Nest on Fastify vs Nest on Express\n',
    answerMarkdown(analysis),
    decisionMarkdown(analysis),
    `The NestJS docs: "Fastify is much faster than Express, achieving almost two times better benchmarks results". ` +
      `${measuredWith(analysis) ? `Measured here in ${measuredWith(analysis)}` : 'Nothing was timed here, so no ratio rests on this run'}; ` +
      `every table is rendered from results.json (\`npm run report -- DIR\`).`,
    '',
    renderSummary(analysis, { decision: false }),
    ...markdownSections(analysis, { summary: false }, extras),
  ]
    .filter(Boolean)
    .join('\n');
}
