// @ts-check
// Why a ratio's verdict is what it is: every condition the analysis found, as one short note each, for the verdict
// table, the runtime matrix and the comparison.
import { FAILED_ANSWER_LIMIT, MIN_ROUNDS_FOR_VERDICT, band } from '../analysis/verdict.js';
import { NEIGHBOUR_CPU_LIMIT } from '../analysis/rows.js';
import { formatNumber, formatPercent, formatRatio } from './format.js';

/** @typedef {import('../analysis/analyze.js').RatioRow} RatioRow */

/** The most digits a ratio is shown with, however close to a band's edge it lies. */
const MAX_RATIO_DIGITS = 4;

/**
 * A ratio with two decimals, or more where two would put it in another band than it is in (2.503× is not 2.50×,
 * which "holds"), so an interval's edge reads in its true band.
 * @param {number} value
 */
export function formatBandedRatio(value) {
  if (!Number.isFinite(value)) return formatRatio(value);
  let digits = 2;
  while (digits < MAX_RATIO_DIGITS && band(Number(value.toFixed(digits))) !== band(value)) digits++;
  return formatRatio(value, digits);
}

/**
 * Rounds as a reader scans them: consecutive ones as a range (`rounds 3, 9–16`).
 * @param {number[]} rounds ascending
 */
function roundList(rounds) {
  /** @type {Array<[number, number]>} */
  const spans = [];
  for (const round of rounds) {
    const last = spans.at(-1);
    if (last && round === last[1] + 1) last[1] = round;
    else spans.push([round, round]);
  }
  const text = spans.map(([from, to]) => (from === to ? String(from) : `${from}–${to}`)).join(', ');
  return `${rounds.length === 1 ? 'round' : 'rounds'} ${text}`;
}

/**
 * @param {RatioRow} row
 * @param {{ first: string, second: string }} [names] what to call the numerator and denominator in the order note
 * @returns {string[]} one note per condition, most serious first; empty when nothing needs saying
 */
export function ratioNotes(row, names = { first: row.numerator, second: row.denominator }) {
  const measured =
    row.measuredVerdict && row.measuredVerdict !== row.verdict
      ? ` (alone the numbers say "${row.measuredVerdict}")`
      : '';
  const notes = row.tooSlow.map(
    (slow) =>
      `${slow.target} too slow for --duration ${slow.durationSec} s: none of the ${slow.inFlight} ` +
      `requests in flight answered in ${roundList(slow.rounds)}, so no ratio`,
  );
  if (row.failedAnswerRounds.length)
    notes.push(
      `more than ${formatPercent(FAILED_ANSWER_LIMIT, 1)} failed requests in ${roundList(row.failedAnswerRounds)} ` +
        `(see Per target): no verdict${measured}`,
    );
  else if (row.someFailedAnswers)
    notes.push(
      `a few failed requests, below ${formatPercent(FAILED_ANSWER_LIMIT, 1)} a round: not counted as throughput`,
    );
  if (row.saturatedRounds.length)
    notes.push(
      `load generator saturated in ${roundList(row.saturatedRounds)}: the ratio may read low` +
        (row.verdict === 'understated'
          ? ', so "understated" is a lower bound'
          : row.judged
            ? `; no verdict${measured}`
            : ''),
    );
  if (row.summary.n < MIN_ROUNDS_FOR_VERDICT && row.judged && !row.tooSlow.length)
    notes.push(`fewer than ${MIN_ROUNDS_FOR_VERDICT} rounds: no verdict`);
  if (row.missingRounds.length && !row.tooSlow.length)
    notes.push(`${roundList(row.missingRounds)} missing (a run failed or never ran)`);
  if (row.summary.widened)
    notes.push(
      `consecutive rounds correlated (lag-1 r ${formatNumber(row.summary.lag1, 2)}): the host drifted; interval widened`,
    );
  if (row.order?.differs)
    notes.push(
      `order matters: ${formatBandedRatio(row.order.numeratorFirst.median)} when ${names.first} ran first, ` +
        `${formatBandedRatio(row.order.denominatorFirst.median)} when ${names.second} did`,
    );
  if (row.neighbourRounds.length)
    notes.push(
      `another server used up to ${formatPercent(row.neighbourShare, 1)} of a core (over ` +
        `${formatPercent(NEIGHBOUR_CPU_LIMIT)}) during ${roundList(row.neighbourRounds)}`,
    );
  notes.push(...serverStateNotes(row.state));
  return notes;
}

/**
 * What the servers' telemetry and the host say set some rounds apart.
 * @param {import('../analysis/server-state.js').PairState} state
 */
function serverStateNotes(state) {
  return [
    ...state.heapSteps.map(
      (step) =>
        `${step.target}'s young generation ${formatMiBRange(step.steppedMiB)} in ${roundList(step.rounds)}, ` +
        `${formatNumber(step.usualMiB, 0)} MiB in the others`,
    ),
    ...state.reducingGcs.map(
      (gc) =>
        `an all-external-memory GC (the memory reducer's, or external memory's pressure) in ${gc.target} before or during ${roundList(gc.rounds)}`,
    ),
    ...state.fullGcCosts.map(
      (gc) =>
        `${gc.target} ran a full GC before or during ${roundList(gc.rounds)}, which cost ${formatRatio(gc.cpuRatio)} ` +
        `its other rounds' CPU per request besides the GC's own pauses (where traced, V8 was recompiling code the full GC threw away: ` +
        `docs/experiments/jit-recompiles/)`,
    ),
    ...(state.stealRounds.length
      ? [
          `the hypervisor stole up to ${formatPercent(state.stealMax, 1)} of the CPUs in ${roundList(state.stealRounds)}`,
        ]
      : []),
    ...unsettledNotes(state.unsettled),
    ...(state.otherCpuRounds.length
      ? [
          `work not charged to the server (other processes, interrupts) took up to ${formatPercent(state.otherCpuMax)} ` +
            `of its core in ${roundList(state.otherCpuRounds)}`,
        ]
      : []),
  ];
}

/**
 * Runs that began while the last run's leftovers still ran: a ratio with one of them may carry another run's work.
 * @param {import('../analysis/server-state.js').PairState['unsettled']} unsettled
 */
function unsettledNotes(unsettled) {
  if (unsettled.length === 0) return [];
  const rounds = [...new Set(unsettled.map((run) => run.round))].sort((a, b) => a - b);
  const holding = unsettled.filter((run) => run.inFlight > 0);
  const what = holding.length
    ? `${holding[0].busiest} still held ${Math.max(...holding.map((run) => run.inFlight))} requests`
    : `the servers still used ${formatPercent(Math.max(...unsettled.map((run) => run.cpuShare)))} of a core` +
      (unsettled[0].busiest ? ` (most: ${unsettled[0].busiest})` : '');
  return [`started unsettled in ${roundList(rounds)}: ${what} when the wait for the last run's leftovers ran out`];
}

/** @param {{ low: number, high: number }} range */
export function formatMiBRange({ low, high }) {
  const digits = high < 10 ? 1 : 0;
  return low === high
    ? `${formatNumber(low, digits)} MiB`
    : `${formatNumber(low, digits)}–${formatNumber(high, digits)} MiB`;
}
