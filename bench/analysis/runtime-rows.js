// @ts-check
// Each runtime's rows grouped as report/ reads them (a runtime's paragraph, its charts and tables, one block or one
// scenario at a time), so that report/ never selects rows by runtime and scenario itself (issue 53 §3).

/**
 * @typedef {import('./rows.js').RatioRow} RatioRow
 * @typedef {import('./rows.js').TargetRow} TargetRow
 * @typedef {import('./startup.js').StartupRow} StartupRow
 *
 * @typedef {object} BlockRows one scenario on one stack of a runtime
 * @property {string} scenario
 * @property {string} stack
 * @property {TargetRow[]} answered each target with a timed run that answered
 * @property {TargetRow[]} rounds each target whose server was read round by round
 *
 * @typedef {object} ScenarioRatios one scenario of a runtime
 * @property {string} scenario
 * @property {RatioRow[]} ratios its ratios of every kind, stack by stack in plan order
 *
 * @typedef {object} RuntimeRows one runtime's rows
 * @property {string} runtime
 * @property {RatioRow[]} judged the ratios the verdict divides, block by block
 * @property {TargetRow[]} answered each target with a timed run that answered, block by block
 * @property {BlockRows[]} blocks every scenario on every stack, in plan order, the empty ones too
 * @property {ScenarioRatios[]} scenarios every scenario, in plan order
 *
 * @typedef {{ runtime: string, scenario: string, stack: string, targetRows: TargetRow[], ratios: RatioRow[] }} Block
 *   analyze.js's rows of one runtime, scenario and stack
 */

/**
 * @param {string[]} runtimes @param {string[]} scenarios @param {Block[]} blocks every runtime's, scenario's and
 *   stack's, in that order
 * @returns {RuntimeRows[]} in the runtimes' order
 */
export function runtimeRows(runtimes, scenarios, blocks) {
  return runtimes.map((runtime) => {
    const own = blocks.filter((block) => block.runtime === runtime);
    const answered = (/** @type {TargetRow[]} */ rows) => rows.filter((r) => r.okRuns > 0);
    return {
      runtime,
      judged: own.flatMap((block) => block.ratios.filter((r) => r.judged)),
      answered: answered(own.flatMap((block) => block.targetRows)),
      blocks: own.map(({ scenario, stack, targetRows }) => ({
        scenario,
        stack,
        answered: answered(targetRows),
        rounds: targetRows.filter((r) => r.state),
      })),
      scenarios: scenarios.map((scenario) => ({
        scenario,
        ratios: own.filter((block) => block.scenario === scenario).flatMap((block) => block.ratios),
      })),
    };
  });
}

/**
 * The routes (a scenario on a stack) some runtime has a judged ratio on, in plan order.
 * @param {string[]} scenarios @param {string[]} stacks @param {RatioRow[]} ratios
 * @returns {Array<{ scenario: string, stack: string }>}
 */
export function judgedRoutes(scenarios, stacks, ratios) {
  return scenarios.flatMap((scenario) =>
    stacks
      .filter((stack) => ratios.some((r) => r.judged && r.scenario === scenario && r.stack === stack))
      .map((stack) => ({ scenario, stack })),
  );
}

/**
 * The cold starts of each runtime that has them, in the order they were recorded.
 * @param {StartupRow[]} startup
 * @returns {Array<{ runtime: string, rows: StartupRow[] }>}
 */
export function startupByRuntime(startup) {
  return [...new Set(startup.map((r) => r.runtime))].map((runtime) => ({
    runtime,
    rows: startup.filter((r) => r.runtime === runtime),
  }));
}

/**
 * The first route (a scenario on a stack) with a target measured against the baseline, and each target measured
 * against it there, in the ratios' order: the share lines of the runtime timeline.
 * @param {RatioRow[]} ratios
 * @returns {{ scenario: string, stack: string, targets: string[] } | null}
 */
export function firstBaselineRoute(ratios) {
  const first = ratios.find((r) => r.kind === 'baseline');
  if (!first) return null;
  const { scenario, stack } = first;
  const there = ratios.filter((r) => r.kind === 'baseline' && r.scenario === scenario && r.stack === stack);
  return { scenario, stack, targets: [...new Set(there.map((r) => r.numerator))] };
}
