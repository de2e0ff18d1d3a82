// @ts-check
// A --packages run's own tables: the sets as installed, the claim's timeline over the eras (table and chart), the
// split of what moved it (packages or runtime), and Nest's own benchmark beside ours.
import { HOLDS_MAX, HOLDS_MIN } from '../analysis/verdict.js';
import { TIMELINE_SCENARIOS } from '../analysis/package-sets.js';
import { lineStart } from '../model/release-status.js';
import { categoryChart } from './charts.js';
import { DASH, describeVersions, formatInterval, formatNumber, formatPercent, formatRatio } from './format.js';
import { formatBandedRatio } from './ratio-notes.js';
import { strong } from './rich-table.js';

/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */
/** @typedef {import('../analysis/analyze.js').RatioRow} RatioRow */
/** @typedef {import('./rich-table.js').Table} Table */
/** @typedef {import('../analysis/package-sets.js').SplitSquare} SplitSquare */

/** Nest's benchmarks/all_output.txt (wrk -t8 -c1024 -d10), Requests/sec per server. */
export const NEST_PUBLISHED = Object.freeze({
  express: 10444.24,
  fastify: 23795.79,
  nest: 9093.64,
  'nest-fastify': 17233.87,
});

/** @param {RatioRow | undefined} row */
const ratioCell = (row) =>
  row ? `${formatBandedRatio(row.summary.median)} (${formatInterval(row.summary.ci, (v) => formatRatio(v))})` : DASH;

/** `Node 10 (2018-04-24)`: a runtime's line with the day it was first released. @param {string} runtime `node@10.24.1` */
function lineWithDate(runtime) {
  const major = Number(runtime.split('@')[1].split('.')[0]);
  return `Node ${major} (${lineStart(major) ?? 'unscheduled'})`;
}

/**
 * @param {Analysis} analysis
 * @returns {Table | null}
 */
export function packageSetsTable(analysis) {
  const facts = analysis.packageSets;
  if (!facts) return null;
  const names = [
    '@nestjs/core',
    '@nestjs/platform-express',
    'express',
    '@nestjs/platform-fastify',
    'fastify',
    'class-validator',
    'rxjs',
    'typeorm',
  ];
  return {
    title: 'Package sets',
    intro: `Each set as npm installed it into .packages/ (--packages ${facts.requested}); the newest release of each line, with what it depends on; typeorm: the one its DB routes ran on, when it had them.`,
    headers: ['set', ...names, 'engines.node'],
    align: ['left', ...names.map(() => /** @type {const} */ ('right')), 'left'],
    rows: facts.sets.map((set) => [
      set.label,
      ...names.map((name) => set.versions[name] ?? DASH),
      Object.entries(set.engines)
        .map(([name, range]) => `${name} ${range}`)
        .join('; ') || 'none declared',
    ]),
  };
}

/**
 * When the claim held: each era's Nest on the Node line of its day, oldest first.
 * @param {Analysis} analysis
 * @returns {Table | null}
 */
export function timelineTable(analysis) {
  const cells = analysis.packageSets?.timeline ?? [];
  if (cells.length === 0) return null;
  return {
    title: 'When the claim held',
    intro:
      `Nest-Fastify req/s ÷ Nest-Express req/s per era, the same app (src/era/) on each set, ${analysis.starts > 1 ? 'starts' : 'rounds'} ` +
      `as in the verdict table; holds: ${HOLDS_MIN}–${HOLDS_MAX}×. Bare frameworks: raw Fastify ÷ raw Express on hello at the set's versions.`,
    headers: [
      'Node line (released)',
      'runtime · set',
      'Express · Fastify',
      ...TIMELINE_SCENARIOS,
      'verdict on hello',
      'bare frameworks, hello',
    ],
    align: ['left', 'left', 'left', ...TIMELINE_SCENARIOS.map(() => /** @type {const} */ ('right')), 'left', 'right'],
    rows: cells.map((cell) => [
      lineWithDate(cell.runtime),
      cell.key,
      `${cell.frameworks.express ?? DASH} · ${cell.frameworks.fastify ?? DASH}`,
      ...cell.ratios.map(({ row }) => ratioCell(row)),
      cell.hello?.verdict ? strong(cell.hello.verdict) : DASH,
      ratioCell(cell.bareHello),
    ]),
  };
}

