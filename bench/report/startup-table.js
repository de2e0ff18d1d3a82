// @ts-check
// Cold start and memory per adapter and runtime (--cold-starts): what serverless users choose on.
import { DASH, formatInterval, formatNumber } from './format.js';

/** @typedef {import('./rich-table.js').Table} Table */

/** @param {number} ms */
const formatMs = (ms) => formatNumber(ms, ms < 100 ? 1 : 0);
/** @param {number | null} mib */
const formatMiB = (mib) => (mib === null ? DASH : formatNumber(mib, 1));

/**
 * @param {import('../analysis/analyze.js').Analysis} analysis
 * @returns {Table}
 */
export function startupTable(analysis) {
  return {
    title: 'Cold start and memory',
    intro:
      'Each compared server started afresh, in alternating order, after the timed rounds: cold start is the time from ' +
      'spawning its process to its first answer (polled every 2 ms), median over the starts with a 95 % interval. ' +
      'RSS and V8 heap in use as the telemetry preload read them once it answered (median over the starts), and after ' +
      'the server’s last timed run, in MiB. The servers ran with the timed runs’ runtime flags and pinning.',
    headers: [
      'runtime',
      'server',
      'starts',
      'cold start (ms)',
      '95 % interval',
      'RSS after boot',
      'heap after boot',
      'RSS after the timed runs',
      'heap after the timed runs',
    ],
    align: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
    rows: analysis.startup.map((row) => [
      analysis.runtimeLabels[row.runtime] ?? row.runtime,
      row.target,
      formatNumber(row.readyMs.n),
      formatMs(row.readyMs.median),
      formatInterval(row.readyMs.ci, formatMs),
      formatMiB(row.bootRssMiB),
      formatMiB(row.bootHeapMiB),
      formatMiB(row.endRssMiB),
      formatMiB(row.endHeapMiB),
    ]),
  };
}
