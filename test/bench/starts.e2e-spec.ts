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

  it('loads the compared pair together in each round: one slot of both runs, counted once in the time spent', () => {
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    for (let round = 1; round <= STARTS * ROUNDS_PER_START; round++) {
      const slot = results.runs.filter((r: any) => r.round === round);
      expect(slot.map((r: any) => r.target).sort()).toEqual(TARGETS);
      for (const run of slot) {
        expect(run.together).toHaveLength(TARGETS.length);
        expect(run.slot).toBe(1);
        // as long as the two runs back-to-back: each server gets about a run's CPU
        expect(run.load.durationSec).toBeGreaterThanOrEqual(0.2 * TARGETS.length * 0.9);
      }
      expect(slot[0].settle).toEqual(slot[1].settle);
    }
    const report = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(report).toContain('runs of the two servers loaded together');
    const [wall, timed] = /\| ([\d.]+) s \| ([\d.]+) s \(\d+ %\) \|/.exec(report)!.slice(1).map(Number);
    expect(timed).toBeLessThan(wall);
    expect(timed).toBeCloseTo(STARTS * ROUNDS_PER_START * 0.2 * TARGETS.length, 0);
  });

  it('reports per row how the noise splits between starts and within a start', () => {
    const report = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(report).toContain('### Where the noise lives: server starts and rounds');
    expect(report).toMatch(/\| hello \| nest-fastify ÷ nest-express \| 2 × 2 \| [\d—]+( %)? \| [\d—]+( %)? \| /);
  });
});
