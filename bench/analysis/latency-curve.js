// @ts-check
// The load curve's numbers: per adapter × offered rate, latency percentiles of the rounds' histograms merged (not
// medians of per-round percentiles) with a bootstrap interval over rounds, and the server's CPU per request; per rate,
// the Fastify ÷ Express CPU ratio taken within each round.
import hdr from 'hdr-histogram-js';
import { attributeSpikes } from './server-state.js';
import { median } from '../maths/quantile.js';
import { CONFIDENCE, seededRandom, summarize } from './stats.js';

/** @typedef {import('../model/results.js').CurveRunRecord} CurveRunRecord */
/** @typedef {import('../model/results.js').LoadLevel} LoadLevel */
/** @typedef {ReturnType<typeof summarize>} Summary */

export const PERCENTILES = /** @type {const} */ ({ p50: 50, p90: 90, p99: 99, p999: 99.9 });
/**
 * Fewer resamples than the req/s intervals: each one merges every round's histogram, and the interval's ends move by
 * well under the histogram's 0.1 % resolution beyond this many.
 */
const LATENCY_RESAMPLES = 1000;
/** Fixed, so that the same results.json always renders the same intervals. */
const RESAMPLE_SEED = 0x5eed;
const MICROS_PER_MILLI = 1000;
const MICROS_PER_SEC = 1e6;
/** The load curve's two sides, as the verdict's ratio has them: Fastify over Express. */
export const CURVE_NUMERATOR = 'nest-fastify';
export const CURVE_DENOMINATOR = 'nest-express';

/**
 * @typedef {{ value: number, ci: { low: number, high: number } | null }} Estimate
 *
 * @typedef {object} CurvePoint one adapter at one offered rate, over the rounds
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} target
 * @property {LoadLevel} level
 * @property {number} okRuns
 * @property {number} failedRuns
 * @property {number} flaggedRuns runs whose generator fell behind or neared a core: not in the latencies
 * @property {string[]} flags their reasons, each once
 * @property {number} rerunRuns runs run a second time because the first attempt missed its schedule
 * @property {number} achievedRps median over the rounds
 * @property {Record<keyof typeof PERCENTILES, Estimate> | null} latencyMs null when every run was flagged
 * @property {number} requests in the merged histogram: answers, and timeouts at the time they were given up on
 * @property {number} errors totals over every run that sent requests, failed ones included
 * @property {number} timeouts
 * @property {number} unexpectedStatus
 * @property {number | null} cpuShare median share of one core the server used
 * @property {number | null} cpuUsPerRequest median
 * @property {number | null} peakRssMiB highest
 * @property {import('./server-state.js').Spike[]} spikes percentiles above SPIKE_FACTOR × the median, and what in the
 *   runs lined up with them
 *
 * @typedef {object} CpuRatio Fastify's server CPU per request ÷ Express's, at one offered rate, per round
 * @property {string} runtime
 * @property {string} scenario
 * @property {LoadLevel} level
 * @property {Summary} summary
 *
 * @typedef {object} LoadCurveAnalysis
 * @property {import('../model/results.js').CurvePlan[]} plans
 * @property {CurvePoint[]} points
 * @property {CpuRatio[]} cpuRatios
 * @property {Curve[]} curves each plan with its levels, each level's CPU ratio and both adapters' points beside it: the
 *   rows the report reads, one curve at a time
 *
 * @typedef {object} Curve one runtime × scenario's load curve
 * @property {import('../model/results.js').CurvePlan} plan
 * @property {CurveLevel[]} levels in the plan's order
 *
 * @typedef {object} CurveLevel one offered rate of a curve
 * @property {LoadLevel} level
 * @property {CpuRatio} ratio
 * @property {CurvePoint | null} denominator Express's point (CURVE_DENOMINATOR); null where it ran none
 * @property {CurvePoint | null} numerator Fastify's (CURVE_NUMERATOR)
 */

/**
 * @param {import('../model/results.js').Results} results
 * @returns {LoadCurveAnalysis | null} null when the run had no --load-curve
 */
