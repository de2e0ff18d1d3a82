// @ts-check
// Which target × scenario pairs run, and in what order each round: pairs that are compared run back to back,
// and every order rotates from round to round so no target always goes first (or always follows a heavy one).
import { BUILTIN_CONFIG } from '../model/builtin-config.js';
import { targetNamed } from '../model/config.js';
import { targetHasScenario } from './targets.js';
import { BARE, baseStack } from '../model/stacks.js';

/** @typedef {import('../model/records.js').Pair} Pair */

/**
 * @param {string[]} targets canonical order
 * @param {string[]} scenarios canonical order
 * @param {import('../model/config.js').Config} [config]
 * @param {{ stack: string, scenarios?: string[] }[]} [stacks] each stack (or ablation variant) with the scenarios
 *   it runs (default: all of `scenarios`)
 * @returns {{ pairs: Pair[], notApplicable: Pair[] }} notApplicable: the target has no route for the scenario, or
 *   does not run that stack
 */
export function planPairs(targets, scenarios, config = BUILTIN_CONFIG, stacks = [{ stack: BARE }]) {
  /** @type {Pair[]} */
  const pairs = [];
  /** @type {Pair[]} */
  const notApplicable = [];
  for (const scenario of scenarios) {
    for (const { stack, scenarios: only } of stacks) {
      if (only && !only.includes(scenario)) continue;
      for (const target of targets) {
        const spec = targetNamed(config, target);
        const applies = targetHasScenario(spec, scenario) && spec.stacks.includes(baseStack(stack));
        (applies ? pairs : notApplicable).push({ target, scenario, stack });
      }
    }
  }
  return { pairs, notApplicable };
}

/**
 * @template T
 * @param {T[]} items @param {number} by
 * @returns {T[]}
 */
export function rotate(items, by) {
  if (items.length === 0) return items;
  const shift = by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

/**
 * @template T
 * @param {T[]} items @param {(item: T) => string} keyOf
 * @returns {T[][]} items grouped by key, groups in order of first appearance
 */
function groupBy(items, keyOf) {
  /** @type {Map<string, T[]>} */
  const groups = new Map();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return [...groups.values()];
}

/** The built-in config's targets by name. */
const BUILTIN_TARGETS = new Map(BUILTIN_CONFIG.targets.map((target) => [target.name, target]));

/**
 * The order of one round (0-based index): scenario blocks rotate, the target groups inside a block rotate, and the
 * targets inside a group (an Express/Fastify pair) swap, so each pair still runs back to back.
 * @param {Pair[]} pairs
 * @param {number} round
 * @param {Map<string, import('../model/config.js').Target>} [targets] the config's, by name, as the plan resolved them
 * @returns {Pair[]}
 */
export function roundOrder(pairs, round, targets = BUILTIN_TARGETS) {
  const blocks = groupBy(pairs, (pair) => pair.scenario);
  return rotate(blocks, round).flatMap((block) => {
    const groupOf = (/** @type {Pair} */ pair) =>
      /** @type {import('../model/config.js').Target} */ (targets.get(pair.target)).group;
    const groups = groupBy(block, (pair) => `${groupOf(pair)}\u0000${pair.stack}`);
    return rotate(groups, round).flatMap((group) => rotate(group, round));
  });
}
