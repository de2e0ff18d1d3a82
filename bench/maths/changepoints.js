// @ts-check
// Where a per-slice series (cost per request, young-generation size) changes level, and whether it has settled:
// PELT changepoints and the classes of Barrett et al., "Virtual machine warmup blows hot and cold" (OOPSLA 2017).

/**
 * Penalty per changepoint, in units of ln n. warmup_stats uses 15 ln n on series of thousands of iterations; on our 4 to
 * 40 slices that misses steps of several standard deviations. With three-point segments, 7 ln n keeps false changepoints
 * in flat noise under 5 % at every length from 4 to 40, skewed noise included (test/bench/maths/changepoints.spec.ts).
 */
export const PENALTY_PER_LN_POINT = 7;

/**
 * Two points are the fewest with a variance, but two points often lie close by chance, and the normal cost rewards
 * such a pair with a changepoint; with three, a smaller penalty gives the same false-positive rate and finds smaller steps.
 */
export const DEFAULT_MIN_SEGMENT_LENGTH = 3;

/** The fewest points the last level must hold to count as a steady state, rather than a change just begun. */
export const DEFAULT_MIN_STEADY_LENGTH = 4;

/**
 * Levels within this share of the steady level are one level. A warm-up smaller than this moves a ratio by less than
 * the A/A pair may differ from 1 (issue 31: 1.00 ± 5 %), so it cannot move a verdict on its own.
 */
export const DEFAULT_TOLERANCE = 0.03;

/**
 * A segment's variance is floored at this share of the series' mean level, squared: a run of equal values (a
 * young-generation size held for several slices) then costs a finite amount, and spreads below it count as none.
 */
const VARIANCE_FLOOR_SHARE = 1e-3;

/**
 * @typedef {object} ChangepointOptions
 * @property {number} [penalty] added per changepoint; PENALTY_PER_LN_POINT × ln n unless given
 * @property {number} [minSegmentLength] DEFAULT_MIN_SEGMENT_LENGTH unless given
 */

/**
 * @typedef {object} SteadyStateOptions
 * @property {number} [penalty]
 * @property {number} [minSegmentLength]
 * @property {number} [minSteadyLength] DEFAULT_MIN_STEADY_LENGTH unless given
 * @property {number} [tolerance] relative; DEFAULT_TOLERANCE unless given
 */

/**
 * 'warm-up': the steady level is lower (faster) than some earlier level; 'slowdown': higher than some earlier level;
 * 'flat': no earlier level differs from it; 'no steady state': the last level is too short to call steady.
 * @typedef {'flat' | 'warm-up' | 'slowdown' | 'no steady state'} SteadyStateClass
 */

/**
 * @typedef {object} Segment
 * @property {number} from index of its first point
 * @property {number} to index after its last point
 * @property {number} mean
 */

/**
 * @typedef {object} SteadyState
 * @property {number[]} changepoints indices where a new segment begins
 * @property {Segment[]} segments
 * @property {number | null} steadyFrom index of the first steady point, or null when there is no steady state
 * @property {SteadyStateClass} classification
 */

/**
 * Twice the negative log-likelihood (without its constant) of each stretch of the series under a normal law with its
 * own mean and variance, the variance held at or above a floor. Holding the floor inside the likelihood, rather than
 * clamping the variance afterwards, keeps the cost of a stretch at least the cost of its two halves, which PELT's
 * pruning needs.
 * @param {number[]} series
 * @returns {(from: number, to: number) => number} cost of series[from..to)
 */
export function normalCost(series) {
  const centre = series.reduce((sum, value) => sum + value, 0) / series.length;
  const level = series.reduce((sum, value) => sum + Math.abs(value), 0) / series.length;
  const floor = (VARIANCE_FLOOR_SHARE * level) ** 2 || Number.MIN_VALUE;
  // Sums of the centred values, so that the variance of a stretch does not cancel away in floating point.
  const sums = [0];
  const squares = [0];
  for (const value of series) {
    const centred = value - centre;
    sums.push(sums[sums.length - 1] + centred);
    squares.push(squares[squares.length - 1] + centred ** 2);
  }
  return (from, to) => {
    const n = to - from;
    const mean = (sums[to] - sums[from]) / n;
    const variance = Math.max(0, (squares[to] - squares[from]) / n - mean ** 2);
    const held = Math.max(variance, floor);
    return n * (Math.log(held) + variance / held);
  };
}

/**
 * Changepoints in mean and variance by PELT (Killick, Fearnhead and Eckley 2012), with a normal cost.
 * @param {number[]} series
 * @param {ChangepointOptions} [options]
 * @returns {number[]} ascending indices where a new segment begins
 */
