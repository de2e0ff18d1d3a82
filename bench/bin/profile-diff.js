#!/usr/bin/env node
// @ts-check
/**
 * `npm run profile:diff -- A B [--out DIR]`: differential profiles of saved profiles — A the older (the baseline), B
 * the newer. A and B are two profiles (a profile's .json, or any of its files: .v8.log, .txt, .html) or two
 * directories of them (every profile name found in both). Prints the tables and writes <name>.diff-<a>-vs-<b>.md and
 * .html (the differential flame graph) into DIR, or beside B's profiles.
 */
import { existsSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import { UsageError, parseArgsOrRefuse, runCli } from '../errors.js';
import { profilePairs } from '../profile/diff.js';
import { writeProfileDiff } from '../profile/diff-files.js';
import { renderDiffMarkdown } from '../profile/diff-tables.js';

const USAGE = `Usage: npm run profile:diff -- A B [--out DIR]

Compares two saved profiles, A the older (baseline) and B the newer: which layers, groups and functions gained or lost
share of the busy ticks, in µs of CPU per request where the bench measured it, and a differential flame graph (B's
call tree, red where a frame's self time grew, blue where it shrank, hatched where A has no such frame).

A, B   two profiles — a profile's .json or any of its files (.v8.log, .txt, .html) as npm run bench -- --prof or
       npm run profile:process wrote them — or two directories of profiles (each name found in both is compared)
--out  where the .diff-*.md and .diff-*.html files go (default: B's directory)`;

/** @param {string[]} argv */
function parseCli(argv) {
  const parsed = parseArgsOrRefuse({
    args: argv,
    allowPositionals: true,
    options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (parsed.values.help) return null;
  if (parsed.positionals.length !== 2)
    throw new UsageError(
      `give two profiles or two directories, the older first: npm run profile:diff -- A B (got ${parsed.positionals.length})`,
    );
  const [a, b] = parsed.positionals.map((p) => path.resolve(p));
  const out = parsed.values.out === undefined ? null : path.resolve(parsed.values.out);
  if (out !== null && existsSync(out) && !statSync(out).isDirectory())
    throw new UsageError(`--out ${parsed.values.out} is a file, not a directory`);
  return { a, b, out };
}

async function main() {
  const options = parseCli(process.argv.slice(2));
  if (!options) {
    console.log(USAGE);
    return;
  }
  const pairs = profilePairs(options.a, options.b);
  for (const { older, newer } of pairs) {
    const outDir = options.out ?? path.dirname(newer.file);
    await mkdir(outDir, { recursive: true });
    const { diff, files } = await writeProfileDiff(older, newer, outDir);
    console.log(renderDiffMarkdown(diff));
    console.log(`wrote ${path.relative(process.cwd(), files.md)}, ${path.relative(process.cwd(), files.html)}\n`);
  }
}

runCli(main);
