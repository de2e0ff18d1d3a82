import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium, installed by .ci/run: no browser is downloaded. */
export const CHROMIUM = '/usr/bin/chromium';
/** A headless browser that reaches nothing of its own accord (no updates, sync or QUIC probes). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium with a fresh profile, removed again on close. */
export async function openBrowser(): Promise<Browser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export interface OpenedPage {
  page: Page;
  /** console errors and uncaught exceptions, as the page reported them */
  errors: string[];
  /** every request for something other than a file: URL — refused, so a page that needs the network shows it */
  requestsOut: string[];
}

/** Opens a file as a user would from disk, keeping what went wrong on the way. */
export async function openFile({ context }: Browser, file: string): Promise<OpenedPage> {
  const page = await context.newPage();
  const errors: string[] = [];
  const requestsOut: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    requestsOut.push(url);
    return route.abort();
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return { page, errors, requestsOut };
}

export interface ChartMarks {
  chart: string;
  marks: number;
}

/**
 * Each chart of a report page with its number of drawn marks: a bar, dot or segment with a tooltip (every data mark
 * the report's charts draw carries one) and an area on screen. A chart whose data came out empty or NaN counts none.
 */
export function chartMarks(page: Page): Promise<ChartMarks[]> {
  return page.$$eval('.chart svg', (charts) =>
    charts.map((svg, i) => {
      const drawn = [...svg.querySelectorAll('rect, circle, path, polygon')].filter((shape) => {
        if (!shape.querySelector(':scope > title')) return false;
        const box = (shape as SVGGraphicsElement).getBBox();
        return box.width > 0 && box.height > 0 && Number.isFinite(box.x + box.y);
      });
      return { chart: svg.querySelector('text')?.textContent || `chart ${i + 1}`, marks: drawn.length };
    }),
  );
}

/**
 * Opens a report page: its charts, and everything a user would see go wrong — a chart without marks, a script error,
 * a request leaving the file.
 */
export async function openReport(browser: Browser, file: string) {
  const { page, errors, requestsOut } = await openFile(browser, file);
  const charts = await chartMarks(page);
  const problems = [
    ...charts.filter((chart) => chart.marks === 0).map((chart) => `no marks: ${chart.chart}`),
    ...errors,
    ...requestsOut.map((url) => `request: ${url}`),
  ];
  return { page, charts, problems };
}

/** The frames a flame graph drew (d3-flame-graph's `g.frame`), with their widths and whether the search highlights them. */
export function flameFrames(page: Page): Promise<{ name: string; width: number; highlighted: boolean }[]> {
  return page.$$eval('#chart svg g.frame', (frames) =>
    frames.map((frame) => {
      const rect = frame.querySelector('rect');
      return {
        name: frame.getAttribute('name') ?? '',
        width: Number(rect?.getAttribute('width')),
        highlighted: /^(#e600e6|rgb\(230, 0, 230\))$/i.test(rect?.getAttribute('fill') ?? ''),
      };
    }),
  );
}

const SETTLE_STEP_MS = 250;
const SETTLE_TIMEOUT_MS = 10_000;

/**
 * The flame graph's frames once it has stopped moving (d3-flame-graph animates its widths): two reads a step apart
 * alike. On a slow machine the first read can land mid-animation, with every frame still narrow.
 */
export async function settledFlameFrames(page: Page): Promise<{ name: string; width: number; highlighted: boolean }[]> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  let frames = await flameFrames(page);
  for (;;) {
    await page.waitForTimeout(SETTLE_STEP_MS);
    const again = await flameFrames(page);
    if (JSON.stringify(again) === JSON.stringify(frames) || Date.now() > deadline) return again;
    frames = again;
  }
}
