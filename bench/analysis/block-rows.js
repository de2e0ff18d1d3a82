// @ts-check
// A block's rows on one runtime (a scenario on a stack), found in the Analysis here, so report/ reads rows and never
// selects them by runtime and scenario itself.

/**
 * @typedef {import('./rows.js').RatioRow} RatioRow
 * @typedef {{ runtime: string, scenario: string, stack: string }} RuntimeBlock
 */

/**
 * A block's ratio of a kind: the judged one (`{ judged: true }`), the adapters' pair shown beside it (`{ kind:
 * 'adapters', judged: false }`), or a framework's cost or a target against the baseline by its numerator.
 * @param {{ ratios: RatioRow[] }} analysis @param {RuntimeBlock} block
 * @param {{ judged?: boolean, kind?: RatioRow['kind'], numerator?: string }} which
 * @returns {RatioRow | undefined}
 */
export function ratioIn({ ratios }, { runtime, scenario, stack }, { judged, kind, numerator }) {
  return ratios.find(
    (r) =>
      r.runtime === runtime &&
      r.scenario === scenario &&
      r.stack === stack &&
      (judged === undefined || r.judged === judged) &&
      (kind === undefined || r.kind === kind) &&
      (numerator === undefined || r.numerator === numerator),
  );
}

/**
 * A target's summary in a block.
 * @param {{ targetRows: import('./rows.js').TargetRow[] }} analysis @param {RuntimeBlock} block @param {string} target
 */
export function targetRowIn({ targetRows }, { runtime, scenario, stack }, target) {
  return targetRows.find(
    (r) => r.runtime === runtime && r.scenario === scenario && r.stack === stack && r.target === target,
  );
}
