// @ts-check
/**
 * From a V8 `--prof` log to the four files of a profile: the log itself stays; `.txt` is node's own tick processor
 * report, `.json` our summary and `.html` the flame graph — all three over the load window only, with native code
 * symbolised correctly (symbols.js) so that ≤ 1 % of ticks stay unaccounted.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { analyzeTicks } from './tick-analysis.js';
import { renderFlameGraphHtml } from './flamegraph-html.js';
import { GROUPS } from './groups.js';
import { layerTicks } from './layers.js';
import { formatPercent } from '../report/format.js';
import { scanLog } from './v8-log.js';
import { symbolizeLibraries, writeSymbolTables } from './symbols.js';
import { rangeFlag, runTickProcessor, windowInWholeMs } from './tick-processor.js';

/**
 * @typedef {import('../model/profile-record.js').ProfileFiles} ProfileFiles
 * @typedef {import('../model/profile-record.js').GroupSummary} GroupSummary
 * @typedef {import('../model/profile-record.js').FunctionSummary} FunctionSummary
 * @typedef {import('../model/profile-record.js').ProfileSummary} ProfileSummary
 * @typedef {import('../model/profile-record.js').MeasuredCost} MeasuredCost
 * @typedef {import('../model/profile-record.js').ProfileContext} ProfileContext
 */

/** The most unaccounted ticks a profile may have (issue 4); above it, summaries say how to record better. */
export const UNACCOUNTED_LIMIT = 0.01;
const US_PER_MS = 1000;
const MS_PER_SEC = 1000;

/**
 * The load window from the marks load-marker.js left in the log; without them (a log recorded by hand), the whole log.
 * @param {import('./v8-log.js').LogScan} scan
 * @returns {import('./tick-processor.js').TickWindow}
 */
export function loadWindow(scan) {
  const start = scan.marks.find((m) => m.name === 'load-start');
  if (!start) return null;
  const end = scan.marks.find((m) => m.name === 'load-end' && m.timeUs > start.timeUs);
  return { startUs: start.timeUs, endUs: end?.timeUs ?? scan.lastTickUs ?? start.timeUs };
}

/** A profile's share of ticks: one decimal, two below 1 % (the unaccounted share is judged against 1 %). @param {number} share */
export const tickShare = (share) => formatPercent(share, share < 0.01 ? 2 : 1);

/**
 * @param {string} logFile
 * @param {{ outBase: string, title: string, node?: string, context?: ProfileContext | null }} options outBase: path
 *   without extension for .txt/.json/.html; context: kept in the .json, for profile:diff
 * @returns {Promise<{ files: ProfileFiles, summary: ProfileSummary }>}
 */
