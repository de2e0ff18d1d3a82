// @ts-check
// "Where the lead lives" as a picture: every beyond profile's Fastify ÷ Express with its interval on the answer's axis
// and bands (answer-chart.js), and in words why a profile has no ratio. Shown above the lead table in report.html and
// written beside report.md as lead.svg.
import { answerChart } from './answer-chart.js';
import { escapeHtml } from './format.js';
import { leadProfiles } from './lead-table.js';
import { CONFIDENCE } from '../analysis/stats.js';
import { DECIDED_VERDICTS } from '../analysis/verdict.js';
import { RATE, metricSuffix } from '../model/metrics.js';

/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */
/** @typedef {import('./answer-chart.js').AnswerRow} AnswerRow */
/** @typedef {import('./lead-table.js').LeadProfile} LeadProfile */

/** The picture's file beside report.md. */
export const LEAD_SVG_FILE = 'lead.svg';
const CAPTION = 'Where the lead lives: Nest on Fastify ÷ Nest on Express on every profile beyond hello';

/**
 * Why a profile has no ratio, in the few words a chart row has room for.
 * @param {LeadProfile} profile
 */
function reasonWithout({ ratio, refused, unpaired }) {
  if (unpaired) return 'no Express side';
  if (refused.length) return `not verified (${refused.map((v) => v.target).join(', ')})`;
  return ratio?.tooSlow.length ? 'too slow to measure' : 'no ratio';
}

/**
 * @param {Analysis} analysis
 * @returns {AnswerRow[]}
 */
export function leadRows(analysis) {
  const several = analysis.runtimes.length > 1;
  return leadProfiles(analysis).map((profile) => {
    const { block, ratio } = profile;
    const metric = ratio?.metric ?? RATE;
    const label =
      [block.scenario, ...(analysis.stacks.length > 1 ? [block.stack] : [])].join(' · ') + metricSuffix(metric);
    const measured = ratio !== null && ratio.summary.n > 0 && Number.isFinite(ratio.summary.median);
    const verdict = ratio?.verdict ?? ratio?.measuredVerdict ?? 'inconclusive';
    return {
      runtime: block.runtime,
      label,
      metric,
      name: several ? `${block.runtime} · ${label}` : label,
      ratio: measured ? ratio.summary.median : null,
      interval: measured ? ratio.summary.ci : null,
      level: ratio?.starts?.interval?.coverage ?? CONFIDENCE,
      verdict,
      decided: measured && DECIDED_VERDICTS.includes(verdict),
      ...(measured ? {} : { reason: reasonWithout(profile) }),
    };
  });
}

/**
 * The picture as an SVG, or '' when the run measured no beyond profile.
 * @param {Analysis} analysis
 * @param {import('./answer-chart.js').Layout} [layout]
 */
export function leadChart(analysis, layout = 'wide') {
  return answerChart(analysis, layout, { rows: leadRows(analysis), sentence: CAPTION });
}

/**
 * The picture for report.html, drawn wide for a laptop and narrow for a phone (the page's stylesheet shows one, as
 * for the answer's), or '' when there is none.
 * @param {Analysis} analysis
 */
export function leadFigure(analysis) {
  const wide = leadChart(analysis, 'wide');
  if (!wide) return '';
  return (
    `<figure class="answer"><figcaption>${escapeHtml(CAPTION)}</figcaption>` +
    `${wide}${leadChart(analysis, 'narrow')}</figure>`
  );
}
