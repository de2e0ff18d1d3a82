#!/usr/bin/env node
// @ts-check
// `npm run compare -- A B [--out DIR]`: how far run B moved from run A, per target, scenario and ratio, with intervals.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError, runCli } from '../errors.js';
import { compareRuns } from '../analysis/comparison.js';
import { renderComparison } from '../report/comparison-report.js';
import { HTML_FILE, MARKDOWN_FILE } from '../report/write.js';
import { readResults } from '../model/results.js';

const HELP = `Usage: npm run compare -- A B [--out DIR]

Compares two directories written by npm run bench (two commits, two Nest or Node versions, on one machine): per
runtime, scenario and stack the change in the Fastify ÷ Express ratio and in each target's req/s from A to B, with a
95 % interval whose unit is the server start when the runs have several (--starts), flagged where the change is
beyond noise; with one start each no change is called beyond noise. Says so when A and B ran on different hosts.
Prints Markdown; with --out, writes DIR/${MARKDOWN_FILE} and DIR/${HTML_FILE} as well.`;

/** @param {string[]} argv */
function parseCompareArgs(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${/** @type {Error} */ (error).message.split('\n')[0]}; see --help`);
  }
  const { values, positionals } = parsed;
  if (values.help) return null;
  if (positionals.length !== 2)
    throw new UsageError(`expected two result directories A and B, got ${positionals.length}; see --help`);
  if (values.out !== undefined && values.out.trim() === '') throw new UsageError('--out needs a value; see --help');
  return { a: positionals[0], b: positionals[1], out: values.out ?? null };
}

async function main() {
  const args = parseCompareArgs(process.argv.slice(2));
  if (!args) {
    console.log(HELP);
    return;
  }
  const a = { dir: args.a, results: readResults(args.a) };
  const b = { dir: args.b, results: readResults(args.b) };
  const comparison = compareRuns(a, b);
  const { changes } = comparison;
  const { markdown, html } = renderComparison(comparison);
  if (!changes.length)
    throw new UsageError(
      `${args.a} and ${args.b} have no target × scenario × stack × runtime measured in both; nothing to compare`,
    );
  console.log(markdown);
  if (args.out) {
    mkdirSync(args.out, { recursive: true });
    writeFileSync(join(args.out, MARKDOWN_FILE), markdown);
    writeFileSync(join(args.out, HTML_FILE), html);
    console.log(`wrote ${join(args.out, MARKDOWN_FILE)} and ${join(args.out, HTML_FILE)}`);
  }
}

runCli(main);
