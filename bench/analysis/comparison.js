// @ts-check
// Two runs side by side (two commits, two Nest or Node versions): for every target and ratio both measured, on the same
// runtime, scenario and stack, how far B moved from A. The interval's unit is the run's: with several server starts a
// start, since two runs differ by their starts' levels as well as their rounds' noise; with one start each, rounds,
// whose interval cannot include a start's level and so decides nothing (docs/method.md, "Comparing two runs").
import { median } from '../maths/quantile.js';
import { analyze } from './analyze.js';
import { CONFIDENCE, mean, shiftInterval, signedRankInterval } from './stats.js';
import { startInterval, startMeans, startShiftInterval } from './starts.js';

/**
 * The gates judge a one-sided question (slower?) on a two-sided interval at this level, so a build compared with itself
 * raises a false alarm at most 1 % of the time whatever the threshold (docs/ci.md, the simulation in its spec).
 */
export const GATE_CONFIDENCE = 0.98;

/** @typedef {import('./analyze.js').Analysis} Analysis */

/**
 * @typedef {object} Change one series measured in both runs
 * @property {string} runtimeA
 * @property {string} runtimeB
 * @property {string} scenario
 * @property {string} stack
 * @property {'req/s' | 'ratio'} kind
 * @property {string} subject a target, or "numerator ÷ denominator"
 * @property {boolean} judged the Nest-Fastify ÷ Nest-Express ratio the docs' claim is judged on
 * @property {{ n: number, starts: number, estimate: number }} a n: rounds; estimate: the run's own, in the interval's
 *   unit: the geometric mean of the per-start means with starts, else the median round
 * @property {{ n: number, starts: number, estimate: number }} b
 * @property {'starts' | 'rounds'} unit what the interval replicates: server starts when the two runs have three or
 *   more together, else rounds
 * @property {{ estimate: number, low: number, high: number, coverage: number } | null} change B ÷ A − 1: 0.05 is 5 %
 *   faster (or a 5 % higher ratio) in B
 * @property {{ low: number, high: number } | null} gateChange B ÷ A − 1 at GATE_CONFIDENCE, over starts; null when the
 *   unit is rounds or the starts are too few
 * @property {boolean | null} beyondNoise the interval reaches the full confidence and excludes no change; null when
 *   its unit is rounds, which leave out how far one start's level sits from another's
 * @property {import('./verdict.js').Verdict | null} verdictA
 * @property {import('./verdict.js').Verdict | null} verdictB
 */

/**
 * Runtimes pair by name; two runs of one runtime each pair with each other whatever their versions, which is what
 * comparing two Node versions means.
 * @param {string[]} a @param {string[]} b
 * @returns {[string, string][]}
 */
function pairRuntimes(a, b) {
  if (a.length === 1 && b.length === 1) return [[a[0], b[0]]];
  return a.filter((runtime) => b.includes(runtime)).map((runtime) => [runtime, runtime]);
}

/**
 * @typedef {{ values: number[], startByRound: number[] }} Series per-round values and each one's start
 */

/**
 * @param {Series} a run A's rounds @param {Series} b run B's, all values positive
 * @returns {Pick<Change, 'a' | 'b' | 'unit' | 'change' | 'gateChange' | 'beyondNoise'>}
 */
function changeBetween(a, b) {
  const [startsA, startsB] = [a, b].map((side) => startMeans(side.values, side.startByRound));
  const unit = startsA.length + startsB.length >= 3 ? 'starts' : 'rounds';
  const shift =
    unit === 'starts'
      ? startShiftInterval(startsA, startsB)
      : shiftInterval(a.values.map(Math.log), b.values.map(Math.log));
  const change = shift && {
    estimate: Math.exp(shift.estimate) - 1,
    low: Math.exp(shift.low) - 1,
    high: Math.exp(shift.high) - 1,
    coverage: shift.coverage,
  };
  const excludesNone = Boolean(change && change.coverage >= CONFIDENCE && (change.low > 0 || change.high < 0));
  const gate = unit === 'starts' ? startShiftInterval(startsA, startsB, GATE_CONFIDENCE) : null;
  return {
    a: { n: a.values.length, starts: startsA.length, estimate: centre(a.values, startsA, unit) },
    b: { n: b.values.length, starts: startsB.length, estimate: centre(b.values, startsB, unit) },
    unit,
    change,
    gateChange: gate && { low: Math.exp(gate.low) - 1, high: Math.exp(gate.high) - 1 },
    beyondNoise: unit === 'starts' ? excludesNone : null,
  };
}

