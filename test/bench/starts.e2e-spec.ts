import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, runNode } from './support/run-node.js';

const RUN_TIMEOUT_MS = 180_000;
const STARTS = 2;
const ROUNDS_PER_START = 2;
const TARGETS = ['nest-express', 'nest-fastify'];

describe('npm run bench -- --starts, end to end', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-starts-'));
    run = await runNode([
      CLI,
      '--runtime',
      'node',
      '--targets',
      TARGETS.join(','),
      '--scenarios',
      'hello',
      '--stack',
      'bare',
      '--starts',
      String(STARTS),
      '--rounds',
      String(ROUNDS_PER_START),
      '--duration',
      '0.2',
      '--warmup',
      '0.2',
      '--out',
      dir,
      '--port',
      '3250',
    ]);
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('starts every server afresh for each start, the boot order alternating', () => {
    expect(run.status).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(results.started.map((s: any) => `${s.target}#${s.start}`)).toEqual([
      'nest-express#0',
      'nest-fastify#0',
      'nest-fastify#1',
      'nest-express#1',
    ]);
    const pids = new Set(results.started.map((s: any) => s.pid));
    expect(pids.size).toBe(STARTS * TARGETS.length);
  });

  it("records each timed run's start, a block of rounds in each", () => {
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(results.runs).toHaveLength(STARTS * ROUNDS_PER_START * TARGETS.length);
    for (const target of TARGETS)
      expect(results.runs.filter((r: any) => r.target === target).map((r: any) => [r.round, r.start])).toEqual([
        [1, 0],
        [2, 0],
        [3, 1],
        [4, 1],
      ]);
  });

  it('reports per row how the noise splits between starts and within a start', () => {
    const report = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(report).toContain('### Where the noise lives: server starts and rounds');
    expect(report).toMatch(/\| hello \| nest-fastify ÷ nest-express \| 2 × 2 \| [\d—]+( %)? \| [\d—]+( %)? \| /);
  });
});
