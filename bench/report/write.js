// @ts-check
// Renders report.md, report.html and the pictures beside report.md (answer.svg, lead.svg) next to results.json, from
// results.json's content alone.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../analysis/analyze.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { escapeHtml } from './format.js';
import { ANSWER_SVG_FILE, answerChart } from './answer-chart.js';
import { LEAD_SVG_FILE, leadChart } from './lead-chart.js';

export const MARKDOWN_FILE = 'report.md';
export const HTML_FILE = 'report.html';

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
 * Every file of a run's report, by name, rendered from its results alone (answer.svg only when there is an answer,
 * lead.svg only when a beyond profile ran).
 * @param {string} dir where the report lives: profiles are linked relative to it
 * @param {import('../model/results.js').Results} results
 * @returns {Promise<{ analysis: import('../analysis/analyze.js').Analysis, files: Record<string, string> }>}
 */
export async function renderReports(dir, results) {
  const analysis = analyze(results);
  const profiles = await renderProfiles(results, dir);
  const answer = answerChart(analysis);
  const lead = leadChart(analysis);
  return {
    analysis,
    files: {
      [MARKDOWN_FILE]: renderMarkdown(analysis, { profiles }),
      [HTML_FILE]: renderHtml(analysis, { profiles }),
      ...(answer ? { [ANSWER_SVG_FILE]: `${answer}\n` } : {}),
      ...(lead ? { [LEAD_SVG_FILE]: `${lead}\n` } : {}),
    },
  };
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
