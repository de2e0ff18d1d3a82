// @ts-check
// Where a row's noise lives, for runs with several server starts (--starts): the share of its variance between starts
// and within a start, each start's own ratio, and a flag when the starts fell into two groups.
import { DASH, formatPercent, formatRatio } from './format.js';
import { strong } from './rich-table.js';
import { scenarioHeader, scenarioLabel } from './tables.js';

/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */

/**
 * @param {Analysis} analysis
 * @returns {import('./rich-table.js').Table} no rows when every server started once
 */
export function startsTable(analysis) {
  const rows = analysis.ratios
    .filter((row) => row.kind === 'adapters' && row.starts)
    .map((row) => {
      const starts = /** @type {import('../analysis/starts.js').StartAnalysis} */ (row.starts);
      const split = starts.split;
      return [
        analysis.runtimeLabels[row.runtime],
        scenarioLabel(row, analysis.stacks),
        `${row.numerator} ÷ ${row.denominator}`,
        `${starts.perStart.length} × ${roundsPerStart(starts.perStart)}`,
        split ? formatPercent(split.betweenShare) : DASH,
        split ? formatPercent(1 - split.betweenShare) : DASH,
        starts.perStart.map((s) => formatRatio(s.value)).join(', '),
        starts.interval ? String(starts.interval.df) : DASH,
        noteOf(starts),
      ];
    });
  return {
    title: 'Where the noise lives: server starts and rounds',
    intro: [
      'Every server was started afresh for each block of rounds. ',
      strong('between starts'),
      ' / ',
      strong('within a start'),
      ": each share of the log ratio's variance, from a one-way random-effects estimate: a large share between " +
        'starts means more starts narrow the interval and more rounds per start do not. ',
      strong('per start'),
      ": each start's geometric mean ratio, in start order; the interval in the verdict table takes these as its " +
        'values, with ',
      strong('df'),
      ' degrees of freedom. ',
      strong('two groups'),
      ': the starts fall into two separate clusters, as a bimodal JIT or heap outcome would make them; read the ' +
        'row as two answers.',
    ],
    headers: [
      'runtime',
      scenarioHeader(analysis.stacks),
      'ratio',
      'starts × rounds',
      'between starts',
      'within a start',
      'per start',
      'df',
      'note',
    ],
    align: ['left', 'left', 'left', 'right', 'right', 'right', 'left', 'right', 'left'],
    rows,
  };
}

/**
 * A row's note: two groups, and each start left out as one the host slowed (1-based, the ratio it read, each server's
 * CPU per request over its median start's), which counts in neither the per-start ratios nor the interval.
 * @param {import('../analysis/starts.js').StartAnalysis} starts
 * @returns {import('./rich-table.js').Text}
 */
function noteOf({ twoGroups, leftOut }) {
  const groups = twoGroups ? strong('two groups') : '';
  if (!leftOut.length) return groups;
  const words = leftOut
    .map(
      ({ start, value, slowdown }) =>
        `start ${start + 1} (${formatRatio(value)}) left out: both servers spent ` +
        `${slowdown.map((x) => formatRatio(x, 1)).join(' and ')} the CPU per request of their median start, a core ` +
        'the host slowed',
    )
    .join('; ');
  return twoGroups ? [groups, `; ${words}`] : words;
}

/** @param {Array<{ n: number }>} perStart "4", or "2–4" when the starts got different numbers of rounds */
function roundsPerStart(perStart) {
  const counts = perStart.map((s) => s.n);
  const [least, most] = [Math.min(...counts), Math.max(...counts)];
  return least === most ? String(least) : `${least}–${most}`;
}
