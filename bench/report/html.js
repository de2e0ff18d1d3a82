// @ts-check
// report.html: one self-contained file (inline CSS and SVG, no scripts, no network) with the tables and charts.
import { barPanels, categoryChart, dotPlot, roundChart } from './charts.js';
import { answerChart, answerSentence } from './answer-chart.js';
import { packagesTables, timelineChart } from './packages-tables.js';
import { escapeHtml, formatNumber, formatPercent } from './format.js';
import { formatBandedRatio } from './ratio-notes.js';
import { htmlTable, htmlText } from './rich-table.js';
import { startsTable } from './starts-table.js';
import { timeTable, warmUpTable } from './warm-up-table.js';
import {
  baselineTable,
  estimateWords,
  orderTable,
  overheadTable,
  scenarioLabel,
  targetTable,
  verdictTable,
} from './tables.js';
import { environmentTable, headerTable, problemsTable, roundsDesign, statusLine } from './run-tables.js';
import {
  baselineMatrixTable,
  baselineRow,
  baselineSeries,
  inReleaseOrder,
  nestOverheadMatrixTable,
  runtimeMatrixTable,
} from './runtime-matrix.js';
import {
  cpuPerThousandTable,
  latencyCurveCharts,
  latencyCurveTable,
  realisticLoadSentences,
} from './load-curve-tables.js';
import { ablationTable, mixTable, stackComparisonTable } from './stack-tables.js';
import { ownAppTables } from './own-app-tables.js';
import { decisionSentences } from './decision.js';
import { startupTable } from './startup-table.js';
import { leadFigure } from './lead-chart.js';
import { leadTable } from './lead-table.js';
import { HOLDS_MAX, HOLDS_MIN } from '../analysis/verdict.js';
import { BARE } from '../model/stacks.js';

/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */
/** @typedef {import('../model/results.js').Results} Results */

const TARGET_COLORS = /** @type {Record<string, string>} */ ({
  'nest-express': '#2f6db5',
  'raw-express': '#93b7e3',
  'nest-fastify': '#d9622b',
  'raw-fastify': '#f2b08f',
  'raw-node': '#555555',
  'raw-hono': '#2a9d8f',
});
const ROUTE_COLORS = [
  '#2f6db5',
  '#d9622b',
  '#2a9d8f',
  '#8e5ea2',
  '#b5a22f',
  '#c0392b',
  '#555555',
  '#1b9e77',
  '#e7298a',
  '#66a61e',
  '#a6761d',
];
const PERCENTILE_SERIES = [
  { key: 'p50', name: 'p50', color: '#2a9d8f' },
  { key: 'p90', name: 'p90', color: '#c9a227' },
  { key: 'p99', name: 'p99', color: '#f4a261' },
  { key: 'p999', name: 'p99.9', color: '#c0392b' },
];

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
 * A runtime label split for a chart's x axis: `node@20.20.2`, `end of life`, `since 2026-04-30`; `deno@2.9.6`,
 * `npm: published 2026-08-27`, `newest on 2026-11-25`.
 * @param {string} label from Analysis.runtimeLabels
 */
function categoryLines(label) {
  const [, key, status] = /^(\S+) \((.*)\)$/.exec(label) ?? [label, label, ''];
  const [, phase, date] = /^(.*?),? ((?:since|until|(?:\d+\.\d+\.\d+ )?newest on) .*)$/.exec(status) ?? [
    status,
    status,
    '',
  ];
  return [key, phase, date].filter(Boolean);
}

/**
 * The claim and the frameworks' shares of node:http across runtimes in release order: where a Node line changes the
 * answer. Only when the run measured several runtimes.
 * @param {Analysis} analysis
 */
