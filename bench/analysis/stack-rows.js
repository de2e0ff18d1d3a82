// @ts-check
// What the app stacks cost: each production part's share of a request's CPU, and what each mix run sent per route.
import { median } from '../maths/quantile.js';
import { PRODUCTION, omittedPart } from '../model/stacks.js';
import { summarize } from './stats.js';

/** @typedef {import('../model/results.js').Results} Results */
/** @typedef {import('../model/results.js').RunRecord} RunRecord */
/** @typedef {ReturnType<typeof summarize>} Summary */

/**
 * What one part of the production stack costs a target: its server CPU per request with the whole stack against
 * without that part, in the same rounds.
 * @typedef {object} AblationRow
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} target
 * @property {string} part
 * @property {Summary} cpuRatio per round: CPU µs/request without the part ÷ with the whole production stack
 * @property {number} costShare 1 − cpuRatio's median: the part's share of a request's CPU
 * @property {{ low: number, high: number } | null} costInterval from cpuRatio's interval
 * @property {number | null} productionCpuUs median CPU µs/request with the whole stack
 *
 * The ablation as its table reads it: one line per part left out on a runtime and scenario, each target's row beside.
 * @typedef {object} Ablation
 * @property {string[]} targets in the order the rows first name them
 * @property {Array<{ runtime: string, scenario: string, part: string, byTarget: Array<AblationRow | undefined> }>} parts
 *   byTarget: each of `targets`' row, undefined where it has none
 *
 * What a mix run sent, per route, summed over the rounds.
 * @typedef {object} MixRow
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} stack
 * @property {string} target
 * @property {Record<string, number>} sentByRoute
 * @property {number} sent
 * @property {number} answered responses with the expected statuses, over the rounds
 * @property {Array<{ route: string, weight: number }>} shares what the mix was defined with
 */

/**
 * @param {RunRecord} run
 * @returns {number | null}
 */
const cpuOf = (run) => (run.status === 'ok' ? (run.server?.cpuUsPerRequest ?? null) : null);

/**
 * Each ablation variant against the whole production stack, per runtime, scenario and part, each target's row beside.
 * @param {Results} results @param {string[]} stacks
 * @returns {Ablation}
 */
export function ablation(results, stacks) {
  const rows = ablationRows(results, stacks);
  const targets = [...new Set(rows.map((row) => row.target))];
  const keys = [...new Set(rows.map((row) => `${row.runtime}\u0000${row.scenario}\u0000${row.part}`))];
  return {
    targets,
    parts: keys.map((key) => {
      const [runtime, scenario, part] = key.split('\u0000');
      const own = rows.filter((r) => r.runtime === runtime && r.scenario === scenario && r.part === part);
      return { runtime, scenario, part, byTarget: targets.map((target) => own.find((r) => r.target === target)) };
    }),
  };
}

/**
 * @param {Results} results @param {string[]} stacks
 * @returns {AblationRow[]}
 */
function ablationRows(results, stacks) {
  const variants = stacks.filter((stack) => omittedPart(stack) !== null);
  /** @type {AblationRow[]} */
  const rows = [];
  const keys = new Set(results.runs.map((run) => `${run.runtime}\u0000${run.scenario}\u0000${run.target}`));
  for (const key of keys) {
    const [runtime, scenario, target] = key.split('\u0000');
    const own = results.runs.filter(
      (run) => run.runtime === runtime && run.scenario === scenario && run.target === target,
    );
    const cpuByRound = (/** @type {string} */ stack) =>
      new Map(own.filter((run) => run.stack === stack && cpuOf(run) !== null).map((run) => [run.round, cpuOf(run)]));
    const production = cpuByRound(PRODUCTION);
    for (const variant of variants) {
      const without = cpuByRound(variant);
      const ratios = [...without].flatMap(([round, cpu]) => {
        const whole = production.get(round);
        return whole && cpu ? [cpu / whole] : [];
      });
      if (ratios.length === 0) continue;
      const cpuRatio = summarize(ratios);
      rows.push({
        runtime,
        scenario,
        target,
        part: /** @type {string} */ (omittedPart(variant)),
        cpuRatio,
        costShare: 1 - cpuRatio.median,
        costInterval: cpuRatio.ci && { low: 1 - cpuRatio.ci.high, high: 1 - cpuRatio.ci.low },
        productionCpuUs: production.size ? median(/** @type {number[]} */ ([...production.values()])) : null,
      });
    }
  }
  return rows;
}

/**
 * The requests each mix run sent per route, summed over a target's rounds.
 * @param {Results} results
 * @param {import('../model/config.js').ScenariosByName} scenarioOf the measured scenarios by name: each mix's shares
 * @returns {MixRow[]}
 */
export function mixRows(results, scenarioOf) {
  /** @type {Map<string, MixRow>} */
  const rows = new Map();
  for (const run of results.runs) {
    const sentByRoute = run.status === 'ok' ? run.load?.sentByRoute : undefined;
    if (!sentByRoute || !run.load) continue;
    const stack = run.stack;
    const key = [run.runtime, run.scenario, stack, run.target].join('\u0000');
    const row = rows.get(key) ?? {
      runtime: run.runtime,
      scenario: run.scenario,
      stack,
      target: run.target,
      sentByRoute: {},
      sent: 0,
      answered: 0,
      shares: scenarioOf.get(run.scenario)?.mix ?? [],
    };
    for (const [route, count] of Object.entries(sentByRoute)) {
      row.sentByRoute[route] = (row.sentByRoute[route] ?? 0) + count;
      row.sent += count;
    }
    row.answered += Math.round(run.load.rps * run.load.durationSec);
    rows.set(key, row);
  }
  return [...rows.values()];
}