/**
 * The timeline as a chart: one category per era, the claim's band shaded.
 * @param {Analysis} analysis
 * @returns {string} SVG, or '' without cells
 */
export function timelineChart(analysis) {
  const cells = analysis.packageSets?.timeline ?? [];
  if (cells.length === 0) return '';
  const point = (/** @type {RatioRow | undefined} */ row) =>
    row && Number.isFinite(row.summary.median)
      ? { y: row.summary.median, low: row.summary.ci?.low, high: row.summary.ci?.high }
      : null;
  const lines = [
    ...TIMELINE_SCENARIOS.map((scenario, i) => ({
      name: `Nest-Fastify ÷ Nest-Express, ${scenario}`,
      color: ['#1f77b4', '#d62728', '#2ca02c'][i],
      points: cells.map((cell) => point(cell.ratios[i].row)),
    })),
    {
      name: 'raw Fastify ÷ raw Express, hello',
      color: '#7f7f7f',
      dashed: true,
      points: cells.map((cell) => point(cell.bareHello)),
    },
  ];
  return categoryChart({
    title: 'Fastify ÷ Express per era (req/s)',
    categories: cells.map((cell) => [shortName(cell.runtime), shortName(cell.set)]),
    lines,
    yLabel: 'ratio',
    format: (value) => formatBandedRatio(value).replace(/\.?0+×$/, '×'),
    bands: [{ from: HOLDS_MIN, to: HOLDS_MAX, label: 'claim holds', color: '#e3f1e3' }],
    refLines: [1],
  });
}

/** `Node 10`, `Nest 6.11`: a runtime or set as a chart's category names it. @param {string} key `node@10.24.1` */
function shortName(key) {
  const [name, version] = key.split('@');
  const shown = name === 'node' ? version.split('.')[0] : version.split('.').slice(0, 2).join('.');
  return `${name[0].toUpperCase()}${name.slice(1)} ${shown}`;
}

/**
 * Packages against runtime: one table for every two sets measured on the same two runtimes, each effect as the ratio
 * of the cells' medians (cells are separate blocks of rounds, so no interval).
 * @param {Analysis} analysis
 * @returns {Table[]}
 */
export function splitTables(analysis) {
  return (analysis.packageSets?.squares ?? []).map(splitTable);
}

/**
 * @param {SplitSquare} square
 * @returns {Table}
 */
function splitTable({ sets, runtimes, measures }) {
  const effect = (/** @type {number | undefined} */ to, /** @type {number | undefined} */ from) =>
    to !== undefined && from !== undefined ? formatChange(to / from) : DASH;
  return {
    title: `What moved it: packages or runtime (${sets.join(' and ')})`,
    intro:
      `${sets.join(' and ')} each on ${runtimes.join(' and ')}. Packages: ${sets[1]} over ${sets[0]} on one runtime; ` +
      `runtime: ${runtimes[1]} over ${runtimes[0]} with one set. Medians of separate cells, so the changes carry the cells' own noise.`,
    headers: [
      'measure',
      ...runtimes.flatMap((runtime) => sets.map((set) => `${set} on ${runtime}`)),
      ...runtimes.map((runtime) => `packages on ${runtime}`),
      ...sets.map((set) => `runtime with ${set}`),
    ],
    align: ['left', ...Array(runtimes.length * sets.length + runtimes.length + sets.length).fill('right')],
    rows: measures.map(({ scenario, target, medians }) => {
      const format = (/** @type {number} */ v) => (target === null ? formatRatio(v) : formatPercent(v));
      return [
        target === null ? `Nest-Fastify ÷ Nest-Express, ${scenario}` : `${target} ÷ raw-node, ${scenario}`,
        ...medians.flatMap((bySet) => bySet.map((v) => (v === undefined ? DASH : format(v)))),
        ...medians.map((bySet) => effect(bySet[1], bySet[0])),
        ...sets.map((_, set) => effect(medians[1][set], medians[0][set])),
      ];
    }),
  };
}

/** `+12 %` / `−8 %` / `×2.31`. @param {number} factor */
function formatChange(factor) {
  if (factor >= 2 || factor <= 0.5) return `×${formatNumber(factor, 2)}`;
  const percent = Math.round((factor - 1) * 100);
  return `${percent >= 0 ? '+' : '−'}${Math.abs(percent)} %`;
}

