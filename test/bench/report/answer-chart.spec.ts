import { join } from 'node:path';
import { analyze } from '../../../bench/analysis/analyze.js';
import { readResults } from '../../../bench/model/results.js';
import { answerChart, answerRows, answerSentence, bandLabelCentres } from '../../../bench/report/answer-chart.js';
import { renderMarkdown } from '../../../bench/report/markdown.js';
import { results } from '../support/synthetic-results.js';

// Committed runs: a default run on one runtime (every row decided), and Node, Bun and Deno on every route (rows
// undecided and too slow among them).
const REFERENCE = join(import.meta.dirname, '..', '..', '..', 'results', 'reference');
const DEFAULT_RUN = join(REFERENCE, 'answer-per-minute', 'amd-model-17', 'stop-rule', 'default-5');
const THREE_RUNTIMES = join(REFERENCE, 'node26-bun-deno');
const analysisOf = (dir: string) => analyze(readResults(dir));

/** Each drawn row's tooltip: `hello · bare: 1.83× (1.66× – 2.02×, 98 % interval), holds`. */
const rowTitles = (svg: string) => [...svg.matchAll(/<circle [^>]*>\s*<title>([^<]*)<\/title>/g)].map((m) => m[1]);

describe('the answer at a glance', () => {
  it('says in one sentence which rows the claim holds on and which it does not', () => {
    expect(answerSentence(analysisOf(DEFAULT_RUN))).toBe(
      'Is Nest on Fastify "almost two times" faster than on Express? The claim holds for hello · bare and does not ' +
        'hold for the other 5 rows.',
    );
  });

  it('counts the undecided and the too slow rows apart from the decided ones', () => {
    const analysis = analysisOf(THREE_RUNTIMES);
    const judged = analysis.ratios.filter((row) => row.judged);
    const count = (test: (verdict: string | null) => boolean) => judged.filter((row) => test(row.verdict)).length;
    expect(answerSentence(analysis)).toBe(
      `Is Nest on Fastify "almost two times" faster than on Express? The claim does not hold for ` +
        `${count((v) => v === 'does not hold')} rows, is not decided for ${count((v) => v === 'inconclusive')} rows ` +
        `and could not be measured (too slow) for the other ${count((v) => v === 'too slow')} rows.`,
    );
  });

  it("draws every judged row with a ratio once, with the verdict table's ratio, interval and verdict", () => {
    const analysis = analysisOf(DEFAULT_RUN);
    for (const layout of ['wide', 'narrow'] as const) {
      expect(rowTitles(answerChart(analysis, layout))).toEqual([
        'hello · bare: 1.83× (1.66× – 2.02×, 98 % interval), holds',
        'hello · production: 0.97× (0.72× – 1.31×, 97 % interval), does not hold',
        'catalog · bare: 1.09× (0.98× – 1.20×, 98 % interval), does not hold',
        'catalog · production: 0.89× (0.78× – 1.00×, 98 % interval), does not hold',
        'purchases · bare: 1.07× (0.89× – 1.29×, 97 % interval), does not hold',
        'purchases · production: 1.11× (0.94× – 1.31×, 97 % interval), does not hold',
      ]);
    }
  });

  it('fills the dot of a decided row and leaves an undecided one hollow', () => {
    const svg = answerChart(analysisOf(THREE_RUNTIMES));
    const dots = [...svg.matchAll(/<circle ([^>]*)>\s*<title>[^<]*, ([a-z ]+)<\/title>/g)];
    const hollow = dots.filter(([, attributes]) => attributes.includes('fill="#fff"')).map(([, , verdict]) => verdict);
    const filled = dots.filter(([, attributes]) => !attributes.includes('fill="#fff"')).map(([, , verdict]) => verdict);
    expect(new Set(hollow)).toEqual(new Set(['inconclusive']));
    expect(new Set(filled)).toEqual(new Set(['does not hold']));
  });

  it("heads each runtime's rows with the runtime when the run measured several, and writes a too slow row out", () => {
    const analysis = analysisOf(THREE_RUNTIMES);
    const svg = answerChart(analysis);
    for (const runtime of analysis.runtimes) expect(svg).toContain(`>${analysis.runtimeLabels[runtime]}</text>`);
    const tooSlow = answerRows(analysis).filter((row) => row.ratio === null);
    expect(tooSlow.length).toBeGreaterThan(0);
    expect(svg.split('>too slow to measure<').length - 1).toBe(tooSlow.length);
  });

  it('shades the three bands and marks both band edges and parity on the axis', () => {
    const svg = answerChart(analysisOf(DEFAULT_RUN));
    for (const band of ['does not hold', 'holds', 'understated']) expect(svg).toContain(`>${band}</text>`);
    for (const tick of ['1×', '1.5×', '2.5×']) expect(svg).toContain(`>${tick}</text>`);
  });

  it('opens report.md with the sentence and the picture written beside it', () => {
    const results = readResults(DEFAULT_RUN);
    const analysis = analyze(results);
    const [title, , sentence, , image] = renderMarkdown(analysis).split('\n');
    expect(title).toBe('# Nest on Fastify vs Nest on Express');
    expect(sentence).toBe(`**${answerSentence(analysis)}**`);
    expect(image).toMatch(/^!\[Is Nest on Fastify .*\]\(answer\.svg\)$/);
  });
});