export async function processProfileLog(logFile, { outBase, title, node = process.execPath, context = null }) {
  const scan = await scanLog(logFile);
  if (scan.ticks === 0) throw new Error(`${logFile} has no ticks: was the process started with --prof?`);
  const window = loadWindow(scan);
  const files = { log: logFile, txt: `${outBase}.txt`, html: `${outBase}.html`, json: `${outBase}.json` };

  const work = await mkdtemp(path.join(os.tmpdir(), 'bench-profile-'));
  try {
    const symbolsDir = path.join(work, 'symbols');
    await writeSymbolTables(
      await symbolizeLibraries(scan.libraries, scan.tickAddresses, { builtins: scan.builtins }),
      symbolsDir,
    );
    const report = path.join(work, 'report.txt');
    const preprocessed = path.join(work, 'preprocessed.json');
    await Promise.all([
      runTickProcessor({ node, logFile, symbolsDir, window, outFile: report }),
      runTickProcessor({ node, logFile, symbolsDir, window, preprocess: true, outFile: preprocessed }),
    ]);
    const analysis = analyzeTicks(preprocessedJson(await readFile(preprocessed, 'utf8')));
    const summary = summarize({ title, scan, window, analysis, node, context });
    const facts = describeSummary(summary);
    await writeFile(
      files.txt,
      `${facts.map((line) => `# ${line}`).join('\n')}\n# Made by: ${reproduceCommand(node, logFile, window)}\n\n${await readFile(report, 'utf8')}`,
    );
    await writeFile(files.json, summaryJson(summary));
    const groupShares = new Map(summary.groups.map((g) => [g.id, g.selfShare]));
    await writeFile(files.html, renderFlameGraphHtml({ title, lines: facts, flame: analysis.flame, groupShares }));
    return { files, summary };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * The tick processor's `--preprocess` output: a node reading another V8's log (Deno's) first prints "Testing v8 version
 * different from logging version" on the same stream.
 * @param {string} text
 */
function preprocessedJson(text) {
  return JSON.parse(text.slice(text.indexOf('{')));
}

/**
 * The summary indented for reading, its call tree (for profile:diff) on one line: indented, it would be most of the file.
 * @param {ProfileSummary} summary
 */
function summaryJson(summary) {
  const { flame, ...rest } = summary;
  return `${JSON.stringify(rest, null, 2).replace(/\n}$/, `,\n  "flame": ${JSON.stringify(flame)}\n}`)}\n`;
}

/**
 * @param {string} node @param {string} logFile @param {import('./tick-processor.js').TickWindow} window
 */
function reproduceCommand(node, logFile, window) {
  return `${path.basename(node)} --prof-process --nm=<bench/profile/nm-shim.sh> --objdump=<same> ${rangeFlag(window).join(' ')} ${path.basename(logFile)} (symbols from bench/profile/symbols.js)`.replace(
    / {2,}/g,
    ' ',
  );
}

/**
 * @param {{ title: string, scan: import('./v8-log.js').LogScan, window: import('./tick-processor.js').TickWindow, analysis: import('./tick-analysis.js').Analysis, node: string, context: ProfileContext | null }} input
 * @returns {ProfileSummary}
 */
function summarize({ title, scan, window, analysis, node, context }) {
  const { ticks } = analysis;
  const share = (/** @type {number} */ n) => (ticks ? n / ticks : 0);
  const { startMs, endMs } = window ? windowInWholeMs(window) : { startMs: null, endMs: null };
  const labels = new Map(GROUPS.map((g) => [g.id, g.label]));
  const order = GROUPS.map((g) => g.id);
  const caller = new Map(analysis.callerGroups.map((g) => [g.id, g.ticks]));
  return {
    title,
    v8Version: scan.v8Version,
    processedWith: `${node} --prof-process`,
    window: {
      source: window ? 'load marks' : 'whole log',
      startMs,
      endMs,
      durationSec: window && startMs !== null && endMs !== null ? (endMs - startMs) / MS_PER_SEC : null,
    },
    ticks: {
      inLog: scan.ticks,
      beforeWindow: startMs === null ? 0 : scan.tickTimesUs.filter((t) => t < startMs * US_PER_MS).length,
      afterWindow: endMs === null ? 0 : scan.tickTimesUs.filter((t) => t > endMs * US_PER_MS).length,
      inWindow: ticks,
      unaccounted: analysis.unaccounted,
      unaccountedShare: analysis.unaccountedShare,
      unnamedNative: analysis.unnamedNative,
      noPc: analysis.noPc,
    },
    vmStates: analysis.vmStates,
    groups: analysis.groups
      .map((g) => ({
        id: g.id,
        label: labels.get(g.id) ?? g.id,
        selfTicks: g.selfTicks,
        selfShare: share(g.selfTicks),
        callerTicks: caller.get(g.id) ?? 0,
        callerShare: share(caller.get(g.id) ?? 0),
        totalTicks: g.totalTicks,
        totalShare: share(g.totalTicks),
      }))
      .sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id)),
    functions: analysis.functions.map((f) => ({
      ...f,
      selfShare: share(f.selfTicks),
      totalShare: share(f.totalTicks),
    })),
    layers: layerTicks(analysis.functions),
    context,
    flame: analysis.flame,
  };
}

/**
 * The facts every summary states, the unaccounted share among them.
 * @param {ProfileSummary} summary
 */
export function describeSummary(summary) {
  const { window, ticks } = summary;
  const span =
    window.source === 'load marks'
      ? `load window ${window.startMs}–${window.endMs} ms of the log (${window.durationSec?.toFixed(1)} s, between the load marks)`
      : 'whole log (no load marks: start-up included)';
  const lines = [
    `${span}; ${ticks.inWindow} ticks (${ticks.beforeWindow} before the load and ${ticks.afterWindow} after it left out)`,
    `unaccounted: ${ticks.unaccounted} ticks = ${tickShare(ticks.unaccountedShare)}; in a library without a symbol: ${ticks.unnamedNative}` +
      // absent from profiles processed before no-pc ticks were told apart
      (ticks.noPc ? `; no pc sampled (named by V8's state): ${ticks.noPc}` : ''),
  ];
  if (ticks.unaccountedShare > UNACCOUNTED_LIMIT) {
    lines.push(
      `more than ${tickShare(UNACCOUNTED_LIMIT)} unaccounted, at pcs in no code V8 logged and no library: a log recorded without --no-short-builtin-calls leaves them in the copies V8 makes of its builtins`,
    );
  }
  return lines;
}