/**
 * Which routes each cell served, and its TypeORM or why it had no DB routes.
 * @param {Analysis} analysis
 * @returns {Table | null}
 */
export function cellRoutesTable(analysis) {
  const cells = analysis.packageSets?.cells ?? [];
  if (cells.length === 0) return null;
  const routes = (/** @type {{ routes: string[] }} */ cell) => cell.routes.join(', ') || DASH;
  if (analysis.ownApp)
    return {
      title: 'Your app per cell',
      intro:
        "Your compiled app on each set: its imports of the set's packages (@nestjs/*, Express, Fastify, rxjs, " +
        "class-validator, class-transformer, reflect-metadata) loaded the set's copies.",
      headers: ['runtime · set', 'routes measured', 'packages it ran on'],
      align: ['left', 'left', 'left'],
      rows: [
        ...cells.map((cell) => [cell.key, routes(cell), describeVersions(cell.appVersions)]),
        ...(analysis.packageSets?.refused ?? []).map(({ key, reason }) => [key, DASH, `not measured: ${reason}`]),
      ],
    };
  return {
    title: 'Routes per cell',
    intro:
      "The era app's routes each cell measured on both adapters. The DB routes (src/era/era-database.module.ts, the " +
      "embedded sql.js database) run where the set's TypeORM has the API the app's services use and loads on the runtime.",
    headers: ['runtime · set', 'routes measured', 'TypeORM', 'no DB routes because'],
    align: ['left', 'left', 'left', 'left'],
    rows: cells.map((cell) => [
      cell.key,
      routes(cell),
      cell.database ? `typeorm ${cell.database.typeorm}, @nestjs/typeorm ${cell.database.nestTypeorm}` : DASH,
      cell.databaseMissing ?? (cell.databaseMissing === null ? DASH : 'run before the era app had DB routes'),
    ]),
  };
}

/**
 * Nest's own benchmark, reproduced per cell beside the numbers it published.
 * @param {Analysis} analysis
 * @returns {Table | null}
 */
export function nestBenchmarkTable(analysis) {
  const { cells, troubles } = analysis.nestBenchmark;
  if (cells.length === 0) return null;
  const servers = /** @type {(keyof typeof NEST_PUBLISHED)[]} */ (Object.keys(NEST_PUBLISHED));
  /** @param {Record<string, number | null | undefined>} rps */
  const ratios = (rps) => [
    rps.fastify && rps.express ? formatRatio(rps.fastify / rps.express) : DASH,
    rps['nest-fastify'] && rps.nest ? formatRatio(rps['nest-fastify'] / rps.nest) : DASH,
  ];
  return {
    title: "Nest's own benchmark, reproduced",
    intro:
      'nestjs/nest benchmarks/run.sh: each server once, GET /, wrk with 8 threads, 1,024 connections, 10 s; Requests/sec as wrk prints it. ' +
      'Its servers are stood in for by ours (the era app and the bare frameworks, the same route); the first row is its benchmarks/all_output.txt.',
    headers: ['where', ...servers, 'fastify ÷ express', 'nest-fastify ÷ nest'],
    align: ['left', ...servers.map(() => /** @type {const} */ ('right')), 'right', 'right'],
    rows: [
      [
        'nestjs/nest benchmarks/all_output.txt',
        ...servers.map((s) => formatNumber(NEST_PUBLISHED[s])),
        ...ratios(NEST_PUBLISHED),
      ],
      ...cells.map(({ cell, rps: recorded }) => {
        const rps = Object.fromEntries(servers.map((server) => [server, recorded[server] ?? null]));
        return [cell, ...servers.map((server) => (rps[server] ? formatNumber(rps[server]) : DASH)), ...ratios(rps)];
      }),
    ],
    notes: troubles.map(
      (row) => `${row.cell}, ${row.server}: ${row.failure ?? `wrk's socket errors: ${row.socketErrors}`}`,
    ),
  };
}

/**
 * Every table of a --packages run, in reading order; none for another run.
 * @param {Analysis} analysis
 * @returns {Table[]}
 */
export function packagesTables(analysis) {
  return [
    timelineTable(analysis),
    ...splitTables(analysis),
    nestBenchmarkTable(analysis),
    cellRoutesTable(analysis),
    packageSetsTable(analysis),
  ].filter((table) => table !== null);
}
