// @ts-check
// What a run prints on stdout when it ends, by who reads it: a person, --quiet, a script (--json).
import { decisionJson } from './decision-json.js';
import { renderSummary, renderVerdict } from './markdown.js';

/**
 * With --json the decision as JSON and nothing else; with --quiet the verdict table; otherwise the answer and the main
 * tables.
 * @param {import('../model/results.js').Results} results read by the summary's lead table
 * @param {import('../analysis/analyze.js').Analysis} analysis
 * @param {{ quiet: boolean, json: boolean, files: Record<string, string> }} output files: what
 *   the run wrote, named in the JSON
 */
export function renderOutcome(results, analysis, { quiet, json, files }) {
  if (json) {
    const run = { complete: analysis.run.complete, stopReason: analysis.run.stopReason, files };
    return JSON.stringify(decisionJson(analysis, run), null, 2);
  }
  return quiet ? renderVerdict(analysis) : renderSummary(results, analysis);
}