export function analyzeLoadCurve(results) {
  if (!results.loadCurve) return null;
  const { plans, runs } = results.loadCurve;
  /** @type {CurvePoint[]} */
  const points = [];
  /** @type {CpuRatio[]} */
  const cpuRatios = [];
  const curves = plans.map((plan) => ({
    plan,
    levels: plan.levels.map((level) => {
      const atLevel = runs.filter(
        (r) => r.runtime === plan.runtime && r.scenario === plan.scenario && r.level.rps === level.rps,
      );
      const [denominator, numerator] = [CURVE_DENOMINATOR, CURVE_NUMERATOR].map((target) => {
        const own = atLevel.filter((r) => r.target === target);
        return own.length ? curvePoint(plan.runtime, plan.scenario, target, level, own) : null;
      });
      const ratio = { runtime: plan.runtime, scenario: plan.scenario, level, summary: cpuRatio(atLevel) };
      points.push(...[denominator, numerator].filter((point) => point !== null));
      cpuRatios.push(ratio);
      return { level, ratio, denominator, numerator };
    }),
  }));
  return { plans, points, cpuRatios, curves };
}

/**
 * @param {string} runtime @param {string} scenario @param {string} target @param {LoadLevel} level
 * @param {CurveRunRecord[]} runs
 * @returns {CurvePoint}
 */
function curvePoint(runtime, scenario, target, level, runs) {
  const ok = runs.filter((r) => r.status === 'ok' && r.run);
  const measured = ok.map((r) => /** @type {import('../model/results.js').OpenLoopRun} */ (r.run));
  const trusted = ok.filter((r) => r.generatorFlag === null).map((r) => /** @type {any} */ (r.run).latencyHistogram);
  const present = (/** @type {(number | null | undefined)[]} */ values) =>
    /** @type {number[]} */ (values.filter((v) => typeof v === 'number'));
  const medianOrNull = (/** @type {(number | null | undefined)[]} */ values) =>
    present(values).length ? median(present(values)) : null;
  // a failed run's requests went out too, and a missed attempt's: what became of them is reported, though their
  // latencies are not
  const sent = runs.flatMap((r) => [r.run, r.missedAttempt?.run]).filter((run) => run !== null && run !== undefined);
  const sum = (/** @type {(run: import('../model/results.js').OpenLoopRun) => number} */ pick) =>
    sent.reduce((total, run) => total + pick(run), 0);
  const peaks = present(ok.map((r) => r.server?.peakRssMiB));
  const merged = trusted.length ? mergedPercentiles(trusted) : null;
  return {
    runtime,
    scenario,
    target,
    level,
    okRuns: ok.length,
    failedRuns: runs.length - ok.length,
    flaggedRuns: ok.length - trusted.length,
    rerunRuns: runs.filter((r) => r.missedAttempt).length,
    flags: [...new Set(ok.map((r) => r.generatorFlag).filter((flag) => flag !== null))],
    achievedRps: median(measured.map((run) => run.achievedRps)),
    latencyMs: merged?.latencyMs ?? null,
    requests: merged?.requests ?? 0,
    errors: sum((run) => run.errors),
    timeouts: sum((run) => run.timeouts),
    unexpectedStatus: sum((run) => run.unexpectedStatus),
    cpuShare: medianOrNull(ok.map((r) => r.server?.cpuShare)),
    cpuUsPerRequest: medianOrNull(ok.map((r) => r.server?.cpuUsPerRequest)),
    peakRssMiB: peaks.length ? Math.max(...peaks) : null,
    spikes: attributeSpikes(
      merged?.latencyMs ?? null,
      ok.filter((r) => r.generatorFlag === null),
    ),
  };
}

/**
 * Fastify ÷ Express server CPU per request, taken within each round where both ran, so the machine's drift cancels.
 * @param {CurveRunRecord[]} runs one runtime × scenario × rate
 */
function cpuRatio(runs) {
  /** @param {string} target */
  const byRound = (target) =>
    new Map(
      runs
        .filter((r) => r.target === target && r.status === 'ok' && r.server?.cpuUsPerRequest)
        .map((r) => [r.round, /** @type {number} */ (r.server?.cpuUsPerRequest)]),
    );
  const express = byRound(CURVE_DENOMINATOR);
  const ratios = [...byRound(CURVE_NUMERATOR)]
    .filter(([round]) => express.has(round))
    .map(([round, fastify]) => fastify / /** @type {number} */ (express.get(round)));
  return summarize(ratios);
}

