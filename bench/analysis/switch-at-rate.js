// @ts-check
// --rate R: what a switch saves at the rate a service runs at. From the load curve's runs at R, per scenario: the
// cores each adapter used (CPU seconds per second, median over rounds with its interval), Fastify's saving (one minus
// the within-round ratio of CPU per request), p50 and p99 at R, and the instances each would need to stay at a
// target utilisation.
import { CURVE_DENOMINATOR, CURVE_NUMERATOR, analyzeLoadCurve } from './latency-curve.js';
import { summarize } from './stats.js';

/** The share of a core an instance is planned to run at, leaving room for bursts and a failed neighbour. */
export const TARGET_UTILISATION = 0.6;
/** A Node process runs JavaScript on one thread: an instance is one core. */
const CORES_PER_INSTANCE = 1;
/** An answered rate this far below the offered one says the adapter did not serve it. */
const SERVED_SHARE = 0.95;

/**
 * @typedef {object} AdapterAtRate
 * @property {{ median: number, ci: { low: number, high: number } | null, n: number } | null} cores
 * @property {number | null} p50Ms
 * @property {number | null} p99Ms
 * @property {boolean} served answered the rate, without timeouts: else its cores are those of a server that fell
 *   behind (waiting on a database, say), and no instance count is derived from them
 * @property {number | null} instances needed at TARGET_UTILISATION; null when it did not serve the rate
 * @property {number | null} rpsPerInstance what one instance serves at TARGET_UTILISATION
 * @property {number | null} achievedRps answers per second, median over rounds: below the rate, it did not serve it
 * @property {number} timeouts requests not answered within the generator's timeout, over every run
 *
 * @typedef {object} SwitchAtRate
 * @property {string} runtime
 * @property {string} scenario
 * @property {number} rps
 * @property {AdapterAtRate} express
 * @property {AdapterAtRate} fastify
 * @property {{ median: number, ci: { low: number, high: number } | null } | null} saving share of Express's CPU
 *   per request Fastify does not need; negative: it needs more
 */

/**
 * @param {import('../model/results.js').Results} results
 * @returns {SwitchAtRate[]} empty without --rate
 */
export function switchAtRate(results) {
  const rate = results.options.rate;
  const curve = analyzeLoadCurve(results);
  if (!curve || rate === null || rate === undefined) return [];
  return curve.plans.flatMap((plan) => {
    const level = plan.levels.find((l) => l.rps === rate);
    if (!level) return [];
    const runs = /** @type {NonNullable<typeof results.loadCurve>} */ (results.loadCurve).runs.filter(
      (r) => r.runtime === plan.runtime && r.scenario === plan.scenario && r.level.rps === rate && r.status === 'ok',
    );
    const ratio = curve.cpuRatios.find(
      (r) => r.runtime === plan.runtime && r.scenario === plan.scenario && r.level.rps === rate,
    )?.summary;
    /** @param {string} target @returns {AdapterAtRate} */
    const adapter = (target) => {
      const point = curve.points.find(
        (p) =>
          p.runtime === plan.runtime && p.scenario === plan.scenario && p.level.rps === rate && p.target === target,
      );
      const shares = runs
        .filter((r) => r.target === target)
        .map((r) => r.server?.cpuShare)
        .filter((share) => typeof share === 'number' && share > 0);
      const cores = shares.length ? summarize(/** @type {number[]} */ (shares)) : null;
      const achievedRps = point?.achievedRps ?? null;
      const timeouts = point?.timeouts ?? 0;
      const served = achievedRps !== null && achievedRps >= rate * SERVED_SHARE && timeouts === 0;
      return {
        cores: cores && { median: cores.median, ci: cores.ci, n: cores.n },
        achievedRps,
        timeouts,
        served,
        p50Ms: point?.latencyMs?.p50.value ?? null,
        p99Ms: point?.latencyMs?.p99.value ?? null,
        ...capacity(served ? (cores?.median ?? null) : null, rate),
      };
    };
    return [
      {
        runtime: plan.runtime,
        scenario: plan.scenario,
        rps: rate,
        express: adapter(CURVE_DENOMINATOR),
        fastify: adapter(CURVE_NUMERATOR),
        saving:
          ratio && Number.isFinite(ratio.median)
            ? {
                median: 1 - ratio.median,
                ci: ratio.ci && { low: 1 - ratio.ci.high, high: 1 - ratio.ci.low },
              }
            : null,
      },
    ];
  });
}

/**
 * Instances at the target utilisation for `cores` at `rps`, and what one serves there.
 * @param {number | null} cores @param {number} rps
 */
export function capacity(cores, rps) {
  if (cores === null || !(cores > 0)) return { instances: null, rpsPerInstance: null };
  const perInstance = CORES_PER_INSTANCE * TARGET_UTILISATION;
  return { instances: Math.max(1, Math.ceil(cores / perInstance)), rpsPerInstance: (rps * perInstance) / cores };
}
