// @ts-check
// The load curve in the reports: latency against offered rate (tables and, in report.html, one chart per scenario),
// the server's CPU per 1,000 req/s, and the verdict restated at a realistic load.
import { SPIKE_FACTOR } from '../analysis/server-state.js';
import { CURVE_DENOMINATOR, CURVE_NUMERATOR, cpuSharePerThousandRps } from '../analysis/latency-curve.js';
import { lineChart } from './charts.js';
import { DASH, formatInterval, formatNumber, formatPercent, formatRatio } from './format.js';
import { strong } from './rich-table.js';

/** @typedef {import('../analysis/latency-curve.js').LoadCurveAnalysis} LoadCurveAnalysis */
/** @typedef {import('../analysis/latency-curve.js').CurvePoint} CurvePoint */
/** @typedef {import('../analysis/latency-curve.js').Estimate} Estimate */
/** @typedef {import('../model/results.js').LoadLevel} LoadLevel */
/** @typedef {import('./rich-table.js').Table} Table */
/** @typedef {import('./rich-table.js').Text} Text */

/** The load the verdict is restated at: the middle of the default levels, where many services run. */
export const REALISTIC_SHARE = 0.5;
const ADAPTER_LABEL = /** @type {Record<string, string>} */ ({
  [CURVE_DENOMINATOR]: 'Nest-Express',
  [CURVE_NUMERATOR]: 'Nest-Fastify',
});
const ADAPTER_COLOR = /** @type {Record<string, string>} */ ({
  [CURVE_DENOMINATOR]: '#2f6db5',
  [CURVE_NUMERATOR]: '#d9622b',
});

/** @param {number} ms */
const formatMs = (ms) => formatNumber(ms, ms < 10 ? 2 : 1);

/** @param {Estimate | undefined} estimate */
function latencyCell(estimate) {
  if (!estimate) return DASH;
  return estimate.ci
    ? `${formatMs(estimate.value)} (${formatInterval(estimate.ci, formatMs)})`
    : formatMs(estimate.value);
}

/** @param {LoadLevel} level */
function levelLabel(level) {
  return level.share === null ? `${formatNumber(level.rps)} req/s` : `${formatPercent(level.share)}`;
}

/**
 * Timed-out requests are in the latencies at the time they were given up on: say so where there were any, since the
 * percentiles they reach are then lower bounds.
 * @param {CurvePoint} point
 */
function timeoutNote(point) {
  return point.timeouts
    ? `${point.timeouts} request(s) timed out: in the latencies at the time they were given up on, so the percentiles ` +
        'they reach are lower bounds'
    : '';
}

/**
 * Every adapter at every offered rate.
 * @param {LoadCurveAnalysis | null} curve
 * @param {Record<string, string>} [labels] runtime keys with their release status (Analysis.runtimeLabels)
 * @returns {Table}
 */
