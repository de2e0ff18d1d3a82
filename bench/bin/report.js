#!/usr/bin/env node
// @ts-check
// `npm run report -- DIR`: rebuild report.md and report.html from DIR/results.json, without measuring anything.
import { UsageError, runCli } from '../errors.js';
import { readResults } from '../model/results.js';
import { writeReports } from './run-reports.js';

const HELP = `Usage: npm run report -- DIR

Rebuilds DIR/report.md and DIR/report.html from DIR/results.json (a directory written by npm run bench).`;

async function main() {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(HELP);
    return;
  }
  if (args.length !== 1 || args[0].startsWith('-')) {
    throw new UsageError(
      args.length === 0 ? 'missing DIR: npm run report -- DIR' : `expected one DIR, got: ${args.join(' ')}`,
    );
  }
  const { markdownFile, htmlFile } = await writeReports(args[0], readResults(args[0]));
  console.log(`wrote ${markdownFile} and ${htmlFile}`);
}

runCli(main);