/**
 * The server's CPU per 1,000 req/s as a share of one core: what a capacity plan multiplies by the expected rate.
 * @param {number | null} cpuUsPerRequest
 */
export function cpuSharePerThousandRps(cpuUsPerRequest) {
  return cpuUsPerRequest === null ? null : (cpuUsPerRequest * 1000) / MICROS_PER_SEC;
}

/**
 * Percentiles of the rounds' histograms merged, and for each a percentile-bootstrap interval over rounds: resample
 * the rounds with replacement, merge the chosen rounds' histograms, read the percentile. Rounds, not requests, are
 * the unit: requests within a run are not independent (one GC pause or stall delays a burst of consecutive ones), so
 * an order-statistic interval that treats every request as an independent draw would be far too narrow.
 * @param {string[]} encoded one compressed HDR histogram per round, all built with generator.js's HISTOGRAM settings
 */
export function mergedPercentiles(encoded) {
  const rounds = encoded.map(
    (text) => /** @type {import('hdr-histogram-js').JsHistogram} */ (hdr.decodeFromCompressedBase64(text)),
  );
  // One shared index space: the buckets any round recorded into, ascending; the histograms have the same layout.
  const used = new Set();
  for (const histogram of rounds) {
    for (let i = 0; i < histogram.countsArrayLength; i++) if (histogram.getCountAtIndex(i) > 0) used.add(i);
  }
  const indexes = [...used].sort((a, b) => a - b);
  const reference = rounds[0];
  const bucketMs = indexes.map((i) => reference.highestEquivalentValue(reference.valueFromIndex(i)) / MICROS_PER_MILLI);
  const counts = rounds.map((histogram) => Float64Array.from(indexes, (i) => histogram.getCountAtIndex(i)));
  const roundTotals = counts.map((row) => row.reduce((sum, count) => sum + count, 0));
  const weights = new Float64Array(rounds.length);
  const merged = new Float64Array(indexes.length);
  const mergeWith = () => {
    merged.fill(0);
    let total = 0;
    counts.forEach((row, r) => {
      if (weights[r] === 0) return;
      for (let u = 0; u < row.length; u++) merged[u] += weights[r] * row[u];
      total += weights[r] * roundTotals[r];
    });
    return total;
  };
  /** HdrHistogram's own rule: the smallest bucket whose cumulative count reaches ceil(p % of the total). */
  const percentileOf = (/** @type {number} */ p, /** @type {number} */ total) => {
    const rank = Math.max(1, Math.ceil((p / 100) * total));
    let seen = 0;
    for (let u = 0; u < merged.length; u++) {
      seen += merged[u];
      if (seen >= rank) return bucketMs[u];
    }
    return bucketMs[bucketMs.length - 1];
  };
  const keys = /** @type {(keyof typeof PERCENTILES)[]} */ (Object.keys(PERCENTILES));
  weights.fill(1);
  const requests = mergeWith();
  const values = keys.map((key) => percentileOf(PERCENTILES[key], requests));

  /** @type {number[][]} */
  const resampled = keys.map(() => []);
  if (rounds.length >= 2) {
    const random = seededRandom(RESAMPLE_SEED);
    for (let b = 0; b < LATENCY_RESAMPLES; b++) {
      weights.fill(0);
      for (let r = 0; r < rounds.length; r++) weights[Math.floor(random() * rounds.length)]++;
      const total = mergeWith();
      keys.forEach((key, k) => resampled[k].push(percentileOf(PERCENTILES[key], total)));
    }
  }
  const tail = (1 - CONFIDENCE) / 2;
  /** @type {Record<string, Estimate>} */
  const latencyMs = {};
  keys.forEach((key, k) => {
    const sorted = resampled[k].sort((a, b) => a - b);
    latencyMs[key] = {
      value: values[k],
      ci: sorted.length
        ? {
            low: sorted[Math.floor(tail * (sorted.length - 1))],
            high: sorted[Math.ceil((1 - tail) * (sorted.length - 1))],
          }
        : null,
    };
  });
  rounds.forEach((histogram) => histogram.destroy());
  return { latencyMs: /** @type {Record<keyof typeof PERCENTILES, Estimate>} */ (latencyMs), requests };
}
