import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderFlameGraphHtml } from '../../bench/profile/flamegraph-html.js';
import type { ProfileSummary } from '../../bench/profile/process-log.js';
import {
  chartMarks,
  flameFrames,
  openBrowser,
  openFile,
  openReport,
  settledFlameFrames,
  type Browser,
} from '../support/browser.js';
import { CLI, REPORT_CLI, ROOT, runNode } from './support/run-node.js';

// The pages users open, in headless Chromium: every chart draws marks, no script fails, nothing is fetched.
const RUN_TIMEOUT_MS = 180_000;
const PROFILE_DIFF_CLI = join(ROOT, 'bench', 'bin', 'profile-diff.js');
const REFERENCE = join(ROOT, 'results', 'reference');
const PROFILES = join(ROOT, 'profiles', 'reference');
/** d3-flame-graph's zoom transition on the pages, and a margin for a busy machine. */
/** How long the flame graph may take to redraw after a search or a click, on a slow machine. */
const REDRAW_TIMEOUT = { timeout: 10_000 };

let browser: Browser;
let scratch: string;

beforeAll(async () => {
  browser = await openBrowser();
  scratch = mkdtempSync(join(tmpdir(), 'report-pages-'));
});

afterAll(async () => {
  await browser?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A committed run's report.html rebuilt by today's code in a scratch directory. */
async function rebuiltReport(reference: string): Promise<string> {
  const dir = join(scratch, reference.replaceAll('/', '-'));
  cpSync(join(REFERENCE, reference, 'results.json'), join(dir, 'results.json'));
  const rebuilt = await runNode([REPORT_CLI, dir]);
  expect(rebuilt.status).toBe(0);
  return join(dir, 'report.html');
}

/** A report with nothing wrong in it, open. */
async function openSoundReport(file: string) {
  const opened = await openReport(browser, file);
  expect(opened.problems).toEqual([]);
  return opened;
}

describe('report.html in Chromium', () => {
  it(
    "a default --quick run's: every chart draws marks, no console error, no request leaves the file",
    async () => {
      const dir = join(scratch, 'quick');
      const run = await runNode([CLI, '--runtime', 'node', '--quick', '--out', dir, '--port', '3170']);
      expect(run.status).toBe(0);
      const { charts, page } = await openSoundReport(join(dir, 'report.html'));
      expect(charts.length).toBeGreaterThanOrEqual(2);
      // the answer first: how much faster per route and which verdicts are decided, before the method
      const opening = await page.locator('h1 + figure.answer + div.decision').innerText();
      expect(opening).toMatch(/Nest-Fastify served hello( · bare)? [\d.]+×.* as many req\/s as Nest-Express\./);
      expect(opening).toMatch(/Decided: |No verdict is decided/);
      expect(opening).toMatch(/Evidence: /);
      await page.close();
    },
    RUN_TIMEOUT_MS,
  );

  it('a run on Node, Bun and Deno: the per-runtime timeline charts draw their points', async () => {
    const { charts, page } = await openSoundReport(await rebuiltReport('node26-bun-deno'));
    const timeline = charts.filter((chart) => chart.chart.includes('÷'));
    expect(timeline.length).toBeGreaterThan(0);
    await page.close();
  });

  it("a load curve's: the latency curves draw their points", async () => {
    const { charts, page } = await openSoundReport(await rebuiltReport('load-curve-node26'));
    expect(charts.length).toBeGreaterThanOrEqual(3);
    await page.close();
  });

  it('counts a chart whose marks come out empty as a chart without marks', async () => {
    const { page } = await openSoundReport(await rebuiltReport('load-curve-node26'));
    // what a chart drawn from NaN or empty data leaves: its shapes without an area
    await page.$eval('.chart svg', (svg) => {
      for (const shape of svg.querySelectorAll('rect, circle')) {
        shape.setAttribute('height', 'NaN');
        shape.setAttribute('r', '0');
      }
    });
    const [first] = await chartMarks(page);
    expect(first.marks).toBe(0);
    await page.close();
  });
});

/** The laptop's and the phone's widths the answer's picture is read at. */
const WIDTHS = [1280, 390];
/** Text a phone shows smaller than this is hard to read. */
const MIN_TEXT_PX = 11;
/** Where the screenshots are left for a person to look at. */
const SCREENSHOTS = join(tmpdir(), 'nest-adapter-bench-answer');

/** The visible picture's text boxes that cover another, and its text's smallest size as shown. */
function pictureLayout(page: import('playwright-core').Page) {
  return page.$eval('figure.answer', (figure) => {
    const svg = [...figure.querySelectorAll('svg')].find((s) => s.getBoundingClientRect().width > 0)!;
    const shown = svg.getBoundingClientRect();
    const scale = shown.width / svg.viewBox.baseVal.width;
    const boxes = [...svg.querySelectorAll('text')].map((text) => ({
      text: text.textContent ?? '',
      box: text.getBoundingClientRect(),
    }));
    const overlapping = boxes.flatMap((a, i) =>
      boxes
        .slice(i + 1)
        .filter(
          (b) =>
            a.box.left < b.box.right - 1 &&
            b.box.left < a.box.right - 1 &&
            a.box.top < b.box.bottom - 1 &&
            b.box.top < a.box.bottom - 1,
        )
        .map((b) => `${a.text} / ${b.text}`),
    );
    return {
      layout: svg.getAttribute('class'),
      overlapping,
      smallestTextPx: Math.min(
        ...boxes.map(({ text }) => text.length && Number(svg.getAttribute('font-size')) * scale),
      ),
      right: shown.right,
      top: shown.top,
    };
  });
}

describe('the answer at a glance in Chromium', () => {
  it("opens report.html: the picture is the first element after the title, with the run's one-sentence decision", async () => {
    const { page } = await openSoundReport(await rebuiltReport('answer-per-minute/amd-model-17/stop-rule/default-5'));
    const first = await page.$eval('h1', (h1) => h1.nextElementSibling?.outerHTML.slice(0, 200) ?? '');
    expect(first).toMatch(/^<figure class="answer"><figcaption>Is Nest on Fastify "almost two times" faster/);
    expect(await page.locator('figure.answer svg').count()).toBe(2);
    await page.close();
  });

  for (const [name, reference] of [
    ['a default run', 'answer-per-minute/amd-model-17/stop-rule/default-5'],
    ['Node, Bun and Deno on every route', 'node26-bun-deno'],
  ])
    it(`${name}: at a laptop's and a phone's width, no label covers another, text stays readable, nothing runs off`, async () => {
      const file = await rebuiltReport(reference);
      for (const width of WIDTHS) {
        const { page } = await openFile(browser, file);
        await page.setViewportSize({ width, height: 900 });
        const picture = await pictureLayout(page);
        await page
          .locator('figure.answer')
          .screenshot({ path: join(SCREENSHOTS, `${reference.replaceAll('/', '-')}-${width}.png`) });
        expect(picture.layout).toBe(width < 640 ? 'narrow' : 'wide');
        expect(picture.overlapping).toEqual([]);
        expect(picture.smallestTextPx).toBeGreaterThanOrEqual(MIN_TEXT_PX);
        expect(picture.right).toBeLessThanOrEqual(width);
        // the picture starts on the first screen, under the title and the sentence
        expect(picture.top).toBeLessThan(400);
        await page.close();
      }
    });

  it('counts a label drawn over another as covering it', async () => {
    const { page } = await openFile(browser, await rebuiltReport('answer-per-minute/amd-model-17/stop-rule/default-5'));
    await page.$eval('figure.answer svg.wide', (svg) => {
      const [first, second] = svg.querySelectorAll('text');
      second.setAttribute('x', first.getAttribute('x')!);
      second.setAttribute('y', first.getAttribute('y')!);
    });
    expect((await pictureLayout(page)).overlapping).toHaveLength(1);
    await page.close();
  });
});

describe('flame graphs in Chromium', () => {
  it('a profile: draws its frames, zooms into a frame on click and highlights what the search finds', async () => {
    const saved: ProfileSummary = JSON.parse(readFileSync(join(PROFILES, 'nest-express-hello.json'), 'utf8'));
    const file = join(scratch, 'nest-express-hello.html');
    writeFileSync(
      file,
      renderFlameGraphHtml({
        title: saved.title,
        lines: [],
        flame: saved.flame,
        groupShares: new Map(saved.groups.map((g) => [g.id, g.selfShare])),
      }),
    );
    const { page, errors, requestsOut } = await openFile(browser, file);
    await expectFlameGraphWorks(page, 'router');
    expect(errors).toEqual([]);
    expect(requestsOut).toEqual([]);
    await page.close();
  });

  it('a differential profile: draws both sides, zooms on click and highlights what the search finds', async () => {
    const out = join(scratch, 'diff');
    const diffRun = await runNode([
      PROFILE_DIFF_CLI,
      join(PROFILES, 'nest-express-hello.json'),
      join(PROFILES, 'nest-fastify-hello.json'),
      '--out',
      out,
    ]);
    expect(diffRun.status).toBe(0);
    const { page, errors, requestsOut } = await openFile(
      browser,
      join(out, 'nest-express-hello-vs-nest-fastify-hello.diff.html'),
    );
    await expectFlameGraphWorks(page, 'router');
    await page.click('#view');
    expect((await flameFrames(page)).length).toBeGreaterThan(1);
    expect(errors).toEqual([]);
    expect(requestsOut).toEqual([]);
    await page.close();
  });
});

/**
 * Frames drawn; the search colours the frames it matches; a click on a narrow frame widens it to the whole chart.
 * @param search a regex that matches some frames of the profile
 */
async function expectFlameGraphWorks(page: import('playwright-core').Page, search: string) {
  const frames = await settledFlameFrames(page);
  expect(frames.length).toBeGreaterThan(10);
  expect(frames.some((f) => f.highlighted)).toBe(false);

  await page.fill('#term', search);
  await expect
    .poll(async () => (await flameFrames(page)).filter((f) => f.highlighted).length, REDRAW_TIMEOUT)
    .toBeGreaterThan(0);
  const highlighted = (await flameFrames(page)).filter((f) => f.highlighted);
  expect(highlighted.every((f) => new RegExp(search).test(f.name))).toBe(true);
  await page.fill('#term', '');

  const chartWidth = frames[0].width; // the root frame spans the chart
  const narrow = frames.findIndex((frame) => frame.width > 20 && frame.width < chartWidth / 4);
  expect(narrow).toBeGreaterThan(0);
  // the element itself, not its position: zooming re-orders the frames
  const frame = (await page.$$('#chart svg g.frame rect'))[narrow];
  await frame.click();
  await expect
    .poll(async () => Number(await frame.getAttribute('width')), REDRAW_TIMEOUT)
    .toBeGreaterThan(chartWidth * 0.95);
}
