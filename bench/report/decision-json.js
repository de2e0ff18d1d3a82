// @ts-check
// `npm run bench -- --json`: the decision as one JSON document on stdout, for scripts (CI gates, dashboards).
import { answerSentence } from './answer-chart.js';
import {
  BAND_EDGES,
  DECIDED_VERDICTS,
  HOLDS_MAX,
  HOLDS_MIN,
  edgeWithin,
  isBorderline,
  marginOf,
} from '../analysis/verdict.js';
import { CONFIDENCE } from '../analysis/stats.js';

/**
 * One judged row: a runtime, route and stack, the compared pair's ratio with its interval, and the verdict.
 * @typedef {object} DecisionRow
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} stack
 * @property {number | null} ratio numerator req/s ÷ denominator req/s, or on a paced route the denominator's CPU per
 *   request ÷ the numerator's (metric); null when too slow to measure
 * @property {import('../model/metrics.js').Metric} metric what the ratio divides: req/s or cpu-per-request
 * @property {{ low: number, high: number, level: number } | null} interval
 * @property {string} verdict holds, understated, does not hold, borderline at 1.5× (or 2.5×), inconclusive or too slow
 * @property {number | null} edge the band edge a borderline row sits at; null for every other verdict
 * @property {boolean} decided
 * @property {number} rounds the paired rounds the ratio rests on
 * @property {number | null} starts the server starts they came from; null: one start
 */

/**
 * @param {import('../analysis/analyze.js').Analysis} analysis
 * @param {{ complete: boolean, stopReason: string | null, files: Record<string, string> }} run whether the run
 *   finished, why not, and the files it wrote
 */
export function decisionJson(analysis, { complete, stopReason, files }) {
  /** @type {DecisionRow[]} */
  const rows = analysis.ratios
    .filter((row) => row.judged)
    .map((row) => {
      const measured = row.verdict !== 'too slow' && Number.isFinite(row.summary.median);
      const { ci } = row.summary;
      return {
        runtime: row.runtime,
        scenario: row.scenario,
        stack: row.stack,
        ratio: measured ? row.summary.median : null,
        metric: row.metric,
        interval:
          measured && ci ? { low: ci.low, high: ci.high, level: row.starts?.interval?.coverage ?? CONFIDENCE } : null,
        verdict: row.verdict ?? 'inconclusive',
        edge: isBorderline(row.verdict) && ci ? edgeWithin(ci, marginOf(analysis.stopRule)) : null,
        decided: DECIDED_VERDICTS.includes(row.verdict ?? ''),
        rounds: row.summary.n,
        starts: row.starts ? row.starts.perStart.length : null,
      };
    });
  return {
    compared: { numerator: analysis.compared.numerator, denominator: analysis.compared.denominator },
    bands: {
      doesNotHold: { below: HOLDS_MIN },
      holds: { from: HOLDS_MIN, to: HOLDS_MAX },
      understated: { above: HOLDS_MAX },
      borderline: { edges: BAND_EDGES, margin: marginOf(analysis.stopRule) },
    },
    answer: answerSentence(analysis),
    complete,
    stopReason,
    rows,
    files,
  };
}
