#!/usr/bin/env node
// @ts-check
// `npm run compare -- A B [--out DIR] [--fail-if-slower PCT]`: how far run B moved from run A, per target, scenario
// and ratio, with intervals; with --fail-if-slower, a gate for CI.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SLOWER_EXIT_CODE, UsageError, runCli } from '../errors.js';
import { parseSlowerPercent } from '../run/flag-values.js';
import { compareRuns, gateCanJudge, slowerThan } from '../analysis/comparison.js';
import { gateLines, renderComparison } from '../report/comparison-report.js';
import { HTML_FILE, MARKDOWN_FILE } from '../report/write.js';
import { readRun } from './run-reports.js';

const HELP = `Usage: npm run compare -- A B [--out DIR] [--fail-if-slower PCT]

Compares two directories written by npm run bench (two commits, two Nest or Node versions, on one machine): per
runtime, scenario and stack the change in the Fastify ÷ Express ratio and in each target's req/s from A to B, with a
95 % interval whose unit is the server start when the runs have several (--starts), flagged where the change is
beyond noise; with one start each no change is called beyond noise. Says so when A and B ran on different hosts.
Prints Markdown; with --out, writes DIR/${MARKDOWN_FILE} and DIR/${HTML_FILE} as well. With $GITHUB_STEP_SUMMARY set,
appends the Markdown there too.

--fail-if-slower PCT  exit ${SLOWER_EXIT_CODE} when any target's req/s in B is decided slower than A by more than PCT %
                      (its whole start-level interval below −PCT %), naming each; needs server starts in the runs
                      (--starts, three or more in A and B together). Two runs made apart carry their starts' levels:
                      the interval includes them, so a gate between runs on a noisy machine decides less often.`;

/** @param {string[]} argv */
function parseCompareArgs(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        out: { type: 'string' },
        'fail-if-slower': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
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
  return {
    a: positionals[0],
    b: positionals[1],
    out: values.out ?? null,
    failIfSlower:
      values['fail-if-slower'] === undefined ? null : parseSlowerPercent('--fail-if-slower', values['fail-if-slower']),
  };
}

async function main() {
  const args = parseCompareArgs(process.argv.slice(2));
  if (!args) {
    console.log(HELP);
    return;
  }
  const a = { dir: args.a, results: readRun(args.a) };
  const b = { dir: args.b, results: readRun(args.b) };
  const comparison = compareRuns(a, b);
  const { changes } = comparison;
  const { markdown, html } = renderComparison(comparison);
  if (!changes.length)
    throw new UsageError(
      `${args.a} and ${args.b} have no target × scenario × stack × runtime measured in both; nothing to compare`,
    );
  console.log(markdown);
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${markdown}\n`);
  if (args.out) {
    mkdirSync(args.out, { recursive: true });
    writeFileSync(join(args.out, MARKDOWN_FILE), markdown);
    writeFileSync(join(args.out, HTML_FILE), html);
    console.log(`wrote ${join(args.out, MARKDOWN_FILE)} and ${join(args.out, HTML_FILE)}`);
  }
  if (args.failIfSlower !== null) gate(changes, args.failIfSlower);
}

/**
 * @param {import('../analysis/comparison.js').Change[]} changes @param {number} fraction the threshold, 0.05 for 5 %
 */
function gate(changes, fraction) {
  if (!gateCanJudge(changes))
    throw new UsageError(
      '--fail-if-slower needs intervals over server starts: run A and B with --starts (three or more together)',
    );
  const slower = slowerThan(changes, fraction);
  const lines = gateLines(slower, fraction);
  console.error(lines.join('\n'));
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${lines.join('\n\n')}\n`);
  if (slower.length) process.exitCode = SLOWER_EXIT_CODE;
}

runCli(main);
