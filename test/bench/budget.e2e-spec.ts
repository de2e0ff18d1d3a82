import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIN_BUDGET_ROUNDS } from '../../bench/run/budget.js';
import { CLI, runNode } from './support/run-node.js';

const RUN_TIMEOUT_MS = 180_000;

describe('npm run bench -- --budget, end to end', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-budget-'));
    // a budget the minimum rounds already spend: the scenario runs them and stops on the budget
    run = await runNode([
      CLI,
      '--runtime',
      'node',
      '--targets',
      'nest-express,nest-fastify',
      '--scenarios',
      'hello',
      '--stack',
      'bare',
      '--budget',
      '1',
      '--duration',
      '0.1',
      '--warmup',
      '0.2',
      '--out',
      dir,
      '--port',
      '3190',
    ]);
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the minimum rounds and records that the scenario stopped on the budget', () => {
    expect(run.status).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(results.options.budgetSec).toBe(1);
    expect(results.stops).toEqual([
      {
        runtime: `node@${process.versions.node}`,
        scenario: 'hello',
        stack: 'bare',
        rounds: MIN_BUDGET_ROUNDS,
        stoppedOn: 'budget',
      },
    ]);
    expect(results.runs).toHaveLength(2 * MIN_BUDGET_ROUNDS);
  });

  it('says in the verdict row, on the terminal and in both reports, how many rounds it got and why it stopped', () => {
    const row = new RegExp(`\\| hello \\| [\\d.]+× \\|.*\\| ${MIN_BUDGET_ROUNDS}, budget spent \\|`);
    expect(run.stdout).toMatch(row);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toMatch(row);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain(`${MIN_BUDGET_ROUNDS}, budget spent`);
  });
});
