import { analyze } from '../../../bench/analysis/analyze.js';
import { firstBaselineRoute, startupByRuntime } from '../../../bench/analysis/runtime-rows.js';
import type { RatioRow } from '../../../bench/analysis/rows.js';
import type { StartupRow } from '../../../bench/analysis/startup.js';
import { results } from '../support/synthetic-results.js';

describe('each runtime’s rows, grouped as the report reads them', () => {
  const on20 = results(() => 2, { runtime: 'node@20' });
  const on24 = results(() => 1.2, { runtime: 'node@24', stack: 'production' });
  const analysis = analyze({
    ...on20,
    runs: [...on20.runs, ...on24.runs],
    plan: { ...on20.plan, runtimes: ['node@20', 'node@24'] },
  });

  it('holds each runtime’s own judged ratios and answered targets, in the runtimes’ order', () => {
    expect(analysis.byRuntime.map((rows) => rows.runtime)).toEqual(['node@20', 'node@24']);
    for (const { runtime, judged, answered } of analysis.byRuntime) {
      expect(judged.map((r) => [r.runtime, r.judged, r.numerator])).toEqual([[runtime, true, 'nest-fastify']]);
      expect(answered.map((r) => [r.runtime, r.target])).toEqual([
        [runtime, 'nest-express'],
        [runtime, 'nest-fastify'],
      ]);
    }
  });

  it('keeps every block in plan order, an empty one too, and every scenario with its ratios', () => {
    const [node20, node24] = analysis.byRuntime;
    expect(node20.blocks.map((b) => [b.scenario, b.stack, b.answered.length])).toEqual([
      ['hello', 'bare', 2],
      ['hello', 'production', 0],
    ]);
    expect(node24.blocks.map((b) => [b.scenario, b.stack, b.answered.length])).toEqual([
      ['hello', 'bare', 0],
      ['hello', 'production', 2],
    ]);
    expect(node24.scenarios.map((s) => [s.scenario, s.ratios.map((r) => r.stack)])).toEqual([
      ['hello', ['production']],
    ]);
  });

  it('lists the routes some runtime has a judged ratio on', () => {
    expect(analysis.judgedRoutes).toEqual([
      { scenario: 'hello', stack: 'bare' },
      { scenario: 'hello', stack: 'production' },
    ]);
  });

  it('names the first route measured against the baseline with each target measured there, once', () => {
    const ratio = (numerator: string, scenario: string, kind: RatioRow['kind'] = 'baseline') =>
      ({ numerator, scenario, stack: 'bare', kind }) as RatioRow;
    const ratios = [
      ratio('nest-fastify', 'hello', 'adapters'),
      ratio('raw-express', 'catalog'),
      ratio('nest-express', 'hello'),
      ratio('nest-express', 'catalog'),
      ratio('raw-express', 'catalog'),
    ];
    expect(firstBaselineRoute(ratios)).toEqual({
      scenario: 'catalog',
      stack: 'bare',
      targets: ['raw-express', 'nest-express'],
    });
    expect(firstBaselineRoute([ratios[0]])).toBeNull();
  });

  it('groups cold starts by runtime in the order they were recorded', () => {
    const row = (runtime: string, target: string) => ({ runtime, target }) as StartupRow;
    const rows = [row('bun@1', 'a'), row('node@24', 'a'), row('bun@1', 'b')];
    expect(startupByRuntime(rows)).toEqual([
      { runtime: 'bun@1', rows: [rows[0], rows[2]] },
      { runtime: 'node@24', rows: [rows[1]] },
    ]);
  });
});
