#!/usr/bin/env node
// @ts-check
/**
 * `npm run profile:process -- <v8.log> [--out DIR]`: our corrected processing on any `--prof` log, e.g. one recorded
 * by hand with `nest start -e 'node --prof --no-logfile-per-isolate'`. Writes <name>.txt, .json and .html next to
 * the log (or into --out) and prints the summary.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import { USAGE_EXIT_CODE, UsageError, parseArgsOrRefuse } from '../errors.js';
import { tickShare, processProfileLog, describeSummary } from '../profile/process-log.js';

const TOP_SHOWN = 15;
const USAGE = `Usage: npm run profile:process -- <v8.log> [--out DIR]

Processes a V8 log recorded with node --prof (best with --no-logfile-per-isolate --no-short-builtin-calls) through
node's own tick processor with corrected C++ and builtin symbols, and writes <name>.txt (node --prof-process report),
<name>.json (summary) and <name>.html (flame graph) next to the log or into DIR.`;

/** @param {string[]} argv */
function parseCli(argv) {
  const parsed = parseArgsOrRefuse({
    args: argv,
    allowPositionals: true,
    options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (parsed.values.help) return null;
  if (parsed.positionals.length !== 1)
    throw new UsageError('give exactly one log file: npm run profile:process -- <v8.log> [--out DIR]');
  const logFile = path.resolve(parsed.positionals[0]);
  if (!existsSync(logFile)) throw new UsageError(`log file not found: ${parsed.positionals[0]}`);
  return { logFile, outDir: path.resolve(parsed.values.out ?? path.dirname(logFile)) };
}

async function main() {
  const options = parseCli(process.argv.slice(2));
  if (!options) {
    console.log(USAGE);
    return;
  }
  const name = path.basename(options.logFile).replace(/(\.v8)?\.log$/, '');
  await mkdir(options.outDir, { recursive: true });
  const { files, summary } = await processProfileLog(options.logFile, {
    outBase: path.join(options.outDir, name),
    title: name,
  });
  for (const line of describeSummary(summary)) console.log(line);
  console.log(`\ntop ${TOP_SHOWN} by self time:`);
  for (const fn of summary.functions.slice(0, TOP_SHOWN))
    console.log(`  ${tickShare(fn.selfShare).padStart(7)}  [${fn.group}] ${fn.name}`);
  console.log(`\nby group (self / with the native code it calls):`);
  for (const g of summary.groups)
    console.log(`  ${tickShare(g.selfShare).padStart(7)} / ${tickShare(g.callerShare).padStart(7)}  ${g.label}`);
  console.log(
    `\nwrote ${path.relative(process.cwd(), files.txt)}, ${path.relative(process.cwd(), files.json)}, ${path.relative(process.cwd(), files.html)}`,
  );
}

main().catch((error) => {
  if (error instanceof UsageError) {
    console.error(error.message);
    process.exitCode = USAGE_EXIT_CODE;
  } else {
    console.error(`profile:process failed: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  }
});
