// @ts-check
// From raw run records to what the reports show: per-target summaries and per-round ratios with intervals.
import { correlation, median, summarize } from './stats.js';
import { verdict } from './verdict.js';

/** @typedef {import('../results.js').Results} Results */
/** @typedef {import('../results.js').RunRecord} RunRecord */
/** @typedef {ReturnType<typeof summarize>} Summary */

/**
 * A ratio of two targets' req/s, taken within each round (where both ran), so slow drift of the machine cancels.
 * @typedef {object} RatioSpec
 * @property {'adapters' | 'overhead' | 'baseline'} kind
 * @property {string} numerator
 * @property {string} denominator
 * @property {boolean} judged whether the docs' claim is judged on it
 */

/**
 * The claim is about Nest; the bare frameworks show how much of the gap is the frameworks themselves.
 * @type {RatioSpec[]}
 */
const ADAPTER_RATIOS = [
  { kind: 'adapters', numerator: 'nest-fastify', denominator: 'nest-express', judged: true },
  { kind: 'adapters', numerator: 'raw-fastify', denominator: 'raw-express', judged: false },
];
/**
 * What Nest keeps of its adapter's throughput.
 * @type {RatioSpec[]}
 */
const OVERHEAD_RATIOS = [
  { kind: 'overhead', numerator: 'nest-express', denominator: 'raw-express', judged: false },
  { kind: 'overhead', numerator: 'nest-fastify', denominator: 'raw-fastify', judged: false },
];
export const BASELINE_TARGET = 'raw-node';

/**
 * @typedef {object} TargetRow
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} target
 * @property {number} okRuns
 * @property {number} failedRuns
 * @property {Summary} rps over the rounds
 * @property {{ p50: number, p90: number, p99: number, p999: number | null }} latencyMs medians over the rounds
 * @property {number} errors totals over the rounds
 * @property {number} timeouts
 * @property {number} non2xx
 * @property {number | null} cpuUsPerRequest median
 * @property {number | null} peakRssMiB highest
 * @property {number} generatorShare highest share of a core the generator used
 * @property {number} saturatedRuns runs where the generator may have been the bottleneck
 * @property {string[]} warnings distinct driver warnings
 *
 * @typedef {RatioSpec & { runtime: string, scenario: string, summary: Summary, verdict: import('./verdict.js').Verdict | null,
 *   pairCorrelation: number | null, saturated: boolean, failedRequests: boolean }} RatioRow
 *   pairCorrelation: of the two targets' log req/s across rounds; near 1, the machine's swings hit both runs of a round
 *   alike and the per-round ratio cancels them. failedRequests: some rounds had errors, timeouts or non-2xx
 *
 * @typedef {object} Analysis
 * @property {string[]} runtimes
 * @property {string[]} scenarios
 * @property {string[]} targets
 * @property {TargetRow[]} targetRows
 * @property {RatioRow[]} ratios
 */

/**
 * @param {Results} results
 * @returns {Analysis}
 */
export function analyze(results) {
  const runtimes = results.plan.runtimes;
  const { scenarios, targets } = results.options;
  /** @type {TargetRow[]} */
  const targetRows = [];
  /** @type {RatioRow[]} */
  const ratios = [];
  for (const runtime of runtimes) {
    for (const scenario of scenarios) {
      const runs = results.runs.filter((run) => run.runtime === runtime && run.scenario === scenario);
      for (const target of targets) {
        const own = runs.filter((run) => run.target === target);
        if (own.length) targetRows.push(summarizeTarget(runtime, scenario, target, own));
      }
      const baselineRatios = targets
        .filter((t) => t !== BASELINE_TARGET)
        .map((numerator) => ({
          kind: /** @type {const} */ ('baseline'),
          numerator,
          denominator: BASELINE_TARGET,
          judged: false,
        }));
      for (const spec of [...ADAPTER_RATIOS, ...OVERHEAD_RATIOS, ...baselineRatios]) {
        const row = ratioRow(runtime, scenario, spec, runs);
        if (row) ratios.push(row);
      }
    }
  }
  return { runtimes, scenarios, targets, targetRows, ratios };
}

