// @ts-check
// "Where the lead lives": every beyond profile's Fastify ÷ Express with its interval and verdict, or why it has none,
// with what each generator saw (connections it opened, whether it kept up).
import { NO_EXPRESS_SIDE, PROFILE_NOTES, SCENARIO_SETS } from '../model/beyond.js';
import { DASH, formatInterval, formatNumber, formatPercent, formatRatio } from './format.js';

/** @typedef {import('./rich-table.js').Table} Table */
/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */
/** @typedef {import('../model/results.js').Results} Results */

const PROFILES = new Set(SCENARIO_SETS.beyond);

/**
 * @param {Results} results @param {Analysis} analysis
 * @returns {Table}
 */
export function leadTable(results, analysis) {
  const measured = analysis.scenarios.filter((scenario) => PROFILES.has(scenario));
  const rows = analysis.runtimes.flatMap((runtime) =>
    measured.flatMap((scenario) =>
      analysis.stacks.map((stack) => profileRow(results, analysis, { runtime, scenario, stack })),
    ),
  );
  return {
    title: 'Where the lead lives',
    intro:
      'Every profile of `--scenarios beyond`: Nest-Fastify ÷ Nest-Express req/s with its interval and verdict, or why ' +
      'there is no ratio. Each answer was verified on both adapters (status, content type, body or its SHA-256) ' +
      'before it was timed. The generator column says what the load generator saw: the share of a core it used ' +
      '(near one core it may have been the bottleneck) and, where the server closes connections, how many it opened.',
    headers: ['runtime', 'profile', 'stack', 'Fastify ÷ Express', 'interval', 'verdict', 'generator', 'note'],
    align: ['left', 'left', 'left', 'right', 'right', 'left', 'left', 'left'],
    rows: rows.filter((row) => row !== null),
  };
}

/**
 * @param {Results} results @param {Analysis} analysis
 * @param {{ runtime: string, scenario: string, stack: string }} block
 * @returns {string[] | null}
 */
function profileRow(results, analysis, block) {
  const { runtime, scenario, stack } = block;
  const ratio = analysis.ratios.find(
    (row) => row.kind === 'adapters' && row.runtime === runtime && row.scenario === scenario && row.stack === stack,
  );
  const refused = results.verification.filter(
    (v) => !v.ok && v.runtime === runtime && v.scenario === scenario && (v.stack ?? 'bare') === stack,
  );
  const unpaired = NO_EXPRESS_SIDE[/** @type {keyof typeof NO_EXPRESS_SIDE} */ (scenario)];
  if (!ratio && refused.length === 0 && !unpaired) return null;
  const label = analysis.runtimeLabels[runtime] ?? runtime;
  const alone = analysis.targetRows.find(
    (row) => row.runtime === runtime && row.scenario === scenario && row.stack === stack && row.okRuns > 0,
  );
  const note = [
    ...(unpaired && alone ? [`${alone.target} alone: ${formatNumber(alone.rps.median)} req/s. ${unpaired}`] : []),
    ...(unpaired && !alone ? [unpaired] : []),
    ...refused.map((v) => `${v.target} refused: ${v.reason}`),
    ...(ratio?.tooSlow ?? []).map((slow) => `${slow.target} answered nothing within a run`),
    PROFILE_NOTES[/** @type {keyof typeof PROFILE_NOTES} */ (scenario)] ?? '',
  ]
    .filter(Boolean)
    .join('; ');
  if (!ratio || ratio.summary.n === 0)
    return [label, scenario, stack, DASH, DASH, 'no ratio', alone ? generatorCell(results, block) : DASH, note];
  return [
    label,
    scenario,
    stack,
    formatRatio(ratio.summary.median),
    formatInterval(ratio.summary.ci, (value) => formatRatio(value)),
    ratio.verdict ?? ratio.measuredVerdict ?? 'shown, not judged',
    generatorCell(results, block),
    note,
  ];
}

/**
 * The generator's own check over the block's runs: its busiest share of a core, and the connections it opened again
 * after the server closed one, per answer, where it counted them.
 * @param {Results} results @param {{ runtime: string, scenario: string, stack: string }} block
 */
function generatorCell(results, { runtime, scenario, stack }) {
  const runs = results.runs.filter(
    (run) =>
      run.status === 'ok' && run.runtime === runtime && run.scenario === scenario && (run.stack ?? 'bare') === stack,
  );
  const busiest = Math.max(0, ...runs.map((run) => run.generator?.cpuShare ?? 0));
  const counted = runs.filter((run) => typeof run.load?.connectionsOpened === 'number');
  const held = results.options.connections;
  const reopened = counted.reduce((sum, run) => sum + (run.load?.connectionsOpened ?? held) - held, 0);
  const requests = counted.reduce((sum, run) => sum + (run.load?.requests ?? 0), 0);
  const perAnswer = requests > 0 ? `; reopened ${formatNumber(reopened / requests, 2)} connections per answer` : '';
  const spoken = [...new Set(runs.map((run) => run.load?.protocol).filter(Boolean))];
  return `up to ${formatPercent(busiest)} of a core${perAnswer}${spoken.length ? `; spoke ${spoken.join(', ')}` : ''}`;
}
