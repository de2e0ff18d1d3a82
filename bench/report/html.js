// @ts-check
// report.html: one self-contained file (inline CSS and SVG, no scripts, no network) with the tables and charts.
import { answerChart, answerSentence } from './answer-chart.js';
import { escapeHtml } from './format.js';
import { htmlTable, htmlText } from './rich-table.js';
import { verdictTable } from './tables.js';
import { measuredWith, statusLine } from './run-tables.js';
import { decisionSentences } from './decision.js';
import { NO_EXTRAS, htmlSections } from './sections.js';

/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1200px; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; margin: .5rem 0 1.5rem; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 3px 8px; vertical-align: top; }
th { background: #f4f4f4; text-align: left; }
td.right { text-align: right; white-space: nowrap; }
td code { overflow-wrap: anywhere; }
p.note { margin: -1rem 0 1.5rem; color: #444; }
.decision { background: #eef5ee; border-left: 4px solid #2a9d8f; padding: .25rem 1rem; margin-bottom: 1rem; font-size: 15px; }
.warning { background: #fff3cd; border: 1px solid #e0c060; padding: .5rem 1rem; }
.chart { overflow-x: auto; margin-bottom: 1.5rem; }
.charts { display: flex; flex-wrap: wrap; gap: 0 1rem; }
.legend span { display: inline-block; margin-right: 1rem; }
.legend i { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -1px; }
figure.answer { margin: 0 0 1.5rem; }
figure.answer figcaption { font-size: 17px; font-weight: 600; margin-bottom: .5rem; }
figure.answer svg { display: block; max-width: 100%; height: auto; }
figure.answer svg.narrow { display: none; }
@media (max-width: 640px) {
  body { margin: 1rem auto; }
  figure.answer svg.wide { display: none; }
  figure.answer svg.narrow { display: block; width: 100%; }
}
details.method { margin: -1rem 0 1.5rem; color: #333; }
details.method summary { cursor: pointer; color: #2f6db5; }
`;

/**
 * The answer at a glance, first on the page: the one-sentence decision over the picture, drawn wide for a laptop
 * and narrow for a phone (the stylesheet shows one).
 * @param {Analysis} analysis
 */
function answerFigure(analysis) {
  const wide = answerChart(analysis, 'wide');
  if (!wide) return '';
  return (
    `<figure class="answer"><figcaption>${escapeHtml(answerSentence(analysis))}</figcaption>` +
    `${wide}${answerChart(analysis, 'narrow')}</figure>`
  );
}

/**
 * @param {Analysis} analysis
 * @param {import('./sections.js').Extras} [extras] the profiles section; none by default
 */
export function renderHtml(analysis, extras = NO_EXTRAS) {
  const status = statusLine(analysis);
  const verdict = verdictTable(analysis);
  return htmlPage(
    'Nest on Fastify vs Nest on Express',
    `${answerFigure(analysis)}
<div class="decision">${decisionSentences(analysis)
      .map((paragraph) => `<p>${htmlText(paragraph)}</p>`)
      .join('')}</div>
${status ? `<p class="warning">${htmlText(status)}</p>` : ''}
${htmlTable({ ...verdict, intro: undefined }, 'No Nest-Express / Nest-Fastify pair was measured.')}
<details class="method"><summary>How these ratios were measured and judged</summary>
<p>The NestJS docs: "Fastify is much faster than Express, achieving almost two times better benchmarks results". ${
      measuredWith(analysis)
        ? `Measured in
${escapeHtml(measuredWith(analysis) ?? '')} on ${escapeHtml(analysis.run.environment.cpu.model)}
(${escapeHtml(analysis.run.environment.cpu.count)} CPUs)`
        : 'Nothing was timed here, so no ratio rests on this run'
    }. Rendered from results.json.</p>
${verdict.intro ? `<p>${htmlText(verdict.intro)}</p>` : ''}</details>
${htmlSections(analysis, extras)}`,
  );
}

/**
 * One self-contained page in the reports' style.
 * @param {string} title plain text @param {string} body HTML
 */
export function htmlPage(title, body) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
</body></html>
`;
}
