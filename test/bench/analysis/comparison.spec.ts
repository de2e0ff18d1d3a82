import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../../bench/analysis/analyze.js';
import {
  GATE_CONFIDENCE,
  compareAnalyses,
  gateCanJudge,
  hostDifference,
  slowerRows,
  slowerThan,
} from '../../../bench/analysis/comparison.js';
import { startShiftInterval } from '../../../bench/analysis/starts.js';
import { seededRandom } from '../../../bench/analysis/stats.js';
import type { RatioRow } from '../../../bench/analysis/rows.js';
import { ROOT, runNode } from '../support/run-node.js';
import type { Results } from '../../../bench/model/results.js';
import type { CpuIdentity } from '../../../bench/run/host.js';
import { ENVIRONMENT, results } from '../support/synthetic-results.js';

const COMPARE_CLI = join(ROOT, 'bench', 'bin', 'compare.js');
const FIXTURES = new URL('../fixtures/', import.meta.url);

const compare = (a: Results, b: Results) => compareAnalyses(analyze(a), analyze(b));
const find = (changes: ReturnType<typeof compare>, subject: string) => changes.find((c) => c.subject === subject)!;

// four starts of three rounds: each start's own level, as a fresh server sets it, times the rounds' wobble
const startLevels = [1, 1.15, 0.9, 1.05];
const fourStarts = (ratio: number, levels = startLevels) =>
  results((round, _, start) => ratio * levels[start] * (1 + (round % 3) / 200), { starts: 4 });

describe('comparing two runs', () => {
  it('pairs rows by runtime, scenario and stack: a production row is never read against a bare one', () => {
    const a = results(() => 2, { stack: 'bare' });
    const production = results(() => 1.1, { stack: 'production' });
    a.runs.push(...production.runs);
    const b = structuredClone(a);
    const changes = compare(a, b);
    expect(changes.filter((c) => c.kind === 'ratio').map((c) => [c.stack, c.a.estimate, c.b.estimate])).toEqual([
      ['bare', 2, 2],
      ['production', 1.1, 1.1],
    ]);
    for (const change of changes) expect(change.change!.estimate).toBeCloseTo(0, 12);
  });

  it('with one start each, calls nothing beyond noise, not even a 20 % change: rounds leave out a start level', () => {
    const changes = compare(
      results(() => 2),
      results(() => 2.4),
    );
    const ratio = find(changes, 'nest-fastify ÷ nest-express');
    expect(ratio.unit).toBe('rounds');
    expect(ratio.change!.estimate).toBeCloseTo(0.2, 6);
    expect(ratio.beyondNoise).toBeNull();
  });

  it('with several starts, takes the start as the unit and finds the same code within noise', () => {
    const changes = compare(fourStarts(2), fourStarts(2, [...startLevels].reverse()));
    const ratio = find(changes, 'nest-fastify ÷ nest-express');
    expect(ratio).toMatchObject({ unit: 'starts', a: { starts: 4 }, b: { starts: 4 }, beyondNoise: false });
    for (const change of changes) expect(change.beyondNoise).toBe(false);
  });

  it('with several starts, flags a 20 % faster Fastify in B: its req/s and the ratio moved, Express did not', () => {
    const changes = compare(fourStarts(2), fourStarts(2.4));
    const ratio = find(changes, 'nest-fastify ÷ nest-express');
    expect(ratio.change!.estimate).toBeCloseTo(0.2, 2);
    expect(ratio.change!.low).toBeGreaterThan(0);
    expect(ratio.beyondNoise).toBe(true);
    expect(find(changes, 'nest-fastify').beyondNoise).toBe(true);
    expect(find(changes, 'nest-express').beyondNoise).toBe(false);
  });

  it('the starts interval is wide where starts differ more than a 20 % change', () => {
    const scattered = [1, 1.5, 0.7, 1.2];
    const ratio = find(compare(fourStarts(2, scattered), fourStarts(2.4, scattered)), 'nest-fastify ÷ nest-express');
    expect(ratio.change!.estimate).toBeCloseTo(0.2, 2);
    expect(ratio.beyondNoise).toBe(false);
  });

  it('pairs two runs of one runtime each, whatever their versions', () => {
    const changes = compare(
      results(() => 2, { runtime: 'node@20.20.2' }),
      results(() => 2, { runtime: 'node@22.12.0', expressSpeed: 1.1 }),
    );
    expect(find(changes, 'nest-express')).toMatchObject({ runtimeA: 'node@20.20.2', runtimeB: 'node@22.12.0' });
    expect(find(changes, 'nest-express').change!.estimate).toBeCloseTo(0.1, 6);
  });

  it('never calls a change beyond noise when the starts are too few for an interval', () => {
    const a = results(() => 2, { starts: 2 });
    a.runs = a.runs.filter((r) => r.start === 0);
    const b = results(() => 3);
    const ratio = find(compare(a, b), 'nest-fastify ÷ nest-express');
    expect(ratio.unit).toBe('rounds');
    expect(ratio.beyondNoise).toBeNull();
  });
});

