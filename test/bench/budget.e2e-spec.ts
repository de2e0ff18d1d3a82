import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIN_BUDGET_ROUNDS } from '../../bench/model/design.js';
import { MAX_BLOCK_ROUNDS, MIN_STEADY_ROUNDS } from '../../bench/run/designs/steady-block.js';
import { DEFAULT_STARTS } from '../../bench/run/options.js';
import { CLI, runNode } from './support/run-node.js';
import { readResults, type Results } from '../../bench/model/results.js';

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
  let results: Results;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-budget-starts-'));
    run = await budgetRun(dir, 3195, '--targets', 'nest-express,nest-fastify,raw-node');
    results = readResults(dir);
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('makes no start the budget has no room for: the first alone, each block timed from its steady state on', () => {
    expect(run.status).toBe(0);
    expect(results.options.starts).toBe(DEFAULT_STARTS);
    expect(results.startBlocks!.map((block) => [block.start, block.choice])).toEqual([[0, 'steady']]);
    for (const block of results.steadyBlocks!) {
      expect(block.steadyFrom).toBeGreaterThanOrEqual(2);
      expect(block.rounds - block.steadyFrom).toBeGreaterThanOrEqual(block.steady ? MIN_STEADY_ROUNDS : 1);
      expect(block.rounds).toBeLessThanOrEqual(MAX_BLOCK_ROUNDS);
      for (const target of Object.values(block.byTarget)) expect(target.cpuUsPerRequest).toHaveLength(block.rounds);
    }
    const compared = results.runs.filter((r) => r.target !== 'raw-node');
    expect(compared).toHaveLength(2 * results.startBlocks!.reduce((sum, b) => sum + b.rounds, 0));
  });

  it('gives the target beside the compared pair no start of the verdict, and none when the budget is spent', () => {
    expect(results.runs.filter((r) => r.target === 'raw-node')).toEqual([]);
    expect(results.steadyBlocks!.every((block) => !('raw-node' in block.byTarget))).toBe(true);
    expect(run.stderr + run.stdout).toContain("raw-node not measured: the verdict's starts took the budget");
    expect(results.started.map((s) => s.target)).not.toContain('raw-node');
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toMatch(
      /\| not measured \| raw-node \(node@[^)]+\): never booted, the verdict's starts took the budget \|/,
    );
  });

  it('waits for the servers to settle before every timed run, and records it', () => {
    for (const record of results.runs) expect(record.settle).toMatchObject({ settled: expect.any(Boolean) });
  });

  it('logs one line for its block, with the rounds it kept and the ratio so far, and none per round', () => {
    const [block] = results.steadyBlocks!;
    const kept = results.runs.filter((r) => r.target === 'nest-express').length;
    expect(run.stderr.split('\n').filter((line) => line.includes(' · hello · bare · '))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^node@[\\d.]+ · start 1 · hello · bare · ${kept} of ${block.rounds} rounds kept.* · nest-fastify ÷ nest-express \\d+\\.\\d\\d×`,
        ),
      ),
    ]);
    expect(run.stderr).not.toMatch(/ left$/m);
  });

  it('says in the verdict row, in the log and in report.md, its rounds and starts', () => {
    const rounds = results.runs.filter((r) => r.target === 'nest-express').length;
    const row = new RegExp(
      `\\| hello \\| [\\d.]+× \\|.*\\| ${rounds} in ${results.startBlocks!.length} starts(, decided \\(98 % interval\\)| \\(97 % interval\\))? \\|`,
    );
    expect(run.stdout).toMatch(row);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toMatch(row);
  });
});

describe('npm run bench -- --budget --starts 1, end to end', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-budget-'));
    // the scenario runs the minimum rounds and stops on the budget. In full CI runs, runs of 0.1 s and 0.25 s each
    // answered nothing in some round ("too slow", which decides the row): runs this long leave the budget the reason
    run = await budgetRun(dir, 3190, '--starts', '1', '--duration', '0.5', '--warmup', '1');
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the minimum rounds and records that the scenario stopped on the budget', () => {
    expect(run.status).toBe(0);
    const results = readResults(dir);
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

  it('says in the verdict row, in the log and in both reports, how many rounds it got and why it stopped', () => {
    const row = new RegExp(`\\| hello \\| [\\d.]+× \\|.*\\| ${MIN_BUDGET_ROUNDS}, budget spent \\|`);
    expect(run.stdout).toMatch(row);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toMatch(row);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain(`${MIN_BUDGET_ROUNDS}, budget spent`);
  });
});
