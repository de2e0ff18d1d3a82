// @ts-check
// The Analysis in the formats the dashboards teams already run read: Bencher's Metric Format (BMF) and
// github-action-benchmark's custom arrays. Each series carries its interval as the report shows it.

/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */
/** @typedef {import('../analysis/rows.js').TargetRow} TargetRow */
/** @typedef {import('../analysis/rows.js').RatioRow} RatioRow */
/** @typedef {{ median: number, ci: { low: number, high: number } | null }} Estimate */

export const FORMATS = Object.freeze(['bmf', 'github-benchmark']);
export const BMF_FILE = 'bmf.json';
export const GITHUB_BIGGER_FILE = 'github-benchmark-bigger.json';
export const GITHUB_SMALLER_FILE = 'github-benchmark-smaller.json';

/** Bencher's built-in latency measure counts nanoseconds. */
const NS_PER_MS = 1e6;

/**
 * One name per series, stable across runs of the same config and patch releases, so a dashboard draws one line for it.
 * @param {{ runtime: string, scenario: string, stack: string }} row @param {string} subject
 */
function seriesName({ runtime, scenario, stack }, subject) {
  const [name, version = ''] = runtime.split('@');
  return `${scenario} · ${stack} · ${subject} · ${name} ${version.split('.')[0]}`.trimEnd();
}

/** @param {RatioRow} row */
const ratioSubject = (row) => `${row.numerator} ÷ ${row.denominator}`;

/** The ratios every dashboard should follow: the adapters' pairs, the judged one first. @param {Analysis} analysis */
function adapterRatios(analysis) {
  return analysis.ratios
    .filter((row) => row.kind === 'adapters' && row.summary.n > 0)
    .sort((a, b) => Number(b.judged) - Number(a.judged));
}

/** @param {Analysis} analysis */
const measuredTargets = (analysis) => analysis.targetRows.filter((row) => row.rps.n > 0);

/**
 * @param {Estimate} estimate @param {number} [scale]
 * @returns {{ value: number, lower_value?: number, upper_value?: number }}
 */
function bmfMetric({ median, ci }, scale = 1) {
  return ci
    ? { value: median * scale, lower_value: ci.low * scale, upper_value: ci.high * scale }
    : { value: median * scale };
}

/**
 * Bencher Metric Format: per target, `throughput` (req/s) and `latency` (p99, ns); per adapters' ratio, `ratio`.
 * @param {Analysis} analysis
 * @returns {Record<string, Record<string, { value: number, lower_value?: number, upper_value?: number }>>}
 */
export function bmfExport(analysis) {
  /** @type {ReturnType<typeof bmfExport>} */
  const out = {};
  for (const row of measuredTargets(analysis)) {
    out[seriesName(row, row.target)] = {
      throughput: bmfMetric(row.rps),
      latency: bmfMetric(row.latencyP99, NS_PER_MS),
    };
  }
  for (const row of adapterRatios(analysis))
    out[seriesName(row, ratioSubject(row))] = { ratio: bmfMetric(row.summary) };
  return out;
}

/** @param {number} value */
const rounded = (value) => Number(value.toPrecision(6));

/**
 * github-action-benchmark's entry: its range is one half-width, so an interval that is not symmetric reads as the
 * wider side; `extra` keeps the interval itself.
 * @param {string} name @param {string} unit @param {Estimate} estimate @param {string} about
 */
function githubEntry(name, unit, { median, ci }, about) {
  const entry = { name, unit, value: rounded(median) };
  if (!ci) return { ...entry, extra: about };
  const half = Math.max(median - ci.low, ci.high - median);
  return { ...entry, range: `± ${rounded(half)}`, extra: `${about}; interval ${rounded(ci.low)}–${rounded(ci.high)}` };
}

/** @param {{ runtime: string }} row @param {number} n */
const aboutRow = (row, n) => `${row.runtime}, ${n} rounds`;

/**
 * The two arrays github-action-benchmark reads with `tool: customBiggerIsBetter` (req/s, the adapters' ratios) and
 * `tool: customSmallerIsBetter` (p99 latency).
 * @param {Analysis} analysis
 */
export function githubBenchmarkExport(analysis) {
  const targets = measuredTargets(analysis);
  return {
    bigger: [
      ...targets.map((row) => githubEntry(seriesName(row, row.target), 'req/s', row.rps, aboutRow(row, row.rps.n))),
      ...adapterRatios(analysis).map((row) =>
        githubEntry(seriesName(row, ratioSubject(row)), 'x', row.summary, aboutRow(row, row.summary.n)),
      ),
    ],
    smaller: targets.map((row) =>
      githubEntry(seriesName(row, `${row.target} p99`), 'ms', row.latencyP99, aboutRow(row, row.latencyP99.n)),
    ),
  };
}

/**
 * The files a format writes beside results.json, by name.
 * @param {Analysis} analysis @param {string} format one of FORMATS
 * @returns {Record<string, string>}
 */
export function exportFiles(analysis, format) {
  const json = (/** @type {unknown} */ value) => `${JSON.stringify(value, null, 2)}\n`;
  if (format === 'bmf') return { [BMF_FILE]: json(bmfExport(analysis)) };
  const { bigger, smaller } = githubBenchmarkExport(analysis);
  return { [GITHUB_BIGGER_FILE]: json(bigger), [GITHUB_SMALLER_FILE]: json(smaller) };
}
