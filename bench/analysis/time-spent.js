// @ts-check
// Where a run's wall time went, from its own records: timed runs that count, warm-up runs, waiting for the servers to
// settle, booting servers, and the rest (verification, the generator's own start and end, snapshots, reports).
import { runWallSec } from '../model/results.js';

/**
 * @typedef {object} TimeSpent seconds of the run's wall time
 * @property {number} wallSec from the run's start to its end
 * @property {number} timedSec the runs the intervals are taken over
 * @property {number} warmUpSec runs before their block's steady state and the headline's priming (or the warm-ups of a
 *   run without starts)
 * @property {number} settleSec waiting for the last run's leftovers before each run
 * @property {number} bootSec booting the servers of every start after the first (the first's is in the rest)
 * @property {number} otherSec the rest
 */

/**
 * @param {import('../model/results.js').Results} results
 * @returns {TimeSpent | null} null while the run has no end
 */
export function timeSpent(results) {
  if (!results.finishedAt) return null;
  const wallSec = (Date.parse(results.finishedAt) - Date.parse(results.startedAt)) / 1000;
  const blocks = results.steadyBlocks ?? [];
  const timedSec = sum(results.runs.map((run) => (run.status === 'ok' ? runWallSec(run) : 0)));
  const warmUpSec =
    sum(blocks.map((block) => block.warmUpSec)) + sum((results.primes ?? []).map((prime) => prime.seconds));
  const settleSec = blocks.length
    ? sum(blocks.map((block) => block.settleSec ?? 0))
    : sum(results.runs.map((run) => (run.settle?.waitedMs ?? 0) / 1000));
  const bootSec = sum((results.startBlocks ?? []).map((block) => (block.start > 0 ? (block.bootSec ?? 0) : 0)));
  const otherSec = Math.max(0, wallSec - timedSec - warmUpSec - settleSec - bootSec);
  return { wallSec, timedSec, warmUpSec, settleSec, bootSec, otherSec };
}

/** @param {number[]} values */
function sum(values) {
  return values.reduce((total, value) => total + value, 0);
}

/**
 * @typedef {object} WarmUpRow how one server's blocks reached their steady state over the starts
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} stack
 * @property {string} target its instance name
 * @property {number[]} warmUpRounds per start: the rounds before its block's steady state
 * @property {Record<string, number>} classes its series' classes, counted over the starts
 * @property {number} unsteady starts whose block ended before its targets were steady
 */

/**
 * @param {import('../model/results.js').Results} results
 * @returns {WarmUpRow[]}
 */
export function warmUpRows(results) {
  /** @type {Map<string, WarmUpRow>} */
  const rows = new Map();
  for (const block of results.steadyBlocks ?? []) {
    for (const [target, series] of Object.entries(block.byTarget)) {
      const key = [block.runtime, block.scenario, block.stack, target].join('\u0000');
      const row = rows.get(key) ?? {
        runtime: block.runtime,
        scenario: block.scenario,
        stack: block.stack,
        target,
        warmUpRounds: [],
        classes: {},
        unsteady: 0,
      };
      row.warmUpRounds.push(block.steadyFrom);
      row.classes[series.classification] = (row.classes[series.classification] ?? 0) + 1;
      if (!block.steady) row.unsteady++;
      rows.set(key, row);
    }
  }
  return [...rows.values()];
}