function runtimeTimelineCharts(analysis) {
  if (analysis.runtimes.length < 2) return '';
  const runtimes = inReleaseOrder(analysis.runtimes);
  const categories = runtimes.map((runtime) => categoryLines(analysis.runtimeLabels[runtime]));
  const point = (/** @type {import('../analysis/analyze.js').RatioRow | undefined} */ row) =>
    row && row.verdict !== 'too slow' && Number.isFinite(row.summary.median)
      ? { y: row.summary.median, low: row.summary.ci?.low, high: row.summary.ci?.high }
      : null;
  const routes = analysis.scenarios.flatMap((scenario) =>
    analysis.stacks
      .filter((stack) => analysis.ratios.some((r) => r.judged && r.scenario === scenario && r.stack === stack))
      .map((stack) => ({ scenario, stack })),
  );
  const ratioLines = routes.map(({ scenario, stack }, i) => ({
    name: scenarioLabel({ scenario, stack }, analysis.stacks),
    color: ROUTE_COLORS[i % ROUTE_COLORS.length],
    dashed: stack !== BARE,
    points: runtimes.map((runtime) =>
      point(
        analysis.ratios.find((r) => r.judged && r.runtime === runtime && r.scenario === scenario && r.stack === stack),
      ),
    ),
  }));
  const [first] = baselineSeries(analysis);
  const shareLines = baselineSeries(analysis)
    .filter(({ scenario, stack }) => scenario === first.scenario && stack === first.stack)
    .map(({ target, scenario, stack }) => ({
      name: target,
      color: TARGET_COLORS[target] ?? '#999',
      points: runtimes.map((runtime) => point(baselineRow(analysis, runtime, target, scenario, stack))),
    }));
  const names = analysis.compared.builtIn ? { numerator: 'Fastify', denominator: 'Express' } : analysis.compared;
  return (
    `<h2>${escapeHtml(`${names.numerator} ÷ ${names.denominator}`)} per runtime</h2><p>Runtimes in release order, each ` +
    `with its release line's status on the run's date. Left: the ${estimateWords(analysis)} per route with its 95 % ` +
    `interval (shaded: the docs' claim holds, ${HOLDS_MIN}–${HOLDS_MAX}×). Right: each framework's req/s as a share of ` +
    `${escapeHtml(analysis.baseline ?? '')} on ${escapeHtml(first ? scenarioLabel(first, analysis.stacks) : '')}, ` +
    `where a runtime that speeds up node:http's own path shows.</p><div class="charts">` +
    `<div class="chart">${categoryChart({
      title: `${analysis.compared.numerator} ÷ ${analysis.compared.denominator}, req/s`,
      categories,
      lines: ratioLines,
      yLabel: 'ratio',
      format: (value) => formatBandedRatio(value).replace(/\.?0+×$/, '×'),
      bands: [{ from: HOLDS_MIN, to: HOLDS_MAX, label: 'claim holds', color: '#e3f1e3' }],
      refLines: [1],
    })}</div>` +
    (first
      ? `<div class="chart">${categoryChart({
          title: `share of ${analysis.baseline}'s req/s on ${scenarioLabel(first, analysis.stacks)}`,
          categories,
          lines: shareLines,
          yLabel: `÷ ${analysis.baseline}`,
          format: (value) => formatPercent(value),
          refLines: [1],
        })}</div>`
      : '') +
    '</div>'
  );
}

/** @param {Analysis} analysis */
function throughputCharts(analysis) {
  const legend = `<p class="legend">${analysis.targets.map((t) => `<span><i style="background:${TARGET_COLORS[t] ?? '#999'}"></i>${escapeHtml(t)}</span>`).join('')}</p>`;
  return analysis.runtimes
    .map((runtime) => {
      const panels = analysis.scenarios
        .flatMap((scenario) => analysis.stacks.map((stack) => ({ scenario, stack })))
        .map(({ scenario, stack }) => ({
          title: scenarioLabel({ scenario, stack }, analysis.stacks),
          bars: analysis.targetRows
            .filter((r) => r.runtime === runtime && r.scenario === scenario && r.stack === stack && r.okRuns > 0)
            .map((r) => ({
              label: r.target,
              value: r.rps.median,
              low: r.rps.ci?.low,
              high: r.rps.ci?.high,
              color: TARGET_COLORS[r.target] ?? '#999',
            })),
        }))
        .filter((panel) => panel.bars.length > 0);
      if (panels.length === 0) return '';
      return (
        `<h2>Requests per second — ${escapeHtml(analysis.runtimeLabels[runtime])}</h2><p>Median over the rounds, whiskers: 95 % interval of the median. Each panel has its own scale.</p>` +
        `${legend}<div class="chart">${barPanels({ panels, yLabel: `req/s per scenario and target, ${analysis.runtimeLabels[runtime]}` })}</div>`
      );
    })
    .join('');
}

/**
 * Req/s of each target round by round, GC events marked: a server whose state changed mid-run shows as a step.
 * @param {Analysis} analysis
 */
function roundCharts(analysis) {
  return analysis.runtimes
    .map((runtime) => {
      const charts = analysis.scenarios
        .flatMap((scenario) => analysis.stacks.map((stack) => ({ scenario, stack })))
        .map(({ scenario, stack }) => {
          const lines = analysis.targetRows
            .filter((r) => r.runtime === runtime && r.scenario === scenario && r.stack === stack && r.state)
            .map((r) => ({
              name: r.target,
              color: TARGET_COLORS[r.target] ?? '#999',
              points: (r.state?.rounds ?? []).map((round) => ({
                x: round.round,
                y: round.rps,
                ...(round.reducing
                  ? { mark: /** @type {const} */ ('reducing') }
                  : round.majorGcs
                    ? { mark: /** @type {const} */ ('major') }
                    : {}),
                note: `${formatNumber(round.rps)} req/s, young generation ${formatNumber(round.youngMiB, 1)} MiB, ${round.majorGcs} major GC(s)${round.reducing ? ', collecting all external memory' : ''}`,
              })),
            }))
            .filter((line) => line.points.length > 0);
          return lines.length
            ? roundChart({ title: scenarioLabel({ scenario, stack }, analysis.stacks), lines, yLabel: 'req/s' })
            : '';
        })
        .filter(Boolean);
      if (charts.length === 0) return '';
      return (
        `<h2>Round by round — ${escapeHtml(analysis.runtimeLabels[runtime])}</h2><p>Each target's req/s in each round. ` +
        `A triangle marks a round before or during which the server ran a major GC, a red ring one that collected all external memory (V8's memory reducer does, and so does external memory's pressure, such as zlib's); ` +
        `hover a point for its young generation's size.</p><div class="charts">${charts.join('')}</div>`
      );
    })
    .join('');
}

