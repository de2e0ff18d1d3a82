import { analyze } from '../support/analyze-read.js';
import { refusalOf } from '../../../bench/analysis/refusals.js';
import { renderSummary } from '../../../bench/report/markdown.js';
import { ownAppRecord } from '../support/own-app-record.js';
import { results, type SyntheticRun } from '../support/synthetic-results.js';

/** A throttler's run: of 5,000 answers, 50 were the route's 200 in each 10 s window, the rest 429. */
function throttled(run: SyntheticRun): SyntheticRun {
  const requests = 5000;
  return {
    ...run,
    load: { ...run.load, requests, statusCounts: { 200: 50, 429: 4950 }, unexpectedStatus: 4950, rps: 100 },
  };
}

describe('a route whose timed answers were refusals', () => {
  const refused = { ...results(() => 1), targetFailures: [], verification: [] };
  refused.runs = refused.runs.map(throttled);
  const analysis = analyze(refused);

  it('gets no ratio, so the verdict never shows one for it', () => {
    expect(analysis.ratios.filter((r) => r.judged && r.scenario === 'hello')).toEqual([]);
    expect(renderSummary(analysis)).not.toMatch(/1\.00×/);
  });

  it('is a finding that names the status, its cause and the fix', () => {
    expect(analysis.refusals).toEqual([
      expect.objectContaining({
        scenario: 'hello',
        status: 429,
        share: 0.99,
        cause: expect.stringMatching(/rate limiter/),
      }),
    ]);
    const summary = renderSummary(analysis);
    expect(summary).toContain('**Refused, not measured: hello**');
    expect(summary).toContain("exempt the bench's address (127.0.0.1)");
  });

  it('leaves a route with a few refused answers among its successes measured', () => {
    const mostlyServed = results(() => 1.5);
    mostlyServed.runs = mostlyServed.runs.map((run) => ({
      ...run,
      load: { ...run.load, statusCounts: { 200: run.load.requests - 10, 429: 10 }, unexpectedStatus: 10 },
    }));
    const served = analyze(mostlyServed);
    expect(served.refusals).toEqual([]);
    expect(served.ratios.some((r) => r.judged && r.scenario === 'hello')).toBe(true);
  });
});

describe('the fix a refusal names', () => {
  const where = { runtime: 'node', scenario: 'hello', stack: 'bare' };
  const refusedWith = (status: number) =>
    results(() => 1).runs.map((run) => ({
      ...run,
      load: {
        ...run.load,
        requests: 1000,
        statusCounts: { [status]: 990, 200: 10 },
        unexpectedStatus: 990,
      },
    }));
  const targets = ['nest-fastify', 'nest-express'];

  it('names the app’s @nestjs/throttler, its ThrottlerModule.forRoot line and @SkipThrottle() for a 429', () => {
    const found = refusalOf(refusedWith(429), where, targets, { throttler: { forRoot: 'src/app.module.ts:40' } });
    expect(found?.cause).toBe(
      "the app's @nestjs/throttler (ThrottlerModule.forRoot at src/app.module.ts:40) refused the load (429 on nest-fastify, 429 on nest-express)",
    );
    expect(found?.fix).toMatch(
      /^@SkipThrottle\(\) on the route's controller while measuring, or a limit the bench's address \(127\.0\.0\.1\)/,
    );
  });

  it('says to run without --keep-throttle where the run kept it, and not where it was lifted', () => {
    const scan = { throttler: { forRoot: 'src/app.module.ts:40' } };
    expect(refusalOf(refusedWith(429), where, targets, scan, { timed: 'keep' })?.fix).toMatch(
      /^run without --keep-throttle \(the bench lifts it while timing\), or @SkipThrottle\(\)/,
    );
    expect(refusalOf(refusedWith(429), where, targets, scan, { timed: 'lift' })?.fix).toMatch(/^@SkipThrottle\(\)/);
  });

  it('names the throttler without a line where the scan found none', () => {
    const found = refusalOf(refusedWith(429), where, targets, { throttler: { forRoot: null } });
    expect(found?.cause).toMatch(/^the app's @nestjs\/throttler refused the load \(/);
  });

  it('names the throttler where only one adapter was refused, as a 500, and the other answered some 429s', () => {
    const runs = refusedWith(429).map((run): SyntheticRun =>
      run.target === 'nest-fastify'
        ? { ...run, load: { ...run.load, statusCounts: { 500: 990, 200: 10 } } }
        : { ...run, load: { ...run.load, statusCounts: { 429: 100, 200: 900 }, unexpectedStatus: 100 } },
    );
    const found = refusalOf(runs, where, targets, { throttler: { forRoot: null } });
    expect(found?.cause).toMatch(/refused the load \(500 on nest-fastify\)$/);
    expect(refusalOf(runs, where, targets, {})?.cause).toMatch(/answered 500 instead/);
  });

  it('names the throttler where one adapter’s exception filter turned its 429 into a 500', () => {
    const runs = refusedWith(429).map((run) =>
      run.target === 'nest-fastify' ? { ...run, load: { ...run.load, statusCounts: { 500: 990, 200: 10 } } } : run,
    );
    const found = refusalOf(runs, where, targets, { throttler: { forRoot: null } });
    expect(found?.cause).toMatch(/refused the load \(500 on nest-fastify, 429 on nest-express\)$/);
    expect(found?.fix).toMatch(/^@SkipThrottle\(\)/);
  });

  it('keeps a 429 generic in an app without @nestjs/throttler', () => {
    const found = refusalOf(refusedWith(429), where, targets, {});
    expect(found?.cause).toMatch(/a rate limiter/);
    expect(found?.fix).not.toMatch(/SkipThrottle/);
  });

  it('asks for a fresh sign-in in authenticate() for a 401', () => {
    expect(refusalOf(refusedWith(401), where, targets)?.fix).toMatch(/^sign in again in authenticate\(\)/);
  });

  it('reads the throttler from the --nest-app run’s scan', () => {
    const run = { ...results(() => 1), targetFailures: [], verification: [] };
    run.runs = refusedWith(429);
    run.ownApp = ownAppRecord({
      scan: {
        files: [],
        fromSourceMaps: 0,
        skipped: null,
        findings: [],
        throttler: { forRoot: 'src/app.module.ts:40' },
      },
    });
    expect(analyze(run).refusals[0]?.fix).toMatch(/SkipThrottle/);
  });
});
