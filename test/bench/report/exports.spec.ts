import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../../bench/analysis/analyze.js';
import { bmfExport, githubBenchmarkExport } from '../../../bench/report/exports.js';
import { REPORT_CLI, runNode } from '../support/run-node.js';
import { results } from '../support/synthetic-results.js';

const FIXTURES = new URL('../fixtures/', import.meta.url);

// three starts of four rounds, Fastify twice Express's req/s
const analysis = () => analyze(results((round) => 2 * (1 + (round % 3) / 100), { starts: 3 }));

/** Bencher's published schema: benchmark → measure → { value (required), lower_value, upper_value }, all numbers. */
function expectBmf(bmf: unknown) {
  expect(bmf).toBeTypeOf('object');
  for (const [benchmark, measures] of Object.entries(bmf as Record<string, unknown>)) {
    expect(benchmark.length).toBeGreaterThan(0);
    for (const [measure, metric] of Object.entries(measures as Record<string, Record<string, unknown>>)) {
      expect(measure.length).toBeGreaterThan(0);
      expect(Object.keys(metric).every((key) => ['value', 'lower_value', 'upper_value'].includes(key))).toBe(true);
      expect(metric.value).toBeTypeOf('number');
      for (const bound of ['lower_value', 'upper_value'])
        if (bound in metric) expect(metric[bound]).toBeTypeOf('number');
    }
  }
}

/** github-action-benchmark's custom tools: an array of { name, unit, value, range?, extra? }. */
function expectGithubArray(entries: unknown) {
  expect(Array.isArray(entries)).toBe(true);
  for (const entry of entries as Record<string, unknown>[]) {
    expect(entry).toMatchObject({ name: expect.any(String), unit: expect.any(String), value: expect.any(Number) });
    if ('range' in entry) expect(entry.range).toMatch(/^± \d/);
    expect(Object.keys(entry).every((key) => ['name', 'unit', 'value', 'range', 'extra'].includes(key))).toBe(true);
  }
}

describe('exports for dashboards', () => {
  it('BMF: each target throughput and p99 latency in ns, the ratio, each inside its own interval', () => {
    const bmf = bmfExport(analysis());
    expectBmf(bmf);
    expect(Object.keys(bmf)).toEqual([
      'hello · bare · nest-express · node 20',
      'hello · bare · nest-fastify · node 20',
      'hello · bare · nest-fastify ÷ nest-express · node 20',
    ]);
    const express = bmf['hello · bare · nest-express · node 20'];
    expect(express.latency.value).toBe(3e6);
    const ratio = bmf['hello · bare · nest-fastify ÷ nest-express · node 20'].ratio;
    expect(ratio.value).toBeCloseTo(2.02, 2);
    for (const metric of [express.throughput, ratio]) {
      expect(metric.lower_value).toBeLessThanOrEqual(metric.value);
      expect(metric.upper_value).toBeGreaterThanOrEqual(metric.value);
    }
  });

  it('github-benchmark: req/s and ratios bigger is better, p99 smaller is better, range from the interval', () => {
    const { bigger, smaller } = githubBenchmarkExport(analysis());
    expectGithubArray(bigger);
    expectGithubArray(smaller);
    expect(bigger.map((e) => e.unit)).toEqual(['req/s', 'req/s', 'x']);
    expect(smaller).toEqual([
      expect.objectContaining({ name: 'hello · bare · nest-express p99 · node 20', unit: 'ms', value: 3 }),
      expect.objectContaining({ name: 'hello · bare · nest-fastify p99 · node 20', unit: 'ms', value: 3 }),
    ]);
    expect(bigger[2].extra).toMatch(/^node@20, 12 rounds; interval [\d.]+–[\d.]+$/);
  });

  it('npm run report -- DIR --format writes the files beside results.json, and refuses an unknown format', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-exports-'));
    try {
      cpSync(new URL('results-quick.json', FIXTURES), join(dir, 'results.json'));
      const bmf = await runNode([REPORT_CLI, dir, '--format', 'bmf']);
      expect(bmf.status).toBe(0);
      expectBmf(JSON.parse(readFileSync(join(dir, 'bmf.json'), 'utf8')));
      const github = await runNode([REPORT_CLI, dir, '--format', 'github-benchmark']);
      expect(github.status).toBe(0);
      expectGithubArray(JSON.parse(readFileSync(join(dir, 'github-benchmark-bigger.json'), 'utf8')));
      expectGithubArray(JSON.parse(readFileSync(join(dir, 'github-benchmark-smaller.json'), 'utf8')));
      const bad = await runNode([REPORT_CLI, dir, '--format', 'csv']);
      expect(bad.status).toBe(2);
      expect(bad.stderr.trim()).toBe('--format csv: expected one of bmf, github-benchmark');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
