#!/usr/bin/env node
// @ts-check
// `npm run report -- DIR [--format bmf|github-benchmark]`: rebuild report.md and report.html from DIR/results.json
// without measuring anything, or write its numbers in a dashboard's format.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError, parseArgsOrRefuse, runCli } from '../errors.js';
import { analyze } from '../analysis/analyze.js';
import { FORMATS, exportFiles } from '../report/exports.js';
import { readRun, writeReports } from './run-reports.js';

const HELP = `Usage: npm run report -- DIR [--format ${FORMATS.join('|')}]

Rebuilds DIR/report.md and DIR/report.html from DIR/results.json (a directory written by npm run bench).

--format bmf               writes DIR/bmf.json in Bencher Metric Format: per target throughput (req/s) and latency
                           (p99, ns), per adapters' ratio a ratio measure, each with lower_value and upper_value from
                           its interval (bencher run --file DIR/bmf.json --adapter json)
--format github-benchmark  writes DIR/github-benchmark-bigger.json (req/s and ratios, for tool: customBiggerIsBetter)
                           and DIR/github-benchmark-smaller.json (p99 latency in ms, for tool: customSmallerIsBetter)`;

async function main() {
  const { values, positionals } = parseArgsOrRefuse({
    args: process.argv.slice(2),
    options: { format: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0
        ? 'missing DIR: npm run report -- DIR'
        : `expected one DIR, got: ${positionals.join(' ')}`,
    );
  const [dir] = positionals;
  const { format } = values;
  if (format !== undefined && !FORMATS.includes(format))
    throw new UsageError(`--format ${format}: expected one of ${FORMATS.join(', ')}`);
  if (format === undefined) {
    const { markdownFile, htmlFile } = await writeReports(dir, readRun(dir));
    console.log(`wrote ${markdownFile} and ${htmlFile}`);
    return;
  }
  const written = Object.entries(exportFiles(analyze(readRun(dir)), format)).map(([name, text]) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  });
  console.log(`wrote ${written.join(' and ')}`);
}

runCli(main);
