// @ts-check
// "Where the lead lives": every beyond profile's Fastify ÷ Express with its interval and verdict, or why it has none,
// with what each generator saw (connections it opened, whether it kept up).
import { NO_EXPRESS_SIDE, PROFILE_NOTES, SCENARIO_SETS } from '../model/beyond.js';
import { median } from '../maths/quantile.js';
import { DASH, formatInterval, formatNumber, formatPercent, formatRatio } from './format.js';

/** @typedef {import('./rich-table.js').Table} Table */
/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */
/** @typedef {import('../model/results.js').Results} Results */
/** @typedef {import('../model/results.js').RunRecord} RunRecord */

const PROFILES = new Set(SCENARIO_SETS.beyond);

/**
 * One profile's row of the lead, whatever shows it (the table here, the chart in lead-chart.js).
 * @typedef {object} LeadProfile
 * @property {{ runtime: string, scenario: string, stack: string }} block
 * @property {import('../analysis/analyze.js').RatioRow | null} ratio null, or with no paired round: no ratio
 * @property {Results['verification']} refused the adapters' answers verification refused
 * @property {string | null} unpaired why the profile has no Express side
 * @property {import('../analysis/analyze.js').TargetRow | null} alone the first target that answered, for a profile
 *   without a pair
 */

/**
 * Every beyond profile the run measured or refused, in the analysis' order of runtimes, scenarios and stacks.
 * @param {Results} results @param {Analysis} analysis
 * @returns {LeadProfile[]}
 */
export function leadProfiles(results, analysis) {
  const measured = analysis.scenarios.filter((scenario) => PROFILES.has(scenario));
  return analysis.runtimes.flatMap((runtime) =>
    measured.flatMap((scenario) =>
      analysis.stacks.flatMap((stack) => {
        const profile = leadProfile(results, analysis, { runtime, scenario, stack });
        return profile ? [profile] : [];
      }),
    ),
  );
}

/**
 * @param {Results} results @param {Analysis} analysis
 * @param {{ runtime: string, scenario: string, stack: string }} block
 * @returns {LeadProfile | null}
 */
function leadProfile(results, analysis, block) {
  const { runtime, scenario, stack } = block;
  const ratio = analysis.ratios.find(
    (row) => row.judged && row.runtime === runtime && row.scenario === scenario && row.stack === stack,
  );
  const refused = results.verification.filter(
    (v) => !v.ok && v.runtime === runtime && v.scenario === scenario && (v.stack ?? 'bare') === stack,
  );
  // a profile without an Express side has a row where its Fastify side was planned, verified or not
  const planned = results.verification.some(
    (v) => v.runtime === runtime && v.scenario === scenario && (v.stack ?? 'bare') === stack,
  );
  const unpaired = (planned && NO_EXPRESS_SIDE[/** @type {keyof typeof NO_EXPRESS_SIDE} */ (scenario)]) || null;
  if (!ratio && refused.length === 0 && !unpaired) return null;
  const alone = analysis.targetRows.find(
    (row) => row.runtime === runtime && row.scenario === scenario && row.stack === stack && row.okRuns > 0,
  );
  return { block, ratio: ratio ?? null, refused, unpaired, alone: alone ?? null };
}

/**
 * @param {Results} results @param {Analysis} analysis
 * @returns {Table}
 */
export function leadTable(results, analysis) {
  return {
    title: 'Where the lead lives',
    intro:
      'Every profile of `--scenarios beyond`: Nest-Fastify ÷ Nest-Express req/s with its interval and verdict, or why ' +
      'there is no ratio. Each answer was verified on both adapters (status, content type, body or its SHA-256) ' +
      'before it was timed. Each profile runs with its own load where the default would not fit it (large bodies on ' +
      'fewer connections, idle connections paced). The generator column is its own check: whether it kept up (under ' +
      'a core, no socket errors or timeouts, a paced run answered before its next request was due), the connections it opened, the protocol it spoke. ' +
      'The servers column names what each profile ran on: nest-fastify and nest-express are the app as `nest new` ' +
      'makes it; their -transfer twins add the body, upload, static-file and stream routes (APP_TRANSFER=1, with ' +
      "@fastify/multipart's hook and express.static's middleware), which only the profiles that use them run on; the " +
      '-tls, -h2 and -h2c twins speak those protocols. ' +
      'The same as a picture: lead.svg beside report.md, and above this table in report.html.',
    headers: [
      'runtime',
      'profile',
      'load',
      'stack',
      'servers',
      'Fastify ÷ Express',
      'interval',
      'verdict',
      'generator',
      'note',
    ],
    align: ['left', 'left', 'left', 'left', 'left', 'right', 'right', 'left', 'left', 'left'],
    rows: leadProfiles(results, analysis).map((profile) => profileRow(results, analysis, profile)),
  };
}

