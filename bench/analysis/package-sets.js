// @ts-check
// A --packages run as its tables read it (report/packages-tables.js): each set as installed, the cells the claim's
// timeline follows with their ratios, every two sets measured on the same two runtimes, what each cell measured, and
// Nest's own benchmark per cell; the record's sets, cells and benchmark rows are read here, so report/ reads rows and
// never the record.
import { ratioIn } from './block-rows.js';

/** @typedef {import('./rows.js').RatioRow} RatioRow */
/** @typedef {import('../model/package-sets-record.js').PackagesRecord} PackagesRecord */
/** @typedef {PackagesRecord['cells'][number]} CellRecord */
/** @typedef {import('../model/package-sets-record.js').NestBenchmarkRow} NestBenchmarkRow */

/**
 * The routes the timeline follows: the thinnest, the validated POST (the app's work without I/O), and 20 rows through
 * the era's TypeORM where the cell had the DB routes.
 */
export const TIMELINE_SCENARIOS = ['hello', 'orders', 'products'];
/** The targets a cell shows as a share of node:http on hello, in the split of what moved the ratio. */
export const SHARE_TARGETS = ['raw-express', 'raw-fastify', 'nest-express', 'nest-fastify'];
const BARE = 'bare';
const HELLO = 'hello';

/**
 * @typedef {object} PackageSetRow a set as installed
 * @property {string} label `nest@10.4.9`
 * @property {Record<string, string>} versions each package's version, its DB packages' included
 * @property {Record<string, string>} engines each package's `engines.node`, its DB packages' included
 */
/**
 * @typedef {object} TimelineRow a cell the claim's timeline follows
 * @property {string} key the cell's
 * @property {string} runtime `node@10.24.1`
 * @property {string} set the set's label
 * @property {{ express: string | undefined, fastify: string | undefined }} frameworks the set's versions of them
 * @property {Array<{ scenario: string, row: RatioRow | undefined }>} ratios the judged ratio on each of
 *   TIMELINE_SCENARIOS, bare stack
 * @property {RatioRow | undefined} hello the judged ratio on hello, bare stack
 * @property {RatioRow | undefined} bareHello raw Fastify ÷ raw Express on hello
 */
/**
 * @typedef {object} SplitMeasure one row of a split: the judged ratio on a scenario, or a target's share of node:http
 *   on hello
 * @property {string} scenario
 * @property {string | null} target null: the judged ratio
 * @property {Array<Array<number | undefined>>} medians by runtime, then set, in the square's order
 */
/**
 * @typedef {object} SplitSquare two sets measured on the same two runtimes
 * @property {string[]} sets
 * @property {string[]} runtimes
 * @property {SplitMeasure[]} measures
 */
/**
 * @typedef {object} CellRow a cell and what it measured
 * @property {string} key
 * @property {string[]} routes the scenarios with a judged ratio there, bare stack
 * @property {Record<string, string>} appVersions --nest-app: the packages the user's app ran on there
 * @property {{ typeorm: string, nestTypeorm: string | undefined } | null} database the TypeORM its DB routes ran on;
 *   null without them
 * @property {string | null | undefined} databaseMissing why the era app served no DB routes there; undefined in runs
 *   before it had them
 */
/**
 * @typedef {object} PackageSetFacts
 * @property {string} requested the --packages text
 * @property {PackageSetRow[]} sets
 * @property {TimelineRow[]} timeline the eras' cells when the run had them, else every cell, in run order; none for a
 *   user's app, whose sets are not the claim's timeline
 * @property {SplitSquare[]} squares every two sets measured on the same two runtimes
 * @property {CellRow[]} cells in run order
 * @property {Array<{ key: string, reason: string }>} refused --nest-app: the cells the user's app could not run on
 */

/**
 * @typedef {object} NestBenchmarkFacts Nest's own benchmark as our servers reproduced it
 * @property {Array<{ cell: string, rps: Record<string, number | null> }>} cells in run order: each server's Requests/sec
 *   by its name in Nest's all_output.txt; null where its run failed
 * @property {Array<{ cell: string, server: string, failure: string | null, socketErrors: string | null }>} troubles the
 *   runs that failed or had socket errors
 */

/**
 * @param {NestBenchmarkRow[] | undefined} rows
 * @returns {NestBenchmarkFacts} empty without --nest-benchmark
 */
export function nestBenchmarkFacts(rows = []) {
  const cells = [...new Set(rows.map((row) => row.cell))];
  return {
    cells: cells.map((cell) => {
      /** @type {Record<string, number | null>} */
      const rps = {};
      for (const row of rows) if (row.cell === cell && !(row.server in rps)) rps[row.server] = row.rps;
      return { cell, rps };
    }),
    troubles: rows
      .filter((row) => row.failure || row.socketErrors)
      .map(({ cell, server, failure, socketErrors }) => ({ cell, server, failure, socketErrors })),
  };
}

