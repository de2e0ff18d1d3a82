// @ts-check
// Whether a short series still drifts: a warm-up still under way shows as a slope, which a changepoint test on a few
// points cannot tell from one level.
import { DEFAULT_TOLERANCE } from './changepoints.js';
import { studentQuantile } from './student.js';

/** Two-sided: a drift either way (a warm-up, a slowdown) keeps the series from counting as steady. */
export const DRIFT_CONFIDENCE = 0.8;

/**
 * The least-squares slope of the series' logs against their index differs from zero at `confidence` (Student's t on
 * the slope, n − 2 degrees of freedom) and moves the series by more than `tolerance` over its length: a slope too small
 * to tell two levels apart is no drift, however consistent on a quiet series. Fewer than three points never drift:
 * there is no spread to judge a slope by.
 * @param {number[]} series positive
 * @param {number} [confidence]
 * @param {number} [tolerance] relative, as changepoints.js compares levels
 */
export function drifts(series, confidence = DRIFT_CONFIDENCE, tolerance = DEFAULT_TOLERANCE) {
  const n = series.length;
  if (n < 3) return false;
  const logs = series.map(Math.log);
  const meanX = (n - 1) / 2;
  const meanY = logs.reduce((sum, y) => sum + y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let x = 0; x < n; x++) {
    sxx += (x - meanX) ** 2;
    sxy += (x - meanX) * (logs[x] - meanY);
  }
  const slope = sxy / sxx;
  if (Math.abs(slope) * (n - 1) <= Math.log(1 + tolerance)) return false;
  const residuals = logs.reduce((sum, y, x) => sum + (y - meanY - slope * (x - meanX)) ** 2, 0);
  const standardError = Math.sqrt(residuals / (n - 2) / sxx);
  if (standardError === 0) return true;
  return Math.abs(slope / standardError) > studentQuantile(1 - (1 - confidence) / 2, n - 2);
}
