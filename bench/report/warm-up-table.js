// @ts-check
// Where each server's warm-up ended on each start, and where the run's wall time went.
import { formatPercent } from './format.js';
import { strong } from './rich-table.js';

/**
 * @param {import('../analysis/time-spent.js').WarmUpRow[]} warmUps
 * @param {Record<string, string>} runtimeLabels
 * @returns {import('./rich-table.js').Table} no rows for a run without steady blocks
 */
export function warmUpTable(warmUps, runtimeLabels) {
  return {
    title: 'Where warm-up ended',
    intro: [
      'On every server start, each scenario ran in rounds of short alternating runs of its targets until every ' +
        "target's CPU per request and young generation had no changepoint in the last rounds and no drift; only the " +
        'rounds from there on count. ',
      strong('warm-up rounds'),
      ': per start, in start order (the first two rounds always count as warm-up). ',
      strong('class'),
      ": how each start's series settled (flat, warm-up, slowdown, no steady state, after Barrett et al.). ",
      strong('not steady'),
      ': starts whose block reached its cap first; their last rounds stand in.',
    ],
    headers: ['runtime', 'scenario · stack', 'server', 'warm-up rounds', 'class', 'not steady'],
    align: ['left', 'left', 'left', 'left', 'left', 'right'],
    rows: warmUps.map((row) => [
      runtimeLabels[row.runtime] ?? row.runtime,
      `${row.scenario} · ${row.stack}`,
      row.target,
      row.warmUpRounds.join(', '),
      Object.entries(row.classes)
        .map(([name, count]) => `${name} ${count}`)
        .join(', '),
      row.unsteady ? strong(String(row.unsteady)) : '0',
    ]),
  };
}

/**
 * @param {import('../analysis/time-spent.js').TimeSpent | null} time
 * @returns {import('./rich-table.js').Table} no rows for a run that has not ended
 */
export function timeTable(time) {
  /** @param {number} seconds */
  const share = (seconds) => (time ? `${seconds.toFixed(1)} s (${formatPercent(seconds / time.wallSec)})` : '');
  return {
    title: "Where the run's time went",
    intro: [
      "From the run's own records. ",
      strong('timed'),
      ': the runs the intervals are taken over. ',
      strong('settling'),
      ': waiting before each run until no server held a request and the servers were near idle. ',
      strong('boot'),
      ': starting the servers of every start after the first. ',
      strong('other'),
      ': the first boot, verification, the load generator starting and ending, snapshots, reports.',
    ],
    headers: ['wall', 'timed', 'warm-up', 'settling', 'boot', 'other'],
    align: ['right', 'right', 'right', 'right', 'right', 'right'],
    rows: time
      ? [
          [
            `${time.wallSec.toFixed(1)} s`,
            share(time.timedSec),
            share(time.warmUpSec),
            share(time.settleSec),
            share(time.bootSec),
            share(time.otherSec),
          ],
        ]
      : [],
  };
}