/**
 * @param {Results} results @param {Analysis} analysis @param {LeadProfile} profile
 * @returns {string[]}
 */
function profileRow(results, analysis, { block, ratio, refused, unpaired, alone }) {
  const { runtime, scenario, stack } = block;
  const label = analysis.runtimeLabels[runtime] ?? runtime;
  const note = [
    ...(unpaired && alone ? [`${alone.target} alone: ${formatNumber(alone.rps.median)} req/s. ${unpaired}`] : []),
    ...(unpaired && !alone ? [unpaired] : []),
    ...refused.map((v) => `${v.target} refused: ${v.reason}`),
    ...(ratio?.tooSlow ?? []).map((slow) => `${slow.target} answered nothing within a run`),
    ...memoryPerConnection(results, block),
    PROFILE_NOTES[/** @type {keyof typeof PROFILE_NOTES} */ (scenario)] ?? '',
  ]
    .filter(Boolean)
    .join('; ');
  const load = loadCell(results, scenario);
  const servers = ratio
    ? `${ratio.numerator} ÷ ${ratio.denominator}`
    : [...new Set([...refused.map((v) => v.target), ...(alone ? [alone.target] : [])])].join(', ') || DASH;
  if (!ratio || ratio.summary.n === 0)
    return [
      label,
      scenario,
      load,
      stack,
      servers,
      DASH,
      DASH,
      'no ratio',
      alone ? generatorCell(results, block) : DASH,
      note,
    ];
  return [
    label,
    scenario,
    load,
    stack,
    servers,
    formatRatio(ratio.summary.median),
    formatInterval(ratio.summary.ci, (value) => formatRatio(value)),
    ratio.verdict ?? ratio.measuredVerdict ?? 'shown, not judged',
    generatorCell(results, block),
    note,
  ];
}

const MS_PER_SEC = 1000;
const KIB_PER_MIB = 1024;

/**
 * @param {Results} results @param {{ runtime: string, scenario: string, stack: string }} block
 * @returns {RunRecord[]}
 */
function blockRuns(results, { runtime, scenario, stack }) {
  return results.runs.filter(
    (run) =>
      run.status === 'ok' && run.runtime === runtime && run.scenario === scenario && (run.stack ?? 'bare') === stack,
  );
}

/**
 * The load a profile ran with: its own (config.js: ScenarioLoad) where it has one, else the run's flags.
 * @param {Results} results @param {string} scenario
 */
function profileLoad(results, scenario) {
  const own = results.config?.scenarios.find((entry) => entry.name === scenario)?.load;
  return {
    connections: own?.connections ?? results.options.connections,
    connectionRate: own?.connectionRate ?? null,
    requestsPerConnection: own?.requestsPerConnection ?? null,
    shortestSec: own?.durationSec ?? 0,
  };
}

/** @param {Results} results @param {string} scenario */
function loadCell(results, scenario) {
  const { connections, connectionRate, requestsPerConnection, shortestSec } = profileLoad(results, scenario);
  return [
    `${formatNumber(connections)} connections`,
    ...(connectionRate === null ? [] : [`${formatNumber(connectionRate, 1)} req/s each`]),
    ...(requestsPerConnection === 1 ? ['a new one per request'] : []),
    ...((requestsPerConnection ?? 0) > 1 ? [`a new one every ${formatNumber(requestsPerConnection)} requests`] : []),
    ...(shortestSec ? [`runs ≥ ${formatNumber(shortestSec)} s`] : []),
  ].join(', ');
}

/**
 * The generator's own check over the block's runs: whether it kept up (below a core, no socket errors or timeouts,
 * and a paced run's answers back within a connection's mean wait, so no request waited for the one before it), what
 * a paced run offered and answered, the connections it opened where it counted them, and the protocol it spoke.
 * @param {Results} results @param {{ runtime: string, scenario: string, stack: string }} block
 */
