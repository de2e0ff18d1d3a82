#!/usr/bin/env node
// @ts-check
// `npm run check:references`: rebuilds every committed report under results/reference from its results.json (and each
// `npm run compare` report from its two runs) in memory and fails when a byte differs, saying whether numbers moved.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { UsageError, parseArgsOrRefuse, runCli } from '../errors.js';
import { RESULTS_FILE } from '../model/results.js';
import { compareRuns } from '../analysis/comparison.js';
import { renderComparison } from '../report/comparison-report.js';
import { HTML_FILE, MARKDOWN_FILE } from '../report/write.js';
import { readRun, renderReports } from './run-reports.js';
import { ANSWER_SVG_FILE } from '../report/answer-chart.js';
import { LEAD_SVG_FILE } from '../report/lead-chart.js';

const REFERENCE_ROOT = 'results/reference';
const COMPARISON_TITLE = '# Comparison of two bench runs';
/** Every file a report may consist of: one committed that is no longer rendered is a difference too. */
const REPORT_FILES = [MARKDOWN_FILE, HTML_FILE, ANSWER_SVG_FILE, LEAD_SVG_FILE];

const HELP = `Usage: npm run check:references [-- DIR...] [--write]

Rebuilds every report under DIR (default ${REFERENCE_ROOT}) from the results.json beside it, and every npm run compare
report there from the two runs its first lines name, without writing, and compares each file with the committed one.
Exits 0 when every byte is the same, 1 when a file differs (each named, with its first changed line and whether any
number in it moved). --write rewrites the files whose numbers did not move (a sentence changed on purpose) and still
exits 1 for any file whose numbers did.`;

/**
 * The report directories under root: a run (its results.json) or a comparison (a report naming runs A and B).
 * @param {string} root
 * @returns {Array<{ dir: string, kind: 'run' } | { dir: string, kind: 'comparison', a: string, b: string }>}
 */
export function reportDirs(root) {
  const entries = readdirSync(root, { withFileTypes: true });
  const names = new Set(entries.map((entry) => entry.name));
  /** @type {ReturnType<typeof reportDirs>} */
  const own = [];
  if (names.has(RESULTS_FILE)) own.push({ dir: root, kind: 'run' });
  else if (names.has(MARKDOWN_FILE)) {
    const markdown = readFileSync(join(root, MARKDOWN_FILE), 'utf8');
    const runDir = (/** @type {string} */ side) => markdown.match(new RegExp(`^${side}: (\\S+) \\(`, 'm'))?.[1];
    const [a, b] = [runDir('A'), runDir('B')];
    if (markdown.startsWith(COMPARISON_TITLE) && a && b) own.push({ dir: root, kind: 'comparison', a, b });
  }
  const below = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .flatMap((name) => reportDirs(join(root, name)));
  return [...own, ...below];
}

/**
 * @param {ReturnType<typeof reportDirs>[number]} entry
 * @returns {Promise<Record<string, string>>} each file's rebuilt text by name
 */
async function rebuild(entry) {
  if (entry.kind === 'run') return (await renderReports(entry.dir, readRun(entry.dir))).files;
  const { markdown, html } = renderComparison(
    compareRuns({ dir: entry.a, results: readRun(entry.a) }, { dir: entry.b, results: readRun(entry.b) }),
  );
  return { [MARKDOWN_FILE]: markdown, [HTML_FILE]: html };
}

/**
 * The numbers a reader sees: a page's style and tags (chart coordinates among them) left out.
 * @param {string} text
 */
const numbersOf = (text) =>
  text
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]*>/g, ' ')
    .match(/\d+(?:[.,]\d+)*/g) ?? [];

/**
 * How a rebuilt file differs from the committed one; null when they are the same bytes.
 * @param {string | null} committed null: no such file committed
 * @param {string | null} rebuilt null: no longer rendered
 * @returns {{ numbersMoved: boolean, committed: string, rebuilt: string } | null} the first differing line of each
 */
export function difference(committed, rebuilt) {
  if (committed === rebuilt) return null;
  const before = committed?.split('\n') ?? [];
  const after = rebuilt?.split('\n') ?? [];
  let line = 0;
  while (line < before.length && before[line] === after[line]) line++;
  const numbers = [numbersOf(committed ?? ''), numbersOf(rebuilt ?? '')];
  return {
    numbersMoved: numbers[0].join(' ') !== numbers[1].join(' '),
    committed: committed === null ? '(not committed)' : (before[line] ?? '(end of file)'),
    rebuilt: rebuilt === null ? '(no longer written)' : (after[line] ?? '(end of file)'),
  };
}

/**
 * Both lines from a little before where they first differ, so a long line shows its change.
 * @param {string} before @param {string} after
 */
function changedPart(before, after) {
  let column = 0;
  while (column < before.length && before[column] === after[column]) column++;
  const from = Math.max(0, column - 60);
  /** @param {string} line */
  const clip = (line) => `${from ? '…' : ''}${line.slice(from, from + 160)}${line.length > from + 160 ? '…' : ''}`;
  return `  - ${clip(before)}\n  + ${clip(after)}`;
}

async function main() {
  const { values, positionals } = parseArgsOrRefuse({
    options: { write: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const roots = positionals.length ? positionals : [REFERENCE_ROOT];
  for (const root of roots) if (!existsSync(root)) throw new UsageError(`${root} not found; see --help`);
  const dirs = roots.flatMap((root) => reportDirs(root));
  if (!dirs.length) throw new UsageError(`no results.json or comparison report under ${roots.join(', ')}`);
  let same = 0;
  let differing = 0;
  let moved = 0;
  let written = 0;
  for (const entry of dirs) {
    const files = await rebuild(entry);
    for (const name of REPORT_FILES) {
      const file = join(entry.dir, name);
      const committed = existsSync(file) ? readFileSync(file, 'utf8') : null;
      const change = difference(committed, files[name] ?? null);
      if (!change) {
        if (committed !== null) same++;
        continue;
      }
      differing++;
      if (change.numbersMoved) moved++;
      const fixed = values.write && !change.numbersMoved && files[name] !== undefined;
      if (fixed) {
        writeFileSync(file, files[name]);
        written++;
      }
      console.log(
        `${relative('.', file)}: ${change.numbersMoved ? 'numbers moved' : 'words changed, numbers the same'}${fixed ? ' (rewritten)' : ''}\n` +
          changedPart(change.committed, change.rebuilt),
      );
    }
  }
  const runs = dirs.filter((entry) => entry.kind === 'run').length;
  /** @param {number} count @param {string} noun */
  const counted = (count, noun) => `${count} ${noun}${count === 1 ? '' : 's'}`;
  console.log(
    `rebuilt ${counted(runs, 'run')} and ${counted(dirs.length - runs, 'comparison')}: ${same} files the same, ` +
      `${differing} different (${moved} with numbers moved)${written ? `, ${written} rewritten` : ''}`,
  );
  if (differing > written) process.exitCode = 1;
}

runCli(main);
