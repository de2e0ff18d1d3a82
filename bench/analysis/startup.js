// @ts-check
// Cold start and memory per runtime and adapter: process start to first answer over --cold-starts starts (median with
// its 95 % interval), RSS and V8 heap after boot (medians over those starts), and at the end of the timed runs (the
// server's last timed run, as its telemetry read it).
import { BARE } from '../model/stacks.js';
import { median } from '../maths/quantile.js';
import { summarize } from './stats.js';

/**
 * @typedef {object} StartupRow
 * @property {string} runtime
 * @property {string} target
 * @property {ReturnType<typeof summarize>} readyMs
 * @property {number | null} bootRssMiB
 * @property {number | null} bootHeapMiB
 * @property {number | null} endRssMiB after the target's last timed run on the bare stack; null when none had telemetry
 * @property {number | null} endHeapMiB
 */

/**
 * @param {import('../model/results.js').Results} results
 * @returns {StartupRow[]} empty without --cold-starts
 */
export function startupRows(results) {
  const records = results.coldStarts ?? [];
  const keys = [...new Set(records.map((r) => `${r.runtime}\u0000${r.target}`))];
  return keys.map((key) => {
    const [runtime, target] = key.split('\u0000');
    const mine = records.filter((r) => r.runtime === runtime && r.target === target);
    const last = results.runs
      // cold starts boot the bare app: its memory after the timed runs is the bare server's
      .filter((r) => r.runtime === runtime && r.target === target && r.stack === BARE && r.state?.heapAfter)
      .sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt))
      .at(-1)?.state?.heapAfter;
    return {
      runtime,
      target,
      readyMs: summarize(mine.map((r) => r.readyMs)),
      bootRssMiB: medianOf(mine.map((r) => r.rssMiB)),
      bootHeapMiB: medianOf(mine.map((r) => r.heapUsedMiB)),
      endRssMiB: last?.rssMiB ?? null,
      endHeapMiB: last?.heapUsedMiB ?? null,
    };
  });
}

/** @param {Array<number | null>} values */
function medianOf(values) {
  const known = values.filter((v) => v !== null);
  return known.length ? median(/** @type {number[]} */ (known)) : null;
}