/**
 * @param {PackagesRecord | undefined} record
 * @param {{ ratios: RatioRow[], scenarios: string[], ownApp: boolean }} analysis
 * @returns {PackageSetFacts | null} null without --packages
 */
export function packageSetFacts(record, { ratios, scenarios, ownApp }) {
  if (!record) return null;
  /** @param {string} cell @param {string} scenario */
  const judged = (cell, scenario) => ratioIn({ ratios }, { runtime: cell, scenario, stack: BARE }, { judged: true });
  // each cell names its set: resolved once, by label
  const setOf = new Map(record.sets.map((set) => [set.label, set]));
  return {
    requested: record.requested,
    sets: record.sets.map((set) => ({
      label: set.label,
      versions: Object.fromEntries(
        [...new Set([...Object.keys(set.versions), ...Object.keys(set.database?.versions ?? {})])].map((name) => [
          name,
          set.versions[name] ?? set.database?.versions[name],
        ]),
      ),
      engines: { ...set.engines, ...set.database?.engines },
    })),
    timeline: (ownApp ? [] : eraCells(record.cells)).map((cell) => {
      const versions = setOf.get(cell.set)?.versions ?? {};
      return {
        key: cell.key,
        runtime: cell.runtime,
        set: cell.set,
        frameworks: { express: versions.express, fastify: versions.fastify },
        ratios: TIMELINE_SCENARIOS.map((scenario) => ({ scenario, row: judged(cell.key, scenario) })),
        hello: judged(cell.key, HELLO),
        bareHello: ratioIn(
          { ratios },
          { runtime: cell.key, scenario: HELLO, stack: BARE },
          { kind: 'adapters', judged: false },
        ),
      };
    }),
    squares: factorialSquares(record.cells).map(({ sets, runtimes, at }) => {
      /** @param {(cell: string) => number | undefined} median */
      const medians = (median) => runtimes.map((runtime) => sets.map((set) => median(at(set, runtime))));
      return {
        sets,
        runtimes,
        measures: [
          ...scenarios.map((scenario) => ({
            scenario,
            target: null,
            medians: medians((cell) => judged(cell, scenario)?.summary.median),
          })),
          ...SHARE_TARGETS.map((target) => ({
            scenario: HELLO,
            target,
            medians: medians(
              (cell) =>
                ratios.find(
                  (r) => r.kind === 'baseline' && r.runtime === cell && r.numerator === target && r.scenario === HELLO,
                )?.summary.median,
            ),
          })),
        ],
      };
    }),
    cells: record.cells.map((cell) => {
      const database = setOf.get(cell.set)?.database;
      return {
        key: cell.key,
        routes: scenarios.filter((scenario) => judged(cell.key, scenario)),
        appVersions: cell.appVersions ?? {},
        database:
          cell.databaseMissing === null && database?.versions.typeorm
            ? { typeorm: database.versions.typeorm, nestTypeorm: database.versions['@nestjs/typeorm'] }
            : null,
        databaseMissing: cell.databaseMissing,
      };
    }),
    refused: record.refused ?? [],
  };
}

/**
 * The cells the timeline follows: those of the eras alias when the run had it, else every cell, in run order.
 * @param {CellRecord[]} cells
 */
function eraCells(cells) {
  const eras = cells.filter((cell) => cell.alias === 'eras');
  return eras.length ? eras : cells;
}

/**
 * Every two sets measured on the same two runtimes: for each pair of sets, the first pair of runtimes both ran on.
 * @param {CellRecord[]} cells
 */
function factorialSquares(cells) {
  const sets = [...new Set(cells.map((cell) => cell.set))];
  const runtimes = [...new Set(cells.map((cell) => cell.runtime))];
  const find = (/** @type {string} */ set, /** @type {string} */ runtime) =>
    cells.find((cell) => cell.set === set && cell.runtime === runtime)?.key;
  const squares = [];
  for (const [i, first] of sets.entries())
    for (const second of sets.slice(i + 1)) {
      const both = runtimes.filter((runtime) => find(first, runtime) && find(second, runtime));
      if (both.length < 2) continue;
      squares.push({
        sets: [first, second],
        runtimes: both.slice(0, 2),
        at: (/** @type {string} */ set, /** @type {string} */ runtime) => /** @type {string} */ (find(set, runtime)),
      });
    }
  return squares;
}
