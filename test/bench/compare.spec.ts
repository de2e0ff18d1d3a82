import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../bench/analysis/analyze.js';
import { compareAnalyses } from '../../bench/analysis/comparison.js';
import { ROOT, runNode } from './support/run-node.js';
import { results } from './support/synthetic-results.js';

const COMPARE_CLI = join(ROOT, 'bench', 'bin', 'compare.js');
const FIXTURES = new URL('./fixtures/', import.meta.url);

const compare = (a: any, b: any) => compareAnalyses(analyze(a), analyze(b));
const find = (changes: ReturnType<typeof compare>, subject: string) => changes.find((c) => c.subject === subject)!;

describe('comparing two runs', () => {
  it('finds nothing beyond noise between two runs that measured the same', () => {
    const changes = compare(
      results(() => 2),
      results(() => 2),
    );
    expect(changes.map((c) => c.subject)).toEqual(['nest-fastify ÷ nest-express', 'nest-express', 'nest-fastify']);
    for (const change of changes) {
      expect(change.change!.estimate).toBeCloseTo(0, 12);
      expect(change.beyondNoise).toBe(false);
    }
  });

  it('flags a 20 % faster Fastify in B: its req/s and the ratio moved, Express did not', () => {
    const changes = compare(
      results(() => 2),
      results(() => 2.4),
    );
    const ratio = find(changes, 'nest-fastify ÷ nest-express');
    expect(ratio.change!.estimate).toBeCloseTo(0.2, 6);
    expect(ratio.change!.low).toBeGreaterThan(0);
    expect(ratio.beyondNoise).toBe(true);
    expect([ratio.verdictA, ratio.verdictB]).toEqual(['holds', 'holds']);
    expect(find(changes, 'nest-fastify').beyondNoise).toBe(true);
    expect(find(changes, 'nest-express').beyondNoise).toBe(false);
  });

  it('pairs two runs of one runtime each, whatever their versions', () => {
    const changes = compare(
      results(() => 2, { runtime: 'node@20.20.2' }),
      results(() => 2, { runtime: 'node@22.12.0', expressSpeed: 1.1 }),
    );
    expect(find(changes, 'nest-express')).toMatchObject({
      runtimeA: 'node@20.20.2',
      runtimeB: 'node@22.12.0',
      beyondNoise: true,
    });
    expect(find(changes, 'nest-express').change!.estimate).toBeCloseTo(0.1, 6);
  });

  it('never calls a change beyond noise when the rounds are too few for a 95 % interval', () => {
    const a = results(() => 2);
    const b = results(() => 3);
    for (const input of [a, b]) {
      input.runs = input.runs.filter((r: any) => r.round <= 3);
      input.options.rounds = 3;
    }
    const ratio = find(compare(a, b), 'nest-fastify ÷ nest-express');
    expect(ratio.change!.coverage).toBeLessThan(0.95);
    expect(ratio.beyondNoise).toBe(false);
  });
});

describe('npm run compare', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bench-compare-'));
    cpSync(new URL('results-quick.json', FIXTURES), join(dir, 'a', 'results.json'));
    const b = JSON.parse(readFileSync(new URL('results-quick.json', FIXTURES), 'utf8'));
    for (const run of b.runs) if (run.target === 'nest-fastify' && run.load) run.load.rps *= 1.2;
    cpSync(new URL('results-quick.json', FIXTURES), join(dir, 'b', 'results.json'));
    writeFileSync(join(dir, 'b', 'results.json'), JSON.stringify(b));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints the changes as Markdown and writes report.md and report.html with --out', async () => {
    const out = join(dir, 'out');
    const run = await runNode([COMPARE_CLI, join(dir, 'a'), join(dir, 'b'), '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('### Changes from A to B');
    expect(run.stdout).toMatch(
      /\| node@20\.20\.2 \(end of life since 2026-04-30\) \| hello \| nest-fastify ÷ nest-express \| .*\| \+20\.0 % \|/,
    );
    expect(run.stdout).toMatch(
      /\| node@20\.20\.2 \(end of life since 2026-04-30\) \| hello \| nest-express req\/s \| .*\| 0\.0 % \|/,
    );
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('### Changes from A to B');
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toMatch(/^<!doctype html>[\s\S]*<table>/);
  });

  it.each([
    [[], /^expected two result directories A and B, got 0/],
    [['only-one'], /^expected two result directories A and B, got 1/],
    [['--bogus', 'a', 'b'], /^Unknown option '--bogus'/],
    [['/nonexistent-a', '/nonexistent-b'], /results\.json not found; pass a directory written by npm run bench$/],
  ])('%j: one line on stderr, exit 2', async (argv, message) => {
    const run = await runNode([COMPARE_CLI, ...argv]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refuses two runs with nothing in common, in one line with exit 2', async () => {
    const other = JSON.parse(readFileSync(new URL('results-quick.json', FIXTURES), 'utf8'));
    other.options.scenarios = ['products'];
    other.runs = [];
    cpSync(new URL('results-quick.json', FIXTURES), join(dir, 'c', 'results.json'));
    writeFileSync(join(dir, 'c', 'results.json'), JSON.stringify(other));
    const run = await runNode([COMPARE_CLI, join(dir, 'a'), join(dir, 'c')]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toMatch(/have no target × scenario × runtime measured in both; nothing to compare$/);
  });
});