// B's Fastify answers 40 % fewer requests (its ratio to an unchanged Express falls from 2 to 1.2): beyond what four
// starts whose own levels spread by ±15 % can hide at the gate's level
const fastifySlower = () => fourStarts(1.2);

describe('the gate of two runs made apart', () => {
  it('names the target decided slower beyond the threshold, and only it', () => {
    const slower = slowerThan(compare(fourStarts(2), fastifySlower()), 0.05);
    expect(slower.map((c) => [c.subject, c.kind])).toEqual([['nest-fastify', 'req/s']]);
    expect(slower[0].change!.high).toBeLessThan(-0.05);
  });

  it('lets a slowdown smaller than its threshold pass', () => {
    expect(slowerThan(compare(fourStarts(2), fastifySlower()), 0.5)).toEqual([]);
  });

  it('lets the same build pass whatever its starts read', () => {
    expect(slowerThan(compare(fourStarts(2), fourStarts(2, [...startLevels].reverse())), 0.01)).toEqual([]);
  });

  it('cannot judge runs of one start each: their intervals leave out a start level', () => {
    expect(
      gateCanJudge(
        compare(
          results(() => 2),
          results(() => 1.6),
        ),
      ),
    ).toBe(false);
    expect(gateCanJudge(compare(fourStarts(2), fastifySlower()))).toBe(true);
  });
});

/** A seeded standard normal (Box–Muller), so the simulation reads the same every run. */
function normals(seed: number) {
  const uniform = seededRandom(seed);
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

const TRIALS = 4000;

describe('the gates compare a build with itself: simulated false alarms stay at or below 1 %', () => {
  // a row of one start: paired rounds whose log ratio is noise around 1.00, as an A/A run's
  const aaRow = (noise: () => number, rounds: number, sd: number) =>
    ({
      judged: true,
      starts: null,
      byRound: Array.from({ length: rounds }, () => Math.exp(sd * noise())),
      summary: { median: 1 },
    }) as unknown as RatioRow;

  it.each([
    [8, 0.03],
    [12, 0.1],
    [30, 0.02],
  ])('in one run, %i rounds with %f noise, at a threshold of 0', (rounds, sd) => {
    const noise = normals(rounds);
    let alarms = 0;
    for (let trial = 0; trial < TRIALS; trial++) alarms += slowerRows([aaRow(noise, rounds, sd)], 0).length;
    expect(alarms / TRIALS).toBeLessThanOrEqual(0.01);
  });

  it.each([
    [2, 2],
    [3, 3],
    [6, 6],
  ])('between two runs made apart, %i and %i starts, at a threshold of 0', (startsA, startsB) => {
    const noise = normals(startsA * 100 + startsB);
    const starts = (k: number) => Array.from({ length: k }, (_, start) => ({ start, n: 4, logMean: 0.08 * noise() }));
    let alarms = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const shift = startShiftInterval(starts(startsA), starts(startsB), GATE_CONFIDENCE)!;
      if (Math.exp(shift.high) - 1 < 0) alarms++;
    }
    expect(alarms / TRIALS).toBeLessThanOrEqual(0.01 + 3 * Math.sqrt((0.01 * 0.99) / TRIALS));
  });
});

