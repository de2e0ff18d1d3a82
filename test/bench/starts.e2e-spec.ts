import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, runNode } from './support/run-node.js';
import { readResults } from '../../bench/model/results.js';

const RUN_TIMEOUT_MS = 180_000;
const STARTS = 2;
const ROUNDS_PER_START = 2;
const TARGETS = ['nest-express', 'nest-fastify'];
/** Shown beside the verdict: measured with the pair on one start of its own, after the verdict's starts. */
const BESIDE = 'raw-node';

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
      [...TARGETS, BESIDE].join(','),
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

  it('starts every server afresh for each start, the boot order alternating, the one beside them only on its own', () => {
    expect(run.status).toBe(0);
    const results = readResults(dir);
    expect(results.started.map((s) => `${s.target}#${s.start}`)).toEqual([
      'nest-express#0',
      'nest-fastify#0',
      'nest-fastify#1',
      'nest-express#1',
      'nest-express#2',
      'nest-fastify#2',
      `${BESIDE}#2`,
    ]);
    const pids = new Set(results.started.map((s) => s.pid));
    expect(pids.size).toBe(results.started.length);
    // verified once its server is up, after the verdict's pair
    expect(results.verification.map((v) => `${v.target}:${v.ok}`)).toEqual([
      'nest-express:true',
      'nest-fastify:true',
      `${BESIDE}:true`,
    ]);
  });

  it("records each timed run's start, a block of rounds in each; the one beside them on its own start", () => {
    const results = readResults(dir);
    for (const target of TARGETS)
      expect(results.runs.filter((r) => r.target === target).map((r) => [r.round, r.start])).toEqual([
        [1, 0],
        [2, 0],
        [3, 1],
        [4, 1],
        [5, STARTS],
        [6, STARTS],
      ]);
    const beside = results.runs.filter((r) => r.target === BESIDE);
    // numbered with the block's rounds, so each pairs with the compared pair's of its round
    expect(beside.map((r) => [r.round, r.start])).toEqual([
      [5, STARTS],
      [6, STARTS],
    ]);
    // beside the verdict, the runs go one after another
    for (const record of results.runs.filter((r) => r.start === STARTS)) expect(record.together).toBeUndefined();
  });

  it("primes the headline's two servers alone before each verdict start, none on the start beside it", () => {
    const results = readResults(dir);
    expect(results.primes!.map((p) => `${p.target}#${p.start}`).sort()).toEqual(
      ['nest-express#0', 'nest-express#1', 'nest-fastify#0', 'nest-fastify#1'].sort(),
    );
    for (const prime of results.primes!) {
      expect(prime.requests).toBeGreaterThan(0);
      expect(prime.seconds).toBeGreaterThan(0);
    }
  });

  it('loads the compared pair together in each round: one slot of both runs, counted once in the time spent', () => {
    const results = readResults(dir);
    for (let round = 1; round <= STARTS * ROUNDS_PER_START; round++) {
      const slot = results.runs.filter((r) => r.round === round && r.start < STARTS);
      expect(slot.map((r) => r.target).sort()).toEqual(TARGETS);
      for (const run of slot) {
        expect(run.together).toHaveLength(TARGETS.length);
        expect(run.slot).toBe(1);
        // as long as the two runs back-to-back: each server gets about a run's CPU
        expect(run.load!.durationSec).toBeGreaterThanOrEqual(0.2 * TARGETS.length * 0.9);
      }
      expect(slot[0].settle).toEqual(slot[1].settle);
    }
    const report = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(report).toContain('runs of the two servers loaded together');
    const [wall, timed] = /\| ([\d.]+) s \| ([\d.]+) s \(\d+ %\) \|/.exec(report)!.slice(1).map(Number);
    expect(timed).toBeLessThan(wall);
    // the verdict's slots, then the start beside it: three runs a round, one after another
    expect(timed).toBeCloseTo(STARTS * ROUNDS_PER_START * 0.2 * TARGETS.length + ROUNDS_PER_START * 0.2 * 3, 0);
  });

  it('reports per row how the noise splits between starts and within a start', () => {
    const report = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(report).toContain('### Where the noise lives: server starts and rounds');
    expect(report).toMatch(/\| hello \| nest-fastify ÷ nest-express \| 2 × 2 \| [\d—]+( %)? \| [\d—]+( %)? \| /);
  });
});