export function latencyCurveTable(curve, labels = {}) {
  const rows = (curve?.points ?? []).map((p) => [
    labels[p.runtime] ?? p.runtime,
    p.scenario,
    levelLabel(p.level),
    formatNumber(p.level.rps),
    p.target,
    formatNumber(p.achievedRps),
    latencyCell(p.latencyMs?.p50),
    latencyCell(p.latencyMs?.p90),
    latencyCell(p.latencyMs?.p99),
    latencyCell(p.latencyMs?.p999),
    `${p.errors} / ${p.timeouts} / ${p.unexpectedStatus}`,
    formatPercent(p.cpuShare),
    formatNumber(p.cpuUsPerRequest, 1),
    formatNumber(p.peakRssMiB, 1),
    [
      p.failedRuns ? `${p.failedRuns} run(s) failed` : '',
      timeoutNote(p),
      p.rerunRuns ? `${p.rerunRuns} run(s) run again after the generator missed its schedule` : '',
      p.flaggedRuns
        ? `${p.flaggedRuns} of ${p.okRuns} run(s) not in the latencies, the generator could not hold the rate: ${p.flags.join('; ')}`
        : '',
      ...p.spikes.map(
        (spike) =>
          `${spike.percentile} ${formatNumber(spike.ms, 1)} ms, over ${SPIKE_FACTOR}× the median: ${spike.cause}`,
      ),
    ]
      .filter(Boolean)
      .join('; '),
  ]);
  return {
    title: 'Load curve: latency and CPU at fixed offered rates (open loop)',
    intro: [
      'Each request left at its scheduled time whether or not earlier ones had been answered, and its latency runs from ' +
        'that time (corrected for coordinated omission). Percentiles of the rounds’ HDR histograms merged, in ms, with a ' +
        '95 % bootstrap interval over rounds (rounds, not requests, are independent: one pause delays a burst of ' +
        'consecutive requests). ',
      strong('load'),
      ': share of the slower adapter’s saturation req/s in this run. ',
      strong('server CPU'),
      ': share of one core (median over rounds).',
    ],
    headers: [
      'runtime',
      'scenario',
      'load',
      'offered req/s',
      'target',
      'achieved req/s',
      'p50',
      'p90',
      'p99',
      'p99.9',
      'errors / timeouts / other status',
      'server CPU',
      'CPU µs/req',
      'peak RSS MiB',
      'note',
    ],
    align: ['left', 'left', 'right', 'right', 'left', ...Array(9).fill('right'), 'left'],
    rows,
  };
}

/**
 * Capacity planning's form of the docs' claim: the server CPU each adapter needs per 1,000 req/s, and their ratio.
 * @param {LoadCurveAnalysis | null} curve
 * @param {Record<string, string>} [labels] runtime keys with their release status (Analysis.runtimeLabels)
 * @returns {Table}
 */
export function cpuPerThousandTable(curve, labels = {}) {
  const rows = (curve?.curves ?? [])
    .flatMap(({ levels }) => levels)
    .map(({ ratio, denominator, numerator }) => {
      const points = [denominator, numerator];
      const shares = points.map((point) => cpuSharePerThousandRps(point?.cpuUsPerRequest ?? null));
      const overOneCore = shares.some((share) => share !== null && share > 1);
      const unanswered = points.flatMap((point) =>
        point && (point.timeouts || point.errors)
          ? [`${ADAPTER_LABEL[point.target]}: ${point.timeouts} timeout(s), ${point.errors} error(s)`]
          : [],
      );
      return [
        labels[ratio.runtime] ?? ratio.runtime,
        ratio.scenario,
        levelLabel(ratio.level),
        formatNumber(ratio.level.rps),
        ...shares.map((share) => formatPercent(share, 1)),
        formatRatio(ratio.summary.median),
        formatInterval(ratio.summary.ci, formatRatio),
        String(ratio.summary.n),
        [
          overOneCore
            ? 'above 100 %: one core cannot serve 1,000 req/s at this cost per request; that rate needs more than one ' +
              'core (more processes)'
            : '',
          ...unanswered,
        ]
          .filter(Boolean)
          .join('; '),
      ];
    });
  return {
    title: 'CPU per 1,000 req/s',
    intro:
      'The server’s CPU per request (from /proc/<pid>/task/*/schedstat, nanoseconds) times 1,000 req/s, as a share of ' +
      'one core: what a capacity plan multiplies by its expected rate. Fastify ÷ Express: the ratio of CPU per request ' +
      'taken within each round, median with a 95 % signed-rank interval (as the verdict’s); below 1, Fastify needs less. ' +
      'CPU per request counts answered requests; timeouts and errors are in the note.',
    headers: [
      'runtime',
      'scenario',
      'load',
      'offered req/s',
      'Nest-Express',
      'Nest-Fastify',
      'Fastify ÷ Express',
      '95 % CI',
      'rounds',
      'note',
    ],
    align: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
    rows,
  };
}

