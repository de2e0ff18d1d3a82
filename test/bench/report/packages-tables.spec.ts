import { analyze } from '../../../bench/analysis/analyze.js';
import { plainText } from '../../../bench/report/rich-table.js';
import {
  cellRoutesTable,
  nestBenchmarkTable,
  splitTables,
  timelineTable,
} from '../../../bench/report/packages-tables.js';
import type { Results } from '../../../bench/model/results.js';
import type { PackagesRecord } from '../../../bench/packages/packages-record.js';
import { results } from '../support/synthetic-results.js';

/** Four cells, Nest 10 and 12 on Node 22 and 24, each with its own Fastify ÷ Express ratio. */
const CELLS = [
  { runtime: 'node@22.23.3', set: 'nest@10.4.22', ratio: 5, alias: 'split' },
  { runtime: 'node@22.23.3', set: 'nest@12.5.1', ratio: 4, alias: 'split' },
  { runtime: 'node@24.21.0', set: 'nest@10.4.22', ratio: 2, alias: 'split' },
  { runtime: 'node@24.21.0', set: 'nest@12.5.1', ratio: 2.4, alias: 'eras' },
];

function packagesRun(): Omit<Results, 'packages'> & { packages: PackagesRecord } {
  const cells = CELLS.map((cell) => ({ ...cell, key: `${cell.runtime} · ${cell.set}` }));
  const runs = cells.flatMap((cell) => results(() => cell.ratio, { runtime: cell.key }).runs);
  const run = results(() => 1);
  return {
    ...run,
    runs,
    plan: { ...run.plan, runtimes: cells.map((cell) => cell.key) },
    packages: {
      requested: 'split',
      sets: [
        {
          label: 'nest@10.4.22',
          spec: 'nest@10',
          kind: 'nest',
          versions: { express: '4.22.1', fastify: '4.28.1' },
          engines: {},
        },
        {
          label: 'nest@12.5.1',
          spec: 'nest@12',
          kind: 'nest',
          versions: { express: '5.3.0', fastify: '5.12.8' },
          engines: {},
        },
      ],
      cells: cells.map(({ key, runtime, set, alias }) => ({ key, runtime, set, telemetryMissing: null, alias })),
    },
  };
}

describe('the package-set tables', () => {
  it('splits the ratio into what the packages moved on each runtime and what the runtime moved with each set', () => {
    const run = packagesRun();
    const [table] = splitTables(analyze(run));
    expect(table.title).toBe('What moved it: packages or runtime (nest@10.4.22 and nest@12.5.1)');
    const hello = table.rows[0].map((cell) => plainText(cell));
    expect(hello[0]).toBe('Nest-Fastify ÷ Nest-Express, hello');
    // packages on Node 22: 4 / 5; on Node 24: 2.4 / 2; runtime with Nest 10: 2 / 5; with Nest 12: 2.4 / 4
    expect(hello.slice(5)).toEqual(['−20 %', '+20 %', '×0.40', '−40 %']);
  });

  it('follows the eras in the timeline when the run had them, naming the frameworks of each set', () => {
    const run = packagesRun();
    const table = timelineTable(analyze(run));
    expect(table?.rows).toHaveLength(1);
    const [row] = table!.rows.map((cells) => cells.map((cell) => plainText(cell)));
    expect(row.slice(0, 3)).toEqual(['Node 24 (2025-05-06)', 'node@24.21.0 · nest@12.5.1', '5.3.0 · 5.12.8']);
    expect(row[3]).toMatch(/^2\.40× /);
  });

  it('says which routes each cell measured, its TypeORM, and why a cell had no DB routes', () => {
    const run = packagesRun();
    run.packages.sets[1].database = {
      versions: { typeorm: '1.1.1', '@nestjs/typeorm': '12.0.2' },
      engines: {},
      refused: null,
    };
    run.packages.cells[0].databaseMissing = '@nestjs/typeorm 10.0.2 asks for typeorm ^0.2.7';
    run.packages.cells[3].databaseMissing = null;
    const rows = cellRoutesTable(analyze(run))!.rows.map((cells) => cells.map((cell) => plainText(cell)));
    expect(rows[0]).toEqual([
      'node@22.23.3 · nest@10.4.22',
      'hello',
      '—',
      '@nestjs/typeorm 10.0.2 asks for typeorm ^0.2.7',
    ]);
    expect(rows[1][3]).toBe('run before the era app had DB routes');
    expect(rows[3]).toEqual(['node@24.21.0 · nest@12.5.1', 'hello', 'typeorm 1.1.1, @nestjs/typeorm 12.0.2', '—']);
  });

  it("sets Nest's published numbers above each cell's, with both ratios", () => {
    const analysis = analyze({
      ...results(() => 1),
      nestBenchmark: ['express', 'fastify', 'nest', 'nest-fastify'].map((server, i) => ({
        cell: 'node@10.24.1 · nest@6.11.11',
        server,
        target: server,
        rps: 1000 * (i + 1),
        socketErrors: null,
        failure: null,
      })),
    });
    const rows = nestBenchmarkTable(analysis)!.rows.map((cells) => cells.map((cell) => plainText(cell)));
    expect(rows[0]).toEqual([
      'nestjs/nest benchmarks/all_output.txt',
      '10,444',
      '23,796',
      '9,094',
      '17,234',
      '2.28×',
      '1.90×',
    ]);
    expect(rows[1]).toEqual(['node@10.24.1 · nest@6.11.11', '1,000', '2,000', '3,000', '4,000', '2.00×', '1.33×']);
  });
});
