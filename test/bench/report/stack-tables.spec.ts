import { analyze } from '../../../bench/analysis/analyze.js';
import { plainText } from '../../../bench/report/rich-table.js';
import { ablationTable, stackComparisonTable } from '../../../bench/report/stack-tables.js';
import { targetTable, verdictTable } from '../../../bench/report/tables.js';
import { results } from '../support/synthetic-results.js';

/**
 * One run on two stacks: bare with Fastify at 2× Express, production with Fastify at 1.2× and Express at half its bare
 * req/s; and, for the ablation, the production stack without helmet using 80 % of the whole stack's CPU per request.
 */
function twoStacks() {
  const bare = results(() => 2);
  const production = results(() => 1.2, { expressSpeed: 0.5 });
  const withoutHelmet = results(() => 1.2, { expressSpeed: 0.5 });
  for (const run of production.runs) run.stack = 'production';
  for (const run of withoutHelmet.runs) {
    run.stack = 'production-without-helmet';
    run.server.cpuUsPerRequest = 40;
  }
  const stacks = ['bare', 'production', 'production-without-helmet'];
  return {
    ...bare,
    plan: {
      ...bare.plan,
      pairs: stacks.flatMap((stack) =>
        ['nest-express', 'nest-fastify'].map((target) => ({ target, scenario: 'hello', stack })),
      ),
    },
    runs: [...bare.runs, ...production.runs, ...withoutHelmet.runs],
  };
}
const cells = (table: { rows: unknown[][] }) => table.rows.map((row) => row.map((cell) => plainText(cell as never)));

describe('reports with the stack as a dimension', () => {
  const analysis = analyze(twoStacks());

  it('judge each stack on its own: a row per scenario and stack in the verdict table', () => {
    const rows = cells(verdictTable(analysis));
    expect(rows.map((row) => row.slice(1, 3))).toEqual([
      ['hello · bare', '2.00×'],
      ['hello · production', '1.20×'],
      ['hello · production-without-helmet', '1.20×'],
    ]);
    expect(verdictTable(analysis).headers[1]).toBe('scenario · stack');
  });

  it("put each route's bare and production ratios side by side, with what each adapter keeps", () => {
    const [row] = cells(stackComparisonTable(analysis));
    expect(row).toEqual([
      'node@20 (maintenance LTS until 2026-04-30)',
      'hello',
      expect.stringMatching(/^2\.00× \(/),
      expect.stringMatching(/^1\.20× \(/),
      '60 %',
      '50 %',
      '30 %',
    ]);
  });

  it('give per target and stack a row of its own', () => {
    expect(cells(targetTable(analysis)).map((row) => `${row[1]} ${row[2]}`)).toContain(
      'hello · production nest-fastify',
    );
  });

  it("state a left-out part's share of the whole production stack's CPU per request, per adapter", () => {
    const table = ablationTable(analysis);
    expect(table.headers.slice(3)).toEqual(['nest-express', 'nest-fastify']);
    expect(cells(table)).toEqual([
      [
        'node@20 (maintenance LTS until 2026-04-30)',
        'hello',
        'helmet',
        expect.stringMatching(/^20\.0 % \(.*\) of 50\.0 µs$/),
        expect.stringMatching(/^20\.0 % /),
      ],
    ]);
  });

  it('leave the stack out of a run that measured one stack, and show no stack comparison', () => {
    const bareOnly = analyze(results(() => 2));
    expect(bareOnly.stacks).toEqual(['bare']);
    expect(cells(verdictTable(bareOnly))[0][1]).toBe('hello');
    expect(stackComparisonTable(bareOnly).rows).toEqual([]);
    expect(ablationTable(bareOnly).rows).toEqual([]);
  });
});