/**
 * @param {string} runtime @param {string} scenario @param {string} target @param {RunRecord[]} runs
 * @returns {TargetRow}
 */
function summarizeTarget(runtime, scenario, target, runs) {
  const ok = runs.filter((run) => run.status === 'ok' && run.load);
  const loads = ok.map((run) => /** @type {import('../run/drivers/registry.js').LoadResult} */ (run.load));
  const medianOf = (/** @type {(number | null | undefined)[]} */ values) => {
    const present = /** @type {number[]} */ (values.filter((v) => typeof v === 'number'));
    return present.length ? median(present) : null;
  };
  const sum = (/** @type {(load: import('../run/drivers/registry.js').LoadResult) => number} */ pick) =>
    loads.reduce((total, load) => total + pick(load), 0);
  const peaks = /** @type {number[]} */ (ok.map((run) => run.server?.peakRssMiB).filter((v) => typeof v === 'number'));
  return {
    runtime,
    scenario,
    target,
    okRuns: ok.length,
    failedRuns: runs.length - ok.length,
    rps: summarize(loads.map((load) => load.rps)),
    latencyMs: {
      p50: medianOf(loads.map((l) => l.latencyMs.p50)) ?? NaN,
      p90: medianOf(loads.map((l) => l.latencyMs.p90)) ?? NaN,
      p99: medianOf(loads.map((l) => l.latencyMs.p99)) ?? NaN,
      p999: medianOf(loads.map((l) => l.latencyMs.p999)),
    },
    errors: sum((l) => l.errors),
    timeouts: sum((l) => l.timeouts),
    non2xx: sum((l) => l.non2xx),
    cpuUsPerRequest: medianOf(ok.map((run) => run.server?.cpuUsPerRequest)),
    peakRssMiB: peaks.length ? Math.max(...peaks) : null,
    generatorShare: Math.max(0, ...ok.map((run) => run.generator?.cpuShare ?? 0)),
    saturatedRuns: ok.filter((run) => run.generator?.saturated).length,
    warnings: [...new Set(loads.flatMap((l) => l.warnings ?? []))],
  };
}

/**
 * @param {string} runtime @param {string} scenario @param {RatioSpec} spec @param {RunRecord[]} runs
 * @returns {RatioRow | null} null when neither target ran the scenario
 */
function ratioRow(runtime, scenario, spec, runs) {
  /** @param {string} target */
  const byRound = (target) =>
    new Map(
      runs.filter((run) => run.target === target && run.status === 'ok' && run.load).map((run) => [run.round, run]),
    );
  const top = byRound(spec.numerator);
  const bottom = byRound(spec.denominator);
  if (!runs.some((run) => run.target === spec.numerator) || !runs.some((run) => run.target === spec.denominator))
    return null;
  const values = [];
  /** @type {[number[], number[]]} */
  const logRps = [[], []];
  let saturated = false;
  let failedRequests = false;
  for (const [round, run] of top) {
    const other = bottom.get(round);
    const below = other?.load?.rps;
    if (!other || !below) continue;
    const above = /** @type {number} */ (run.load?.rps);
    values.push(above / below);
    logRps[0].push(Math.log(above));
    logRps[1].push(Math.log(below));
    saturated ||= Boolean(run.generator?.saturated || other.generator?.saturated);
    failedRequests ||= hasFailedRequests(run.load) || hasFailedRequests(other.load);
  }
  const summary = summarize(values);
  const pairCorrelation = correlation(...logRps);
  return {
    ...spec,
    runtime,
    scenario,
    summary,
    verdict: spec.judged ? verdict(summary) : null,
    pairCorrelation,
    saturated,
    failedRequests,
  };
}

/**
 * Error answers count in req/s like correct ones (a 503 is often the quickest answer), so a ratio over such rounds
 * is not the routes' speed alone.
 * @param {import('../run/drivers/registry.js').LoadResult | null} load
 */
function hasFailedRequests(load) {
  return Boolean(load && (load.errors || load.timeouts || load.non2xx));
}