export function changepoints(series, options = {}) {
  const n = series.length;
  const minLength = options.minSegmentLength ?? DEFAULT_MIN_SEGMENT_LENGTH;
  if (!Number.isInteger(minLength) || minLength < 1) {
    throw new RangeError(`minSegmentLength must be a whole number of at least 1, not ${minLength}`);
  }
  if (options.penalty !== undefined && !(options.penalty >= 0)) {
    throw new RangeError(`penalty must be a number of at least 0, not ${options.penalty}`);
  }
  const unmeasured = series.findIndex((value) => !Number.isFinite(value));
  if (unmeasured >= 0) throw new RangeError(`series[${unmeasured}] is ${series[unmeasured]}, not a finite number`);
  if (n < 2 * minLength) return [];
  const penalty = options.penalty ?? PENALTY_PER_LN_POINT * Math.log(n);
  const cost = normalCost(series);
  // best[t]: the least cost of series[0..t) plus a penalty per changepoint; best[0] = -penalty so the first segment
  // pays none.
  const best = Array.from({ length: n + 1 }, () => Infinity);
  const previous = Array.from({ length: n + 1 }, () => 0);
  best[0] = -penalty;
  let candidates = [0];
  for (let t = minLength; t <= n; t++) {
    const newest = t - minLength;
    if (newest >= minLength) {
      // Pruning is judged at `newest`, minLength behind t: a candidate beaten there is beaten at every later end,
      // because every later end is far enough from `newest` to start a segment there.
      candidates = candidates.filter((s) => best[s] + cost(s, newest) <= best[newest]);
      candidates.push(newest);
    }
    for (const s of candidates) {
      const total = best[s] + cost(s, t) + penalty;
      if (total < best[t]) {
        best[t] = total;
        previous[t] = s;
      }
    }
  }
  const found = [];
  for (let t = previous[n]; t > 0; t = previous[t]) found.unshift(t);
  return found;
}

/**
 * The segments between changepoints, the steady state (the last level, joined by the segments before it that lie within
 * the tolerance of it) and its class, after warmup_stats.
 * @param {number[]} series
 * @param {SteadyStateOptions} [options]
 * @returns {SteadyState}
 */
export function steadyState(series, options = {}) {
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  const minSteadyLength = options.minSteadyLength ?? DEFAULT_MIN_STEADY_LENGTH;
  const found = changepoints(series, options);
  const bounds = [0, ...found, series.length];
  /** @type {Segment[]} */
  const segments = bounds.slice(1).map((to, i) => {
    const from = bounds[i];
    const stretch = series.slice(from, to);
    return { from, to, mean: stretch.reduce((sum, value) => sum + value, 0) / stretch.length };
  });
  const result = { changepoints: found, segments };
  const last = segments.at(-1);
  if (!last) return { ...result, steadyFrom: null, classification: 'no steady state' };
  // By mean alone, as warmup_stats with --raw-deltas: a segment's spread says how noisy it was, not where its level is.
  /** @param {Segment} segment */
  const sameLevel = (segment) => Math.abs(segment.mean - last.mean) <= tolerance * Math.abs(last.mean);
  let first = segments.length - 1;
  while (first > 0 && sameLevel(segments[first - 1])) first--;
  const steadyFrom = segments[first].from;
  if (series.length - steadyFrom < minSteadyLength) {
    return { ...result, steadyFrom: null, classification: 'no steady state' };
  }
  const earlier = segments.slice(0, first).filter((segment) => !sameLevel(segment));
  // As warmup_stats: one earlier level faster than the steady one makes a slowdown, even when others were slower.
  const classification = earlier.some((segment) => segment.mean < last.mean)
    ? 'slowdown'
    : earlier.length
      ? 'warm-up'
      : 'flat';
  return { ...result, steadyFrom, classification };
}

/**
 * One steady state for several series of the same slices (cost per request, young-generation size): it begins when
 * the last of them has settled, and its class is the first series'.
 * @param {number[][]} seriesList the first series gives the class
 * @param {SteadyStateOptions} [options]
 * @returns {{ steadyFrom: number | null, classification: SteadyStateClass, perSeries: SteadyState[] }}
 */
export function steadyStateOfAll(seriesList, options = {}) {
  const perSeries = seriesList.map((series) => steadyState(series, options));
  if (perSeries.length === 0 || perSeries.some((state) => state.steadyFrom === null)) {
    return { steadyFrom: null, classification: 'no steady state', perSeries };
  }
  const steadyFrom = Math.max(...perSeries.map((state) => /** @type {number} */ (state.steadyFrom)));
  return { steadyFrom, classification: perSeries[0].classification, perSeries };
}
