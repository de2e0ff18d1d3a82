// @ts-check
// What a run prints on stdout when it ends, by who reads it: a person at a terminal, a log, --quiet, a script (--json).
import { decisionJson } from './decision-json.js';
import { renderLogSummary, renderSummary, renderVerdict } from './markdown.js';

/**
 * With --json the decision as JSON and nothing else; with --quiet the verdict table; otherwise the answer and the main
 * tables on a terminal, and in a log the verdict, what it cannot say and what went wrong.
 * @param {import('../analysis/analyze.js').Analysis} analysis
 * @param {{ quiet: boolean, json: boolean, terminal: boolean, files: Record<string, string> }} output terminal: stdout
 *   is a terminal; files: what the run wrote, named in the JSON
 */
export function renderOutcome(analysis, { quiet, json, terminal, files }) {
  if (json) {
    const run = { complete: analysis.run.complete, stopReason: analysis.run.stopReason, files };
    return JSON.stringify(decisionJson(analysis, run), null, 2);
  }
  if (quiet) return renderVerdict(analysis);
  return terminal ? renderSummary(analysis) : renderLogSummary(analysis);
}
