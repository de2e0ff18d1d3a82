// @ts-check
// The files of a run's report by name: report.md, report.html and the pictures beside report.md (answer.svg,
// lead.svg), rendered from the Analysis and the profiles section alone (bin/run-reports.js composes and writes them).
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { ANSWER_SVG_FILE, answerChart } from './answer-chart.js';
import { LEAD_SVG_FILE, leadChart } from './lead-chart.js';

export const MARKDOWN_FILE = 'report.md';
export const HTML_FILE = 'report.html';

/**
 * Every file of a run's report, by name (answer.svg only when there is an answer, lead.svg only when a beyond profile
 * ran).
 * @param {import('../analysis/analyze.js').Analysis} analysis
 * @param {import('./sections.js').Extras} extras
 * @returns {Record<string, string>}
 */
export function reportFiles(analysis, extras) {
  const answer = answerChart(analysis);
  const lead = leadChart(analysis);
  return {
    [MARKDOWN_FILE]: renderMarkdown(analysis, extras),
    [HTML_FILE]: renderHtml(analysis, extras),
    ...(answer ? { [ANSWER_SVG_FILE]: `${answer}\n` } : {}),
    ...(lead ? { [LEAD_SVG_FILE]: `${lead}\n` } : {}),
  };
}
