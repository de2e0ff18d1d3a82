import { analyze } from '../../../bench/analysis/analyze.js';
import { plainText } from '../../../bench/report/rich-table.js';
import { orderTable } from '../../../bench/report/tables.js';
import { results, wobble } from '../support/synthetic-results.js';

describe('order table', () => {
  it('shows both halves and flags the scenario whose order moved the ratio', () => {
    const table = orderTable(
      analyze(results((round, expressFirst) => (expressFirst ? 1.8 : 2.2) * wobble(round) ** 0.1)),
    );
    const row = table.rows
      .find((r) => plainText(r[2]) === 'nest-fastify ÷ nest-express')!
      .map((cell) => plainText(cell));
    expect(row[3]).toMatch(/^1\.8\d× \(6\)$/);
    expect(row[4]).toMatch(/^2\.2\d× \(6\)$/);
    expect(row[6]).toBe('yes');
  });
});
