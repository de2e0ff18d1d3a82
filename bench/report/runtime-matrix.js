// @ts-check
// The runtime matrix: when a run measured several runtimes (--runtime), the claim and Nest's cost side by side per runtime,
// runtimes in release order (Node by version, then Bun, then Deno), so a change from one Node line to the next reads left to right.
// With one runtime the tables have no rows and render nothing: the per-runtime tables already say it all.
import semver from 'semver';
import { DASH, formatInterval, formatPercent } from './format.js';
import { formatBandedRatio, ratioNotes } from './ratio-notes.js';
import { strong } from './rich-table.js';
import { estimateWords, scenarioHeader, scenarioLabel } from './tables.js';
import { ratioIn } from '../analysis/block-rows.js';

/** @typedef {import('./rich-table.js').Table} Table */
/** @typedef {import('./rich-table.js').Text} Text */
/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */
/** @typedef {import('../analysis/analyze.js').RatioRow} RatioRow */

/** Node, then Bun, then Deno, each by version. */
const RUNTIME_NAMES = ['node', 'bun', 'deno'];

/**
 * Runtime keys (`node@24.21.0`) in release order.
 * @param {string[]} runtimes
 */
export function inReleaseOrder(runtimes) {
  const parts = (/** @type {string} */ key) => {
    const [name, version] = key.split('@');
    return { rank: RUNTIME_NAMES.indexOf(name), version: semver.coerce(version)?.version ?? '0.0.0' };
  };
  return [...runtimes].sort((a, b) => {
    const [first, second] = [parts(a), parts(b)];
    return first.rank - second.rank || semver.compare(first.version, second.version);
  });
}

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
        ...inReleaseOrder(analysis.runtimes).map((runtime) => cell(runtime, scenario, stack)),
      ]),
    )
    .filter((row) => row.slice(1).some((value) => value !== null))
    .map((row) => row.map((value) => value ?? DASH));
}

/** @param {Analysis} analysis @returns {Pick<Table, 'headers' | 'align'>} */
function matrixColumns(analysis) {
  return {
    headers: [
      scenarioHeader(analysis.stacks),
      ...inReleaseOrder(analysis.runtimes).map((runtime) => analysis.runtimeLabels[runtime]),
    ],
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
    ratioIn(analysis, { runtime, scenario, stack }, { judged: true });
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
      row.verdict === 'too slow'
        ? ''
        : `${formatBandedRatio(row.summary.median)} (${formatInterval(row.summary.ci, formatBandedRatio)}) `,
      strong(row.verdict ?? DASH),
      why.length ? ` [${notes.length}]` : '',
    ];
  });
  return {
    title: analysis.compared.builtIn
      ? 'Verdict per runtime: Nest-Fastify ÷ Nest-Express'
      : `Verdict per runtime: ${analysis.compared.numerator} ÷ ${analysis.compared.denominator}`,
    intro:
      `The same compiled app and the same rounds on each runtime; ${estimateWords(analysis)} (95 % CI) and verdict, as in ` +
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
    ratioIn(analysis, { runtime, scenario, stack }, { kind: 'overhead', numerator });
  const rows = matrixRows(analysis, (runtime, scenario, stack) => {
    const express = share(runtime, scenario, stack, 'nest-express');
    const fastify = share(runtime, scenario, stack, 'nest-fastify');
    if (!express && !fastify) return null;
    return `Express ${express ? formatPercent(express.summary.median) : DASH} · Fastify ${fastify ? formatPercent(fastify.summary.median) : DASH}`;
  });
  return {
    title: 'What Nest costs per runtime',
    intro: `Nest-Express ÷ raw Express and Nest-Fastify ÷ raw Fastify (${estimateWords(analysis)}; intervals in "What Nest costs on each adapter"). 100 % would be free.`,
    ...matrixColumns(analysis),
    rows,
  };
}

/**
 * Each target's req/s as a share of raw node:http's on the same route, per runtime: where a runtime speeds up
 * node:http's own path (what Express and Nest-Express ride on), the frameworks' shares move.
 * @param {Analysis} analysis
 * @returns {Table}
 */
export function baselineMatrixTable(analysis) {
  const runtimes = inReleaseOrder(analysis.runtimes);
  const rows =
    analysis.runtimes.length < 2 || analysis.baseline === null
      ? []
      : baselineSeries(analysis).map(({ target, scenario, stack }) => [
          `${target} · ${scenarioLabel({ scenario, stack }, analysis.stacks)}`,
          ...runtimes.map((runtime) => {
            const row = baselineRow(analysis, runtime, target, scenario, stack);
            return row
              ? `${formatPercent(row.summary.median)} (${formatInterval(row.summary.ci, formatPercent)})`
              : DASH;
          }),
        ]);
  return {
    title: `Each framework's share of ${analysis.baseline ?? 'the baseline'} per runtime`,
    intro:
      `req/s ÷ ${analysis.baseline}'s req/s on the same route in the same round (median, 95 % CI), runtimes in release ` +
      'order. 100 % would be as fast as the bare server.',
    headers: ['target · scenario', ...runtimes.map((runtime) => analysis.runtimeLabels[runtime])],
    align: ['left', ...runtimes.map(() => /** @type {const} */ ('right'))],
    rows,
  };
}

/**
 * The target × scenario × stack combinations measured against the baseline on some runtime, in the run's order.
 * @param {Analysis} analysis
 */
export function baselineSeries(analysis) {
  const keys = analysis.ratios
    .filter((r) => r.kind === 'baseline')
    .map((r) => JSON.stringify([r.numerator, r.scenario, r.stack]));
  return [...new Set(keys)].map((key) => {
    const [target, scenario, stack] = JSON.parse(key);
    return { target, scenario, stack };
  });
}

/**
 * @param {Analysis} analysis @param {string} runtime @param {string} target @param {string} scenario @param {string} stack
 * @returns {RatioRow | undefined}
 */
export function baselineRow(analysis, runtime, target, scenario, stack) {
  return ratioIn(analysis, { runtime, scenario, stack }, { kind: 'baseline', numerator: target });
}