/**
 * The verdict at a realistic load, one sentence per runtime × scenario: CPU and tail latency at half the slower
 * adapter's capacity (with --rates, at the middle rate).
 * @param {LoadCurveAnalysis | null} curve
 * @param {Record<string, string>} [labels] runtime keys with their release status (Analysis.runtimeLabels)
 * @returns {Text[]}
 */
export function realisticLoadSentences(curve, labels = {}) {
  if (!curve) return [];
  return curve.curves.flatMap(({ plan, levels }) => {
    const at =
      levels.find(({ level }) => level.share === REALISTIC_SHARE) ?? levels[Math.floor((levels.length - 1) / 2)];
    if (!at) return [];
    const { level, ratio, denominator: express, numerator: fastify } = at;
    if (!express || !fastify) return [];
    const where =
      level.share === null
        ? `at ${formatNumber(level.rps)} req/s`
        : `at ${formatPercent(level.share)} of ${ADAPTER_LABEL[plan.basis ?? ''] ?? plan.basis}’s capacity (${formatNumber(level.rps)} req/s)`;
    const r = ratio.summary;
    const cpu = !Number.isFinite(r.median)
      ? 'CPU not measured'
      : r.median <= 1
        ? `Nest-Fastify uses ${formatRatio(1 / r.median)} less CPU per request${r.ci ? ` (95 % CI ${formatRatio(1 / r.ci.high)} – ${formatRatio(1 / r.ci.low)})` : ''}`
        : `Nest-Fastify uses ${formatRatio(r.median)} more CPU per request${r.ci ? ` (95 % CI ${formatRatio(r.ci.low)} – ${formatRatio(r.ci.high)})` : ''}`;
    const tail =
      fastify.latencyMs && express.latencyMs
        ? `p99 ${formatMs(fastify.latencyMs.p99.value)} ms (Fastify) vs ${formatMs(express.latencyMs.p99.value)} ms (Express)`
        : 'latency not reported: the generator could not hold the rate';
    return [[strong(plan.scenario), ` (${labels[plan.runtime] ?? plan.runtime}) ${where}: ${cpu}; ${tail}.`]];
  });
}

/**
 * One latency-versus-load chart per runtime × scenario: p50 (solid) and p99 (dashed) of both adapters against the
 * offered rate, with their intervals shaded.
 * @param {LoadCurveAnalysis | null} curve
 * @param {Record<string, string>} [labels] runtime keys with their release status (Analysis.runtimeLabels)
 * @returns {string} HTML
 */
export function latencyCurveCharts(curve, labels = {}) {
  if (!curve?.plans.length) return '';
  const charts = curve.curves.map(({ plan, levels }) => {
    const sides = /** @type {const} */ ([
      [CURVE_DENOMINATOR, 'denominator'],
      [CURVE_NUMERATOR, 'numerator'],
    ]);
    const lines = sides.flatMap(([target, side]) =>
      /** @type {const} */ (['p50', 'p99']).map((key) => ({
        name: `${ADAPTER_LABEL[target]} ${key}`,
        color: ADAPTER_COLOR[target],
        dashed: key === 'p99',
        points: levels.map(({ level, [side]: point }) => {
          const estimate = point?.latencyMs?.[key];
          return { x: level.rps, y: estimate?.value ?? null, low: estimate?.ci?.low, high: estimate?.ci?.high };
        }),
      })),
    );
    return `<div class="chart">${lineChart({
      title: `${plan.scenario} · ${labels[plan.runtime] ?? plan.runtime}`,
      lines,
      xLabel: 'offered req/s',
      yLabel: 'latency (ms, log scale)',
    })}</div>`;
  });
  return (
    '<h2>Latency against load</h2><p>Open-loop latency (from each request’s scheduled time) against the offered rate: ' +
    'p50 solid, p99 dashed, shaded: 95 % interval over rounds. Runs where the generator could not hold its rate are ' +
    `left out.</p><div class="charts">${charts.join('')}</div>`
  );
}