describe('a row at a band edge', () => {
  // four starts agreeing within 1 % of 1.5×: an interval across the edge, within the margin either side of it
  const levels = [0.99, 1.01, 1, 1.005];
  const atEdge = analyze(results((_, __, start) => 1.5 * levels[start], { starts: 4 }));

  it('is decided borderline, its edge named in the sentence', () => {
    expect(answerRows(atEdge)[0]).toEqual(expect.objectContaining({ verdict: 'borderline at 1.5×', decided: true }));
    expect(answerSentence(atEdge)).toBe(
      'Is Nest on Fastify "almost two times" faster than on Express? The claim is borderline at 1.5× (within ±5 %) ' +
        'for hello.',
    );
  });

  it("is drawn filled in its own ink, over the margin's strip, with the key saying what the strip is", () => {
    const svg = answerChart(atEdge);
    expect(rowTitles(svg)).toEqual(['hello: 1.50× (1.48× – 1.52×, 95 % interval), borderline at 1.5×']);
    expect(svg).toMatch(/<circle [^>]*r="5\.5" fill="#8a5a00">/);
    expect(svg).toContain('borderline: the interval within ±5 % of an edge');
    expect(svg).toContain('>1.50× borderline at 1.5×</text>');
  });

  it('draws no strip and no key for it where no row is borderline', () => {
    expect(answerChart(analysisOf(DEFAULT_RUN))).not.toContain('borderline');
  });
});

describe("the bands' labels", () => {
  const room = { left: 18, right: 362 };

  it('stand centred over their bands when there is room', () => {
    const labels = [
      { middle: 100, width: 90 },
      { middle: 220, width: 60 },
      { middle: 300, width: 60 },
    ];
    expect(bandLabelCentres(labels, room)).toEqual([100, 220, 300]);
  });

  it('are pushed apart, never past the edges, when a band is narrower than its label (a phone)', () => {
    const labels = [
      { middle: 130, width: 95 },
      { middle: 240, width: 60 },
      { middle: 290, width: 85 },
    ];
    const [first, second, third] = bandLabelCentres(labels, room);
    expect(second - first).toBeGreaterThanOrEqual((95 + 60) / 2);
    expect(third - second).toBeGreaterThanOrEqual((60 + 85) / 2);
    expect(third + 85 / 2).toBeLessThanOrEqual(room.right);
    expect(first - 95 / 2).toBeGreaterThanOrEqual(room.left);
  });
});
