import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIN_BUDGET_ROUNDS, MIN_ROUNDS_PER_START } from '../../bench/run/budget.js';
import { DEFAULT_STARTS } from '../../bench/run/options.js';
import { CLI, runNode } from './support/run-node.js';

const RUN_TIMEOUT_MS = 180_000;

/** A budget the minimum rounds already spend, on the two Nest servers' hello. */
const budgetRun = (dir: string, port: number, ...flags: string[]) =>
  runNode([
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
    String(port),
    ...flags,
  ]);

describe('npm run bench -- --budget, as the default run spends it: server starts, end to end', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-budget-starts-'));
    run = await budgetRun(dir, 3195);
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('makes the default starts however small the budget, each given the fewest rounds that fit', () => {
    expect(run.status).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(results.options.starts).toBe(DEFAULT_STARTS);
    expect(results.startBlocks.map((block: any) => [block.start, block.rounds, block.choice])).toEqual(
      Array.from({ length: DEFAULT_STARTS }, (_, start) => [start, MIN_ROUNDS_PER_START, 'budget']),
    );
    expect(new Set(results.started.map((s: any) => s.pid)).size).toBe(2 * DEFAULT_STARTS);
    expect(results.runs).toHaveLength(2 * DEFAULT_STARTS * MIN_ROUNDS_PER_START);
  });

  it('says in the verdict row, on the terminal and in report.md, its rounds and starts', () => {
    const rounds = `${DEFAULT_STARTS * MIN_ROUNDS_PER_START} in ${DEFAULT_STARTS} starts`;
    const row = new RegExp(`\\| hello \\| [\\d.]+× \\|.*\\| ${rounds} \\|`);
    expect(run.stdout).toMatch(row);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toMatch(row);
  });
});

describe('npm run bench -- --budget --starts 1, end to end', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-budget-'));
    // the scenario runs the minimum rounds and stops on the budget
    run = await budgetRun(dir, 3190, '--starts', '1');
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