/**
 * @param {number[]} values @param {import('./starts.js').StartMean[]} starts @param {Change['unit']} unit
 */
function centre(values, starts, unit) {
  return unit === 'starts' ? Math.exp(mean(starts.map((s) => s.logMean))) : median(values);
}

/**
 * @param {Analysis} a
 * @param {Analysis} b
 * @returns {Change[]} ratios first (the judged one leading), then every target's req/s
 */
export function compareAnalyses(a, b) {
  /** @type {Change[]} */
  const ratios = [];
  /** @type {Change[]} */
  const targets = [];
  const stacks = a.stacks.filter((stack) => b.stacks.includes(stack));
  for (const [runtimeA, runtimeB] of pairRuntimes(a.runtimes, b.runtimes)) {
    for (const scenario of a.scenarios.filter((s) => b.scenarios.includes(s))) {
      for (const stack of stacks) {
        const row = { scenario, stack };
        const same = (
          /** @type {{ runtime: string, scenario: string, stack: string }} */ r,
          /** @type {string} */ runtime,
        ) => r.runtime === runtime && r.scenario === scenario && r.stack === stack;
        for (const ratioA of a.ratios.filter((r) => r.kind === 'adapters' && same(r, runtimeA))) {
          const ratioB = b.ratios.find(
            (r) => same(r, runtimeB) && r.numerator === ratioA.numerator && r.denominator === ratioA.denominator,
          );
          if (!ratioB || !ratioA.byRound.length || !ratioB.byRound.length) continue;
          ratios.push({
            runtimeA,
            runtimeB,
            ...row,
            kind: 'ratio',
            subject: `${ratioA.numerator} ÷ ${ratioA.denominator}`,
            judged: ratioA.judged,
            ...changeBetween(
              { values: ratioA.byRound, startByRound: ratioA.startByRound },
              { values: ratioB.byRound, startByRound: ratioB.startByRound },
            ),
            verdictA: ratioA.verdict,
            verdictB: ratioB.verdict,
          });
        }
        for (const rowA of a.targetRows.filter((r) => same(r, runtimeA))) {
          const rowB = b.targetRows.find((r) => same(r, runtimeB) && r.target === rowA.target);
          if (!rowB) continue;
          const [seriesA, seriesB] = [rowA, rowB].map(positiveRounds);
          if (!seriesA.values.length || !seriesB.values.length) continue;
          targets.push({
            runtimeA,
            runtimeB,
            ...row,
            kind: 'req/s',
            subject: rowA.target,
            judged: false,
            ...changeBetween(seriesA, seriesB),
            verdictA: null,
            verdictB: null,
          });
        }
      }
    }
  }
  return [...ratios.sort((x, y) => Number(y.judged) - Number(x.judged)), ...targets];
}

/**
 * @param {import('./analyze.js').TargetRow} row
 * @returns {Series}
 */
function positiveRounds(row) {
  const kept = row.rpsByRound.flatMap((rps, i) => (rps > 0 ? [i] : []));
  return { values: kept.map((i) => row.rpsByRound[i]), startByRound: kept.map((i) => row.startByRound[i]) };
}

/**
 * Two runs compared: each run's directory and facts (A, B), every change from A to B, and whether their hosts differ.
 * @typedef {object} Comparison
 * @property {[ComparedRun, ComparedRun]} runs
 * @property {Change[]} changes
 * @property {HostDifference | null} hosts
 *
 * @typedef {{ dir: string, run: import('./record.js').RunFacts }} ComparedRun
 */

/**
 * @typedef {object} HostDifference
 * @property {string} a how run A's host reads
 * @property {string} b
 * @property {string[]} fields the identity fields that differ (model name alone when a run predates the identity)
 */

/** The CPU identity fields that tell two hosts apart, beyond the model name. */
const IDENTITY_FIELDS = /** @type {const} */ (['vendor', 'family', 'model', 'stepping', 'microcode']);