describe('telling hosts apart', () => {
  const MODEL = 'AMD EPYC 7R13';
  const identity = { vendor: 'AuthenticAMD', family: 25, model: 1, modelName: MODEL, stepping: 1, caches: [] };
  /** A run on a host of CPU `model`, of this identity or (none) from before identities were recorded. */
  const on = (model: string, cpu?: CpuIdentity) => {
    const run = results(() => 2);
    const host = { kernel: 'Linux 6.8.0', virtualization: { vm: null, container: null } };
    run.environment = {
      ...ENVIRONMENT,
      cpu: { model, count: 2, governor: null },
      host: cpu ? { ...host, cpu } : null,
    };
    return run;
  };

  it('finds the same host when every identity field agrees', () => {
    expect(
      hostDifference(
        on(MODEL, { ...identity, microcode: '0xa0011d1' }),
        on(MODEL, { ...identity, microcode: '0xa0011d1' }),
      ),
    ).toBeNull();
  });

  it('names the fields that differ when the model names agree but the microcode does not', () => {
    const difference = hostDifference(
      on(MODEL, { ...identity, microcode: '0xa0011d1' }),
      on(MODEL, { ...identity, microcode: '0xa0011d5' }),
    );
    expect(difference?.fields).toEqual(['microcode']);
    expect(difference?.b).toContain('microcode 0xa0011d5');
  });

  it('falls back to the model name when a run predates the identity', () => {
    expect(hostDifference(on(MODEL), on('AMD EPYC 9R14'))?.fields).toEqual(['model name']);
    expect(hostDifference(on(MODEL), on(MODEL, { ...identity, microcode: '0x1' }))).toBeNull();
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
      /\| node@20\.20\.2 \(end of life since 2026-04-30\) \| hello \| bare \| nest-fastify ÷ nest-express \| .*\| \+20\.0 % \|/,
    );
    expect(run.stdout).toMatch(
      /\| node@20\.20\.2 \(end of life since 2026-04-30\) \| hello \| bare \| nest-express req\/s \| .*\| 0\.0 % \|/,
    );
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('### Changes from A to B');
    expect(run.stdout).not.toContain('different hosts');
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toMatch(/^<!doctype html>[\s\S]*<table>/);
  });

  it('says when A and B ran on different hosts', async () => {
    const other = JSON.parse(readFileSync(new URL('results-quick.json', FIXTURES), 'utf8'));
    other.environment.cpu.model = 'Intel(R) Xeon(R) Platinum 8375C';
    cpSync(new URL('results-quick.json', FIXTURES), join(dir, 'd', 'results.json'));
    writeFileSync(join(dir, 'd', 'results.json'), JSON.stringify(other));
    const run = await runNode([COMPARE_CLI, join(dir, 'a'), join(dir, 'd')]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/A and B ran on different hosts \(model name: A .*, B Intel\(R\) Xeon/);
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

  it('--fail-if-slower exits 4 naming the target B made slower, and appends its answer to $GITHUB_STEP_SUMMARY', async () => {
    for (const [name, made] of [
      ['starts-a', fourStarts(2)],
      ['starts-b', fastifySlower()],
    ] as const) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'results.json'), JSON.stringify(made));
    }
    const summary = join(dir, 'step-summary.md');
    process.env.GITHUB_STEP_SUMMARY = summary;
    try {
      const slower = await runNode([
        COMPARE_CLI,
        join(dir, 'starts-a'),
        join(dir, 'starts-b'),
        '--fail-if-slower',
        '5',
      ]);
      expect(slower.status).toBe(4);
      expect(slower.stderr).toMatch(
        /^gate: 1 decided slower than -5.0 % from A to B:\n- nest-fastify, hello · bare \(node@20\): -40\.0 %/,
      );
      const same = await runNode([COMPARE_CLI, join(dir, 'starts-a'), join(dir, 'starts-a'), '--fail-if-slower', '5']);
      expect(same.status).toBe(0);
      expect(same.stderr.trim()).toBe('gate: no target decided slower than -5.0 % from A to B');
    } finally {
      delete process.env.GITHUB_STEP_SUMMARY;
    }
    const written = readFileSync(summary, 'utf8');
    expect(written.match(/### Changes from A to B/g)).toHaveLength(2);
    expect(written).toContain('gate: 1 decided slower than -5.0 % from A to B:');
  });

  it('--fail-if-slower refuses runs of one start each, in one line with exit 2', async () => {
    const run = await runNode([COMPARE_CLI, join(dir, 'a'), join(dir, 'b'), '--fail-if-slower', '5']);
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe(
      '--fail-if-slower needs intervals over server starts: run A and B with --starts (three or more together)',
    );
  });

  it.each(['-1', 'five', '100'])('--fail-if-slower %s: one line on stderr, exit 2', async (value) => {
    const run = await runNode([COMPARE_CLI, join(dir, 'a'), join(dir, 'b'), `--fail-if-slower=${value}`]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toMatch(
      /^--fail-if-slower: ".*" is not a percentage from 0 to 100; e\.g\. --fail-if-slower 5$/,
    );
  });

  it('refuses two runs with nothing in common, in one line with exit 2', async () => {
    const other = JSON.parse(readFileSync(new URL('results-quick.json', FIXTURES), 'utf8'));
    other.options.scenarios = ['products'];
    other.runs = [];
    cpSync(new URL('results-quick.json', FIXTURES), join(dir, 'c', 'results.json'));
    writeFileSync(join(dir, 'c', 'results.json'), JSON.stringify(other));
    const run = await runNode([COMPARE_CLI, join(dir, 'a'), join(dir, 'c')]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toMatch(
      /have no target × scenario × stack × runtime measured in both; nothing to compare$/,
    );
  });
});
