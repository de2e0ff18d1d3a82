// @ts-check
// The runtime matrix: when a run measured several runtimes (--runtime), the claim and Nest's cost side by side per runtime.
// With one runtime the tables have no rows and render nothing: the per-runtime tables already say it all.
import { DASH, formatInterval, formatPercent } from './format.js';
import { formatBandedRatio, ratioNotes } from './ratio-notes.js';
import { strong } from './rich-table.js';
import { scenarioHeader, scenarioLabel } from './tables.js';

/** @typedef {import('./rich-table.js').Table} Table */
/** @typedef {import('./rich-table.js').Text} Text */
/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */
/** @typedef {import('../analysis/analyze.js').RatioRow} RatioRow */

/**
 * Scenarios (with each stack, when several) as rows, runtimes as columns; a row no runtime has a cell for is left out.
 * @param {Analysis} analysis
 * @param {(runtime: string, scenario: string, stack: string) => Text | null} cell null when the runtime has nothing
 *   for the scenario on that stack
 */
function matrixRows(analysis, cell) {
  if (analysis.runtimes.length < 2) return [];
  return analysis.scenarios
    .flatMap((scenario) =>
      analysis.stacks.map((stack) => [
        scenarioLabel({ scenario, stack }, analysis.stacks),
        ...analysis.runtimes.map((runtime) => cell(runtime, scenario, stack)),
      ]),
    )
    .filter((row) => row.slice(1).some((value) => value !== null))
    .map((row) => row.map((value) => value ?? DASH));
}

/** @param {Analysis} analysis @returns {Pick<Table, 'headers' | 'align'>} */
function matrixColumns(analysis) {
  return {
    headers: [scenarioHeader(analysis.stacks), ...analysis.runtimes.map((runtime) => analysis.runtimeLabels[runtime])],
    align: ['left', ...analysis.runtimes.map(() => /** @type {const} */ ('right'))],
  };
}

/**
 * The docs' claim per scenario and runtime: Nest-Fastify ÷ Nest-Express with its interval and verdict.
 * @param {Analysis} analysis
 * @returns {Table}
 */
export function runtimeMatrixTable(analysis) {
  const judged = (/** @type {string} */ runtime, /** @type {string} */ scenario, /** @type {string} */ stack) =>
    analysis.ratios.find((r) => r.judged && r.runtime === runtime && r.scenario === scenario && r.stack === stack);
  /** @type {Text[]} */
  const notes = [];
  const rows = matrixRows(analysis, (runtime, scenario, stack) => {
    const row = judged(runtime, scenario, stack);
    if (!row) return null;
    const why = ratioNotes(row, { first: 'Fastify', second: 'Express' });
    if (why.length)
      notes.push(
        `[${notes.length + 1}] ${scenarioLabel(row, analysis.stacks)} on ${analysis.runtimeLabels[runtime]}: ${why.join('; ')}.`,
      );
    return [
      `${formatBandedRatio(row.summary.median)} (${formatInterval(row.summary.ci, formatBandedRatio)}) `,
      strong(row.verdict ?? DASH),
      why.length ? ` [${notes.length}]` : '',
    ];
  });
  return {
    title: analysis.compared.builtIn
      ? 'Verdict per runtime: Nest-Fastify ÷ Nest-Express'
      : `Verdict per runtime: ${analysis.compared.numerator} ÷ ${analysis.compared.denominator}`,
    intro:
      'The same compiled app and the same rounds on each runtime; median per-round ratio (95 % CI) and verdict, as in ' +
      'the verdict table. A number in brackets points to the note below that says what else the rounds went through.',
    ...matrixColumns(analysis),
    rows,
    notes,
  };
}

/**
 * Nest's cost per adapter and runtime: Nest's req/s as a share of the bare framework's.
 * @param {Analysis} analysis
 * @returns {Table}
 */
export function nestOverheadMatrixTable(analysis) {
  /** @param {string} runtime @param {string} scenario @param {string} stack @param {string} numerator */
  const share = (runtime, scenario, stack, numerator) =>
    analysis.ratios.find(
      (r) =>
        r.kind === 'overhead' &&
        r.runtime === runtime &&
        r.scenario === scenario &&
        r.stack === stack &&
        r.numerator === numerator,
    );
  const rows = matrixRows(analysis, (runtime, scenario, stack) => {
    const express = share(runtime, scenario, stack, 'nest-express');
    const fastify = share(runtime, scenario, stack, 'nest-fastify');
    if (!express && !fastify) return null;
    return `Express ${express ? formatPercent(express.summary.median) : DASH} · Fastify ${fastify ? formatPercent(fastify.summary.median) : DASH}`;
  });
  return {
    title: 'What Nest costs per runtime',
    intro:
      'Nest-Express ÷ raw Express and Nest-Fastify ÷ raw Fastify (median per-round ratio; intervals in "What Nest costs on each adapter"). 100 % would be free.',
    ...matrixColumns(analysis),
    rows,
  };
}
