// @ts-check
// Two runs side by side (two commits, two Nest or Node versions): for every target and ratio both measured, how far
// B moved from A, with a rank-sum interval that takes both runs' rounds as the data.
import { CONFIDENCE, median, shiftInterval } from './stats.js';

/** @typedef {import('./analyze.js').Analysis} Analysis */

/**
 * @typedef {object} Change one series measured in both runs
 * @property {string} runtimeA
 * @property {string} runtimeB
 * @property {string} scenario
 * @property {'req/s' | 'ratio'} kind
 * @property {string} subject a target, or "numerator ÷ denominator"
 * @property {boolean} judged the Nest-Fastify ÷ Nest-Express ratio the docs' claim is judged on
 * @property {{ n: number, median: number }} a
 * @property {{ n: number, median: number }} b
 * @property {{ estimate: number, low: number, high: number, coverage: number } | null} change B ÷ A − 1: 0.05 is 5 %
 *   faster (or a 5 % higher ratio) in B
 * @property {boolean} beyondNoise the interval reaches the full confidence and excludes no change
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
 * @param {number[]} a per-round values of run A @param {number[]} b of run B, both positive
 * @returns {Pick<Change, 'a' | 'b' | 'change' | 'beyondNoise'>}
 */
function changeBetween(a, b) {
  const shift = shiftInterval(a.map(Math.log), b.map(Math.log));
  const change = shift && {
    estimate: Math.exp(shift.estimate) - 1,
    low: Math.exp(shift.low) - 1,
    high: Math.exp(shift.high) - 1,
    coverage: shift.coverage,
  };
  return {
    a: { n: a.length, median: median(a) },
    b: { n: b.length, median: median(b) },
    change,
    beyondNoise: Boolean(change && change.coverage >= CONFIDENCE && (change.low > 0 || change.high < 0)),
  };
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
  for (const [runtimeA, runtimeB] of pairRuntimes(a.runtimes, b.runtimes)) {
    for (const scenario of a.scenarios.filter((s) => b.scenarios.includes(s))) {
      for (const ratioA of a.ratios.filter((r) => r.runtime === runtimeA && r.scenario === scenario)) {
        if (ratioA.kind !== 'adapters') continue;
        const ratioB = b.ratios.find(
          (r) =>
            r.runtime === runtimeB &&
            r.scenario === scenario &&
            r.numerator === ratioA.numerator &&
            r.denominator === ratioA.denominator,
        );
        if (!ratioB || !ratioA.byRound.length || !ratioB.byRound.length) continue;
        ratios.push({
          runtimeA,
          runtimeB,
          scenario,
          kind: 'ratio',
          subject: `${ratioA.numerator} ÷ ${ratioA.denominator}`,
          judged: ratioA.judged,
          ...changeBetween(ratioA.byRound, ratioB.byRound),
          verdictA: ratioA.verdict,
          verdictB: ratioB.verdict,
        });
      }
      for (const rowA of a.targetRows.filter((r) => r.runtime === runtimeA && r.scenario === scenario)) {
        const rowB = b.targetRows.find(
          (r) => r.runtime === runtimeB && r.scenario === scenario && r.target === rowA.target,
        );
        const [roundsA, roundsB] = [rowA.rpsByRound, rowB?.rpsByRound ?? []].map((v) => v.filter((x) => x > 0));
        if (!rowB || !roundsA.length || !roundsB.length) continue;
        targets.push({
          runtimeA,
          runtimeB,
          scenario,
          kind: 'req/s',
          subject: rowA.target,
          judged: false,
          ...changeBetween(roundsA, roundsB),
          verdictA: null,
          verdictB: null,
        });
      }
    }
  }
  return [...ratios.sort((x, y) => Number(y.judged) - Number(x.judged)), ...targets];
}
