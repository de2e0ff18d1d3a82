// @ts-check
// The blocks beside the verdict under a budget over starts: which have no compared pair, the time held back for them,
// and whether they fit in what the verdict's starts left.

/** @typedef {import('../plan.js').Pair} Pair */

/**
 * Whether the blocks beside the verdict fit in what the budget left: each estimated from its compared pair's latest
 * block, as many times longer as it has targets beside that pair.
 * @param {Array<{ key: string, pairs: Pair[] }>} blocks
 * @param {Map<string, number>} blockSec the compared pair's wall seconds per block, on its latest start
 * @param {number} bootSec the latest start's boot
 * @param {number} spentSec
 * @param {number | null} budgetSec
 */
export function fitsBesides(blocks, blockSec, bootSec, spentSec, budgetSec) {
  if (budgetSec === null) return true;
  const estimate = blocks.reduce(
    (sum, block) => sum + ((blockSec.get(block.key) ?? 0) * block.pairs.length) / COMPARED_PER_BLOCK,
    0,
  );
  return spentSec + bootSec + estimate <= budgetSec;
}

/** A compared block holds one pair of targets. */
const COMPARED_PER_BLOCK = 2;

/**
 * Whether a block beside the verdict has no compared pair in it, so its one start is all it gets.
 * @param {(pair: Pair) => boolean} isCompared
 */
export const standsAlone = (isCompared) => (/** @type {{ pairs: Pair[] }} */ block) => !block.pairs.some(isCompared);

/**
 * The time to hold back for blocks beside the verdict that have no compared pair (Fastify-only profiles): their
 * start's boot, and for each, as many times a compared block's median seconds per target on the first start as it
 * has targets. Taken from timings only, never from ratios, so the stop rule's coverage is untouched.
 * @param {Array<{ pairs: Pair[] }>} alone the beside blocks without a compared pair
 * @param {Array<{ key: string, pairs: Pair[] }>} compared the verdict's blocks, timed on the first start
 * @param {Map<string, number>} blockSec wall seconds per block on its latest start
 * @param {number} bootSec the first start's boot (and verification)
 * @returns {number} 0 when there is no such block
 */
export function besidesReserveSec(alone, compared, blockSec, bootSec) {
  if (!alone.length) return 0;
  const perTarget = compared
    .filter((block) => blockSec.has(block.key))
    .map((block) => /** @type {number} */ (blockSec.get(block.key)) / block.pairs.length)
    .sort((a, b) => a - b);
  const typical = perTarget.length ? perTarget[Math.floor((perTarget.length - 1) / 2)] : 0;
  return bootSec + alone.reduce((sum, block) => sum + typical * block.pairs.length, 0);
}
