// @ts-check
// Writes are state: every timed write grows the app's database. Per write route and adapter, how many answers said a
// row was written (the route's expected status) and whether its req/s moved between the first and second half of
// its rounds, with the shift's interval.
import { shiftInterval } from './stats.js';

/**
 * @typedef {object} WriteGrowth
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} request e.g. POST /api/articles
 * @property {string} target
 * @property {number} written answers with the expected status over its timed runs
 * @property {number} inMix requests of it the traffic mix sent (null-free: 0 without a mix)
 * @property {{ estimate: number, low: number, high: number } | null} rateChange second half's req/s over the first's,
 *   minus one, with its 95 % interval; null below two rounds a half
 */

/** Below this many rounds in each half a shift has no interval worth printing. */
const MIN_ROUNDS_PER_HALF = 2;

/**
 * @param {import('../model/results.js').Results} results
 * @returns {WriteGrowth[]}
 */
export function writeGrowth(results) {
  const own = results.ownApp;
  if (!own) return [];
  const expected = new Map(
    own.compatibility.routes.filter((r) => r.expect).map((r) => [r.scenario, /** @type {any} */ (r.expect).status]),
  );
  const writes = own.routes.filter((r) => r.scenario !== null && r.method !== 'GET');
  const runtimes = [...new Set(results.runs.map((r) => r.runtime))];
  const targets = [...new Set(results.runs.map((r) => r.target))];
  return runtimes.flatMap((runtime) =>
    writes.flatMap((route) =>
      targets.flatMap((target) => {
        const runs = results.runs
          .filter((r) => r.runtime === runtime && r.target === target && r.status === 'ok' && r.load)
          .sort((a, b) => a.round - b.round);
        const ownRuns = runs.filter((r) => r.scenario === route.scenario);
        if (!ownRuns.length) return [];
        const status = String(expected.get(/** @type {string} */ (route.scenario)) ?? 200);
        const written = ownRuns.reduce((sum, r) => sum + (r.load?.statusCounts?.[status] ?? 0), 0);
        const inMix = runs
          .filter((r) => r.scenario === own.mix)
          .reduce((sum, r) => sum + (r.load?.sentByRoute?.[/** @type {string} */ (route.scenario)] ?? 0), 0);
        return [
          {
            runtime,
            scenario: /** @type {string} */ (route.scenario),
            request: /** @type {string} */ (route.request),
            target,
            written,
            inMix,
            rateChange: halvesShift(ownRuns.map((r) => /** @type {any} */ (r.load).rps)),
          },
        ];
      }),
    ),
  );
}

/**
 * The second half's rates against the first's, on the log scale (a rate's noise is multiplicative), as a relative
 * change.
 * @param {number[]} rates in round order
 */
export function halvesShift(rates) {
  const half = Math.floor(rates.length / 2);
  if (half < MIN_ROUNDS_PER_HALF || rates.some((rate) => !(rate > 0))) return null;
  const logs = rates.map(Math.log);
  const shift = shiftInterval(logs.slice(0, half), logs.slice(rates.length - half));
  if (!shift) return null;
  return { estimate: Math.expm1(shift.estimate), low: Math.expm1(shift.low), high: Math.expm1(shift.high) };
}
