// @ts-check
// The keys runs are grouped by: a block (a scenario on a stack: its pairs share one load and stop together) and a pair
// within it.
import { BARE } from './stacks.js';

/** @param {{ scenario: string, stack: string }} block a block, or anything keyed like one */
export const blockKey = ({ scenario, stack }) => `${scenario}\u0000${stack}`;
/** @param {{ target: string, scenario: string, stack: string }} pair */
export const pairKey = (pair) => `${pair.target}\u0000${blockKey(pair)}`;

/**
 * A pair's stack, bare for a record written before stacks existed.
 * @param {{ stack?: string }} pair
 */
export function stackOf(pair) {
  return pair.stack ?? BARE;
}
