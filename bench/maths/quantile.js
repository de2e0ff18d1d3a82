// @ts-check
// Quantiles of a handful of values, for the stages that summarise them: analysis/, run/ and profile/.

/** @param {number[]} values */
export function sorted(values) {
  return [...values].sort((a, b) => a - b);
}

/**
 * Quantile by linear interpolation between closest ranks (the R-7 / numpy default).
 * @param {number[]} sortedValues ascending
 * @param {number} q in [0, 1]
 */
export function quantileOfSorted(sortedValues, q) {
  const position = (sortedValues.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sortedValues[below] + (sortedValues[above] - sortedValues[below]) * (position - below);
}

/**
 * @param {number[]} values
 * @param {number} q in [0, 1]
 */
export function quantile(values, q) {
  if (values.length === 0) return NaN;
  return quantileOfSorted(sorted(values), q);
}

/** @param {number[]} values */
export function median(values) {
  return quantile(values, 0.5);
}
