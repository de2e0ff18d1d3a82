// @ts-check
// The keys runs are grouped by: a block (a scenario on a stack: its pairs share one load and stop together) and a pair
// within it.
/** @param {{ scenario: string, stack: string }} block a block, or anything keyed like one */
export const blockKey = ({ scenario, stack }) => `${scenario}\u0000${stack}`;
/** @param {{ target: string, scenario: string, stack: string }} pair */
export const pairKey = (pair) => `${pair.target}\u0000${blockKey(pair)}`;