function generatorCell(results, block) {
  const runs = blockRuns(results, block);
  const { connections, connectionRate } = profileLoad(results, block.scenario);
  const busiest = Math.max(0, ...runs.map((run) => run.generator?.cpuShare ?? 0));
  const failed = runs.reduce((sum, run) => sum + (run.load?.errors ?? 0) + (run.load?.timeouts ?? 0), 0);
  const slowestP99 = Math.max(0, ...runs.map((run) => run.load?.latencyMs?.p99 ?? 0));
  const meanWaitMs = connectionRate === null ? null : MS_PER_SEC / connectionRate;
  const lagging = [
    ...(runs.some((run) => run.generator?.saturated) ? [`used ${formatPercent(busiest)} of a core`] : []),
    ...(failed > 0
      ? [`${formatNumber(failed)} socket ${failed === 1 ? 'error or timeout' : 'errors or timeouts'}`]
      : []),
    ...(meanWaitMs !== null && slowestP99 >= meanWaitMs
      ? [`p99 ${formatNumber(slowestP99)} ms, past the ${formatNumber(meanWaitMs)} ms between requests`]
      : []),
  ];
  const kept = lagging.length
    ? `did not keep up (${lagging.join(', ')})`
    : `kept up (≤ ${formatPercent(busiest)} of a core)`;
  const answered = runs.map((run) => run.load?.rps ?? 0);
  const paced =
    connectionRate === null || !answered.length
      ? ''
      : `; offered ${formatNumber(connections * connectionRate)} req/s, answered ${formatNumber(Math.min(...answered))}–${formatNumber(Math.max(...answered))}`;
  const counted = runs.filter((run) => typeof run.load?.connectionsOpened === 'number');
  const opened = counted.reduce((sum, run) => sum + (run.load?.connectionsOpened ?? 0), 0);
  const requests = counted.reduce((sum, run) => sum + (run.load?.requests ?? 0), 0);
  const reopened = opened - connections * counted.length;
  const perAnswer =
    reopened > 0 && requests > 0
      ? ` (${formatNumber(connections)}, then ${formatNumber(reopened / requests, 2)} per answer)`
      : '';
  const openedCell = counted.length
    ? `; opened ${formatNumber(opened / counted.length)} connections a run${perAnswer}`
    : '';
  const spoken = [...new Set(runs.map((run) => run.load?.protocol).filter(Boolean))];
  return `${kept}${paced}${openedCell}${spoken.length ? `; spoke ${spoken.join(', ')}` : ''}`;
}

/**
 * What each server held per connection in a paced profile of many connections: its RSS at the run's peak over its RSS
 * before the run, and its heap after the run over before, per connection, and its CPU per request, the median over
 * its runs.
 * @param {Results} results @param {{ runtime: string, scenario: string, stack: string }} block
 * @returns {string[]}
 */
function memoryPerConnection(results, block) {
  const { connections, connectionRate } = profileLoad(results, block.scenario);
  if (connectionRate === null) return [];
  const runs = blockRuns(results, block);
  return [...new Set(runs.map((run) => run.target))].flatMap((target) => {
    const own = runs.filter((run) => run.target === target);
    const rss = medianOrNull(
      own.flatMap((run) => {
        const before = run.state?.heapBefore?.rssMiB;
        const peak = run.server?.peakRssWindow === 'run' ? run.server.peakRssMiB : null;
        return typeof before === 'number' && typeof peak === 'number' ? [(peak - before) / connections] : [];
      }),
    );
    const heap = medianOrNull(
      own.flatMap((run) => {
        const { heapBefore, heapAfter } = run.state ?? {};
        return heapBefore && heapAfter ? [(heapAfter.heapUsedMiB - heapBefore.heapUsedMiB) / connections] : [];
      }),
    );
    const cpu = medianOrNull(own.flatMap((run) => run.server?.cpuUsPerRequest ?? []));
    if (rss === null && heap === null && cpu === null) return [];
    // a collection during the run can leave the heap smaller than before it
    const kib = (/** @type {number | null} */ mib) =>
      mib === null ? DASH : `${mib < 0 ? '−' : '+'}${formatNumber(Math.abs(mib) * KIB_PER_MIB, 1)} KiB`;
    const perRequest = cpu === null ? '' : `, ${formatNumber(cpu)} µs CPU per request`;
    return [`${target}: RSS ${kib(rss)}, heap ${kib(heap)} per connection${perRequest}`];
  });
}

/** @param {number[]} values */
const medianOrNull = (values) => (values.length ? median(values) : null);