/**
 * Whether two runs ran on different hosts, by the CPU identity each recorded (environment.host.cpu), or by the CPU's
 * model name when either run predates it: a change between hosts is not a change of the code.
 * @param {import('../model/results.js').Results} a @param {import('../model/results.js').Results} b
 * @returns {HostDifference | null} null: the same host as far as both records tell
 */
export function hostDifference(a, b) {
  const [cpuA, cpuB] = [a, b].map((results) => results.environment.host?.cpu ?? null);
  const describe = (/** @type {import('../model/results.js').Results} */ results) => {
    const cpu = results.environment.host?.cpu;
    if (!cpu) return results.environment.cpu.model;
    const detail = IDENTITY_FIELDS.filter((field) => field !== 'vendor' && cpu[field] !== null).map(
      (field) => `${field} ${cpu[field]}`,
    );
    return `${cpu.modelName} (${detail.join(', ')})`;
  };
  const fields =
    cpuA && cpuB
      ? [
          ...(cpuA.modelName !== cpuB.modelName ? ['model name'] : []),
          ...IDENTITY_FIELDS.filter((field) => cpuA[field] !== cpuB[field]),
        ]
      : a.environment.cpu.model !== b.environment.cpu.model
        ? ['model name']
        : [];
  return fields.length ? { a: describe(a), b: describe(b), fields } : null;
}

/**
 * Run B against run A, each analysed once: what identifies each run, every change, and whether the hosts differ.
 * @param {{ dir: string, results: import('../model/results.js').Results }} a
 * @param {{ dir: string, results: import('../model/results.js').Results }} b
 * @returns {Comparison}
 */
export function compareRuns(a, b) {
  const [analysisA, analysisB] = [analyze(a.results), analyze(b.results)];
  return {
    runs: [
      { dir: a.dir, run: analysisA.run },
      { dir: b.dir, run: analysisB.run },
    ],
    changes: compareAnalyses(analysisA, analysisB),
    hosts: hostDifference(a.results, b.results),
  };
}

/**
 * The gate of two runs made apart: each target whose req/s B decided slower than A by more than `fraction` (its whole
 * gate interval below −fraction, with the server start as the unit). A ratio between adapters moving is not one build
 * being slower, so only each target's own req/s is gated.
 * @param {Change[]} changes @param {number} fraction 0.05 for 5 %
 * @returns {Array<Change & { gateChange: { low: number, high: number } }>}
 */
export function slowerThan(changes, fraction) {
  return /** @type {Array<Change & { gateChange: { low: number, high: number } }>} */ (
    changes.filter((c) => c.kind === 'req/s' && c.gateChange !== null && c.gateChange.high < -fraction)
  );
}

/**
 * Whether the gate can judge these changes: only intervals over server starts include how far one start's level sits
 * from another's, which two runs made apart always carry.
 * @param {Change[]} changes
 */
export function gateCanJudge(changes) {
  return changes.some((c) => c.kind === 'req/s' && c.unit === 'starts');
}

/**
 * A compared row's ratio at GATE_CONFIDENCE: over its starts when it has two or more, else over its rounds.
 * @param {import('./rows.js').RatioRow} row
 * @returns {{ low: number, high: number } | null}
 */
function gateInterval(row) {
  const perStart = row.starts?.perStart ?? [];
  if (perStart.length >= 2) {
    const starts = perStart.map(({ start, n, value }) => ({ start, n, logMean: Math.log(value) }));
    return startInterval(starts, GATE_CONFIDENCE);
  }
  const interval = signedRankInterval(row.byRound.filter((v) => v > 0).map(Math.log), GATE_CONFIDENCE);
  return interval && interval.coverage >= GATE_CONFIDENCE
    ? { low: Math.exp(interval.low), high: Math.exp(interval.high) }
    : null;
}

/**
 * The gate within one run of two builds: each compared row (numerator ÷ denominator, the candidate over the base)
 * whose whole gate interval lies below 1 − fraction.
 * @param {import('./rows.js').RatioRow[]} ratios @param {number} fraction 0.05 for 5 %
 * @returns {Array<{ row: import('./rows.js').RatioRow, interval: { low: number, high: number } }>}
 */
export function slowerRows(ratios, fraction) {
  return ratios.flatMap((row) => {
    const interval = row.judged ? gateInterval(row) : null;
    return interval && interval.high < 1 - fraction ? [{ row, interval }] : [];
  });
}
