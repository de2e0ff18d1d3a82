// @ts-check
/**
 * Writes differential profiles: <name>.diff-<older>-vs-<newer>.md (the tables) and .html (the differential flame
 * graph), for `npm run profile:diff` and, after a profiled run on several runtimes, for each pair profiled on two of
 * them in turn.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

import { diffProfiles, loadProfile } from './diff.js';
import { renderDiffFlameGraphHtml } from './diff-flamegraph-html.js';
import { renderDiffMarkdown } from './diff-tables.js';

/** @typedef {import('./diff.js').SavedProfile} SavedProfile */
/** @typedef {import('./diff.js').ProfileDiff} ProfileDiff */
/** @typedef {import('./profile-targets.js').ProfileRecord} ProfileRecord */
/**
 * @typedef {import('../model/profile-record.js').ProfileDiffRecord} ProfileDiffRecord
 */

/** A file-name-safe tag for one side: "node-24.21.0". @param {string} label */
const tag = (label) => label.replace(/[^\w.-]+/g, '-');

/**
 * @param {SavedProfile} older @param {SavedProfile} newer
 * @param {string} outDir
 * @returns {Promise<{ diff: ProfileDiff, files: { md: string, html: string } }>}
 */
export async function writeProfileDiff(older, newer, outDir) {
  const diff = diffProfiles(older, newer);
  const base = path.join(
    outDir,
    older.name === newer.name
      ? `${newer.name}.diff-${tag(diff.older.label)}-vs-${tag(diff.newer.label)}`
      : `${older.name}-vs-${newer.name}.diff`,
  );
  const files = { md: `${base}.md`, html: `${base}.html` };
  await writeFile(files.md, `${renderDiffMarkdown(diff, { flameGraph: path.basename(files.html) })}\n`);
  await writeFile(files.html, renderDiffFlameGraphHtml(diff));
  return { diff, files };
}

/**
 * After a profiled run on several runtimes: each runtime against the one before it (in --runtime's order), for every
 * target × scenario × stack profiled on both. The diffs go into the directory above the runtimes' own.
 * @param {ProfileRecord[]} records
 * @param {{ log: (line: string) => void }} io
 * @returns {Promise<ProfileDiffRecord[]>}
 */
export async function diffRuntimes(records, { log }) {
  const saved = records.filter((r) => r.files && r.summary);
  const runtimes = [...new Set(saved.map((r) => `${r.runtime.name}@${r.runtime.version}`))];
  /** @type {ProfileDiffRecord[]} */
  const out = [];
  for (let i = 1; i < runtimes.length; i += 1) {
    const on = (/** @type {string} */ key) => saved.filter((r) => `${r.runtime.name}@${r.runtime.version}` === key);
    const olderRecords = on(runtimes[i - 1]);
    for (const newer of on(runtimes[i])) {
      const older = olderRecords.find(
        (r) => r.target === newer.target && r.scenario === newer.scenario && r.stack === newer.stack,
      );
      if (!older?.files || !newer.files) continue;
      try {
        const outDir = path.dirname(path.dirname(newer.files.json));
        const { diff, files } = await writeProfileDiff(
          loadProfile(older.files.json),
          loadProfile(newer.files.json),
          outDir,
        );
        const { newerFlame: _newer, olderFlame: _older, ...rows } = diff;
        log(`profile diff: ${path.relative(process.cwd(), files.md)} (tables), .html (differential flame graph)`);
        out.push({
          target: newer.target,
          scenario: newer.scenario,
          stack: newer.stack,
          older: runtimes[i - 1],
          newer: runtimes[i],
          files,
          diff: rows,
        });
      } catch (error) {
        log(`profile diff of ${newer.target} ${newer.scenario} failed: ${/** @type {Error} */ (error).message}`);
      }
    }
  }
  return out;
}
