// @ts-check
// A run's report from its results.json: the Analysis computed once, the profiles section rendered by bench/profile,
// and the files written next to results.json. Composed here so that report/ imports neither analysis' entry nor
// profile/.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../analysis/analyze.js';
import { readResults } from '../model/results.js';
import { withRecordedFindings } from '../own-app/findings/switching.js';
import { escapeHtml } from '../report/format.js';
import { HTML_FILE, MARKDOWN_FILE, reportFiles } from '../report/write.js';

/**
 * The profiles section is rendered by bench/profile (its own module, loaded only when a run has profiles).
 * @param {import('../model/results.js').Results} results @param {string} dir
 */
async function renderProfiles({ profiles, profileDiffs = [] }, dir) {
  if (!profiles?.length) return { markdown: '', html: '' };
  try {
    const { renderProfilesMarkdown, renderProfilesHtml } = await import('../profile/profile-targets.js');
    return {
      markdown: renderProfilesMarkdown(profiles, dir, profileDiffs),
      html: renderProfilesHtml(profiles, dir, profileDiffs),
    };
  } catch (error) {
    const note = `Profiles were recorded but could not be rendered: ${/** @type {Error} */ (error).message}`;
    return { markdown: `### Profiles\n\n${note}\n`, html: `<h2>Profiles</h2><p>${escapeHtml(note)}</p>` };
  }
}

/**
 * Every file of a run's report, by name, rendered from its results alone.
 * @param {string} dir where the report lives: profiles are linked relative to it
 * @param {import('../model/results.js').Results} results
 * @returns {Promise<{ analysis: import('../analysis/analyze.js').Analysis, files: Record<string, string> }>}
 */
export async function renderReports(dir, results) {
  const analysis = analyze(withRecordedFindings(results));
  const profiles = await renderProfiles(results, dir);
  return { analysis, files: reportFiles(analysis, { profiles }) };
}

/**
 * @param {string} dir
 * @param {import('../model/results.js').Results} results
 * @returns {Promise<{ analysis: import('../analysis/analyze.js').Analysis, markdownFile: string, htmlFile: string }>}
 */
export async function writeReports(dir, results) {
  const { analysis, files } = await renderReports(dir, results);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { analysis, markdownFile: join(dir, MARKDOWN_FILE), htmlFile: join(dir, HTML_FILE) };
}

/**
 * A run's results.json as the analysis reads it: a --nest-app run written before its check recorded its findings gets
 * them judged once, here, so analysis/ sums records and imports no own-app/.
 * @param {string} dir
 * @returns {import('../model/results.js').Results}
 */
export function readRun(dir) {
  return withRecordedFindings(readResults(dir));
}