/** @param {Analysis} analysis */
function latencyCharts(analysis) {
  return analysis.runtimes
    .map((runtime) => {
      const rows = analysis.targetRows
        .filter((r) => r.runtime === runtime && r.okRuns > 0)
        .map((r) => ({
          label: `${scenarioLabel(r, analysis.stacks)} · ${r.target}`,
          points: PERCENTILE_SERIES.map((s) => ({ value: r.latencyMs[/** @type {'p50'} */ (s.key)], series: s.name })),
        }));
      if (rows.length === 0) return '';
      return (
        `<h2>Closed-loop latency at saturation — ${escapeHtml(analysis.runtimeLabels[runtime])}</h2><p>Medians over the rounds, log scale. ` +
        `Every connection kept busy: these are latencies at the server's ceiling, not at the load it would run at.</p>` +
        `<div class="chart">${dotPlot({ rows, series: PERCENTILE_SERIES, xLabel: 'latency (ms, log scale)', log: true })}</div>`
      );
    })
    .join('');
}

/** @param {Analysis} analysis */
function realisticLoadHtml(analysis) {
  const sentences = realisticLoadSentences(analysis.loadCurve, analysis.runtimeLabels);
  if (sentences.length === 0) return '';
  return `<h2>At a realistic load</h2>${sentences.map((s) => `<p>${htmlText(s)}</p>`).join('')}`;
}

/**
 * @param {Results} results
 * @param {Analysis} analysis
 * @param {string} profilesHtml the profiles section, or '' when there are none
 */
export function renderHtml(results, analysis, profilesHtml) {
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
<p>The NestJS docs: "Fastify is much faster than Express, achieving almost two times better benchmarks results". Measured in
${escapeHtml(roundsDesign(analysis.run.rounds))} with ${escapeHtml(analysis.run.environment.driver)} on ${escapeHtml(analysis.run.environment.cpu.model)}
(${escapeHtml(analysis.run.environment.cpu.count)} CPUs). Rendered from results.json.</p>
${verdict.intro ? `<p>${htmlText(verdict.intro)}</p>` : ''}</details>
${leadFigure(results, analysis)}${htmlTable(leadTable(results, analysis))}
${packagesTables(analysis)
  .map((table, i) => htmlTable(table) + (i === 0 ? `<div class="chart">${timelineChart(analysis)}</div>` : ''))
  .join('')}
${htmlTable(startsTable(analysis))}
${htmlTable(warmUpTable(analysis.warmUps, analysis.runtimeLabels))}
${htmlTable(timeTable(analysis.timeSpent))}
${htmlTable(startupTable(analysis))}
${ownAppTables(analysis)
  .map(({ table, empty }) => htmlTable(table, empty))
  .join('')}
${htmlTable(stackComparisonTable(analysis))}
${htmlTable(ablationTable(analysis))}
${htmlTable(runtimeMatrixTable(analysis))}
${runtimeTimelineCharts(analysis)}
${htmlTable(baselineMatrixTable(analysis))}
${htmlTable(nestOverheadMatrixTable(analysis))}
${htmlTable(overheadTable(analysis))}
${htmlTable(baselineTable(analysis))}
${realisticLoadHtml(analysis)}
${latencyCurveCharts(analysis.loadCurve, analysis.runtimeLabels)}
${htmlTable(cpuPerThousandTable(analysis.loadCurve, analysis.runtimeLabels))}
${htmlTable(problemsTable(analysis))}
${throughputCharts(analysis)}
${roundCharts(analysis)}
${latencyCharts(analysis)}
${htmlTable(mixTable(analysis))}
${htmlTable(orderTable(analysis))}
${htmlTable(targetTable(analysis))}
${htmlTable(latencyCurveTable(analysis.loadCurve, analysis.runtimeLabels))}
${htmlTable(headerTable(analysis))}
${profilesHtml}
${htmlTable(environmentTable(analysis))}`,
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
