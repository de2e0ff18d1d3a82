// @ts-check
// report.html's charts beside its tables: the ratio across runtimes, req/s per target, round by round, latency at
// saturation.
import { barPanels, categoryChart, dotPlot, roundChart } from './charts.js';
import { escapeHtml, formatNumber, formatPercent } from './format.js';
import { formatBandedRatio } from './ratio-notes.js';
import { estimateWords, scenarioLabel } from './tables.js';
import { baselineRow, inReleaseOrder } from './runtime-matrix.js';
import { HOLDS_MAX, HOLDS_MIN } from '../analysis/verdict.js';
import { BARE } from '../model/stacks.js';
import { ratioIn } from '../analysis/block-rows.js';

/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */

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
export function runtimeTimelineCharts(analysis) {
  if (analysis.runtimes.length < 2) return '';
  const runtimes = inReleaseOrder(analysis.runtimes);
  const categories = runtimes.map((runtime) => categoryLines(analysis.runtimeLabels[runtime]));
  const point = (/** @type {import('../analysis/analyze.js').RatioRow | undefined} */ row) =>
    row && row.verdict !== 'too slow' && Number.isFinite(row.summary.median)
      ? { y: row.summary.median, low: row.summary.ci?.low, high: row.summary.ci?.high }
      : null;
  const ratioLines = analysis.judgedRoutes.map(({ scenario, stack }, i) => ({
    name: scenarioLabel({ scenario, stack }, analysis.stacks),
    color: ROUTE_COLORS[i % ROUTE_COLORS.length],
    dashed: stack !== BARE,
    points: runtimes.map((runtime) => point(ratioIn(analysis, { runtime, scenario, stack }, { judged: true }))),
  }));
  const first = analysis.firstBaselineRoute;
  const shareLines = first
    ? first.targets.map((target) => ({
        name: target,
        color: TARGET_COLORS[target] ?? '#999',
        points: runtimes.map((runtime) => point(baselineRow(analysis, runtime, target, first.scenario, first.stack))),
      }))
    : [];
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
export function throughputCharts(analysis) {
  const legend = `<p class="legend">${analysis.targets.map((t) => `<span><i style="background:${TARGET_COLORS[t] ?? '#999'}"></i>${escapeHtml(t)}</span>`).join('')}</p>`;
  return analysis.byRuntime
    .map(({ runtime, blocks }) => {
      const panels = blocks
        .map(({ scenario, stack, answered }) => ({
          title: scenarioLabel({ scenario, stack }, analysis.stacks),
          bars: answered.map((r) => ({
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
export function roundCharts(analysis) {
  return analysis.byRuntime
    .map(({ runtime, blocks }) => {
      const charts = blocks
        .map(({ scenario, stack, rounds }) => {
          const lines = rounds
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
export function latencyCharts(analysis) {
  return analysis.byRuntime
    .map(({ runtime, answered }) => {
      const rows = answered.map((r) => ({
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
