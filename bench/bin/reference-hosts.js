#!/usr/bin/env node
// @ts-check
// The committed reference runs' headlines, one host each, that a run of the built-in app is placed among
// (analysis/host-placing.js). `node bench/bin/reference-hosts.js` rebuilds the index from results/reference/*/
// results.json; a run records the index as it stands when it starts.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze } from '../analysis/analyze.js';
import { referenceEntries } from '../analysis/host-placing.js';
import { RESULTS_FILE } from '../model/results.js';
import { readRun } from './run-reports.js';

/** The index, shipped with the bench. */
export const REFERENCE_HOSTS_FILE = fileURLToPath(new URL('reference-hosts.json', import.meta.url));
const REFERENCE_ROOT = 'results/reference';

/**
 * Whether a committed run is one a default run can be placed among: the built-in app, its servers started afresh
 * under the budget and loaded together, as the default run does (docs/method.md); experiments and other designs are
 * not references for it.
 * @param {import('../model/results.js').Results} results
 */
function madeLikeTheDefault(results) {
  const { design } = results.plan;
  const builtIn = !results.config || results.config.source === 'built-in';
  return builtIn && design.kind === 'budgeted-starts' && results.options.pairing === 'together' && results.complete;
}

/**
 * The index from the reference runs under root, one folder deep (the runs the README cites, not the experiments
 * below them), in folder order.
 * @param {string} [root] from the repository's root
 * @returns {import('../analysis/host-placing.js').ReferenceHost[]}
 */
export function buildReferenceHosts(root = REFERENCE_ROOT) {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, RESULTS_FILE)))
    .map((entry) => join(root, entry.name))
    .sort()
    .flatMap((dir) => {
      const results = readRun(dir);
      return madeLikeTheDefault(results) ? referenceEntries(dir, results, analyze(results).ratios) : [];
    });
}

/** @returns {import('../analysis/host-placing.js').ReferenceHost[]} the committed index */
export function committedReferenceHosts() {
  return JSON.parse(readFileSync(REFERENCE_HOSTS_FILE, 'utf8'));
}

/** @param {import('../analysis/host-placing.js').ReferenceHost[]} hosts */
export const referenceHostsText = (hosts) => `${JSON.stringify(hosts, null, 2)}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const hosts = buildReferenceHosts();
  writeFileSync(REFERENCE_HOSTS_FILE, referenceHostsText(hosts));
  console.log(
    `wrote ${hosts.length} headlines from ${new Set(hosts.map((h) => h.run)).size} runs to ${REFERENCE_HOSTS_FILE}`,
  );
}
