// @ts-check
// "Where the lead lives": every beyond profile's Fastify ÷ Express with its interval and verdict, or why it has none,
// with what each generator saw (connections it opened, whether it kept up).
import { NO_EXPRESS_SIDE, PROFILE_NOTES } from '../model/beyond.js';
import { RATE, metricWords } from '../model/metrics.js';
import { DASH, formatInterval, formatNumber, formatPercent, formatRatio } from './format.js';
import { ratioIn } from '../analysis/block-rows.js';

/** @typedef {import('./rich-table.js').Table} Table */
/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */
/** @typedef {import('../analysis/beyond-profiles.js').BeyondProfile} BeyondProfile */

/**
 * One profile's row of the lead, whatever shows it (the table here, the chart in lead-chart.js).
 * @typedef {object} LeadProfile
 * @property {BeyondProfile} block the profile on one runtime and stack, with what its runs showed
 * @property {import('../analysis/analyze.js').RatioRow | null} ratio null, or with no paired round: no ratio
 * @property {BeyondProfile['refused']} refused the adapters' answers verification refused
 * @property {string | null} unpaired why the profile has no Express side
 * @property {import('../analysis/analyze.js').TargetRow | null} alone the first target that answered, for a profile
 *   without a pair
 */

/**
 * Every beyond profile the run measured or refused, in the analysis' order of runtimes, scenarios and stacks.
 * @param {Analysis} analysis
 * @returns {LeadProfile[]}
 */
export function leadProfiles(analysis) {
  return analysis.beyond.flatMap((block) => {
    const profile = leadProfile(analysis, block);
    return profile ? [profile] : [];
  });
}

/**
 * @param {Analysis} analysis @param {BeyondProfile} block
 * @returns {LeadProfile | null}
 */
function leadProfile(analysis, block) {
  const ratio = ratioIn(analysis, block, { judged: true });
  // a profile without an Express side has a row where its Fastify side was planned, verified or not
  const unpaired =
    (block.verified && NO_EXPRESS_SIDE[/** @type {keyof typeof NO_EXPRESS_SIDE} */ (block.scenario)]) || null;
  if (!ratio && block.refused.length === 0 && !unpaired) return null;
  return { block, ratio: ratio ?? null, refused: block.refused, unpaired, alone: block.alone };
}

/**
 * @param {Analysis} analysis
 * @returns {Table}
 */
export function leadTable(analysis) {
  return {
    title: 'Where the lead lives',
    intro:
      'Every profile of `--scenarios beyond`: Nest-Fastify ÷ Nest-Express req/s with its interval and verdict, or why ' +
      "there is no ratio; a paced profile, whose req/s is its pace, divides Express's CPU per request by Fastify's " +
      '(its note says so), so that above 1 Fastify is cheaper. Each answer was verified on both adapters (status, content type, body or its SHA-256) ' +
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
    rows: leadProfiles(analysis).map((profile) => profileRow(analysis, profile)),
  };
}

/**
 * @param {Analysis} analysis @param {LeadProfile} profile
 * @returns {string[]}
 */
function profileRow(analysis, { block, ratio, refused, unpaired, alone }) {
  const { runtime, scenario, stack } = block;
  const label = analysis.runtimeLabels[runtime] ?? runtime;
  const note = [
    ...(ratio && ratio.metric !== RATE
      ? [`on ${metricWords(ratio.metric, { numerator: 'Fastify', denominator: 'Express' })}`]
      : []),
    ...(unpaired && alone ? [`${alone.target} alone: ${formatNumber(alone.rps.median)} req/s. ${unpaired}`] : []),
    ...(unpaired && !alone ? [unpaired] : []),
    ...refused.map((v) => `${v.target} refused: ${v.reason}`),
    ...(ratio?.tooSlow ?? []).map((slow) => `${slow.target} answered nothing within a run`),
    ...block.held.map(heldCell),
    PROFILE_NOTES[/** @type {keyof typeof PROFILE_NOTES} */ (scenario)] ?? '',
  ]
    .filter(Boolean)
    .join('; ');
  const load = loadCell(block.load);
  const servers = ratio
    ? `${ratio.numerator} ÷ ${ratio.denominator}`
    : [...new Set([...refused.map((v) => v.target), ...(alone ? [alone.target] : [])])].join(', ') || DASH;
  if (!ratio || ratio.summary.n === 0)
    return [label, scenario, load, stack, servers, DASH, DASH, 'no ratio', alone ? generatorCell(block) : DASH, note];
  return [
    label,
    scenario,
    load,
    stack,
    servers,
    formatRatio(ratio.summary.median),
    formatInterval(ratio.summary.ci, (value) => formatRatio(value)),
    ratio.verdict ?? ratio.measuredVerdict ?? 'shown, not judged',
    generatorCell(block),
    note,
  ];
}

const KIB_PER_MIB = 1024;

/** @param {import('../analysis/beyond-profiles.js').ProfileLoad} load */
function loadCell({ connections, connectionRate, requestsPerConnection, shortestSec }) {
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
 * @param {BeyondProfile} block
 */
function generatorCell({ generator, load }) {
  const { busiestShare, failed, slowestP99Ms, meanWaitMs, answered, opened, protocols } = generator;
  const lagging = [
    ...(generator.saturated ? [`used ${formatPercent(busiestShare)} of a core`] : []),
    ...(failed > 0
      ? [`${formatNumber(failed)} socket ${failed === 1 ? 'error or timeout' : 'errors or timeouts'}`]
      : []),
    ...(meanWaitMs !== null && slowestP99Ms >= meanWaitMs
      ? [`p99 ${formatNumber(slowestP99Ms)} ms, past the ${formatNumber(meanWaitMs)} ms between requests`]
      : []),
  ];
  const kept = lagging.length
    ? `did not keep up (${lagging.join(', ')})`
    : `kept up (≤ ${formatPercent(busiestShare)} of a core)`;
  const paced =
    answered === null || load.connectionRate === null
      ? ''
      : `; offered ${formatNumber(load.connections * load.connectionRate)} req/s, answered ${formatNumber(answered.low)}–${formatNumber(answered.high)}`;
  const perAnswer =
    opened === null || opened.reopenedPerAnswer === null
      ? ''
      : ` (${formatNumber(load.connections)}, then ${formatNumber(opened.reopenedPerAnswer, 2)} per answer)`;
  const openedCell = opened ? `; opened ${formatNumber(opened.perRun)} connections a run${perAnswer}` : '';
  return `${kept}${paced}${openedCell}${protocols.length ? `; spoke ${protocols.join(', ')}` : ''}`;
}

/**
 * What a server held per connection in a paced profile: RSS and heap, and its CPU per request.
 * @param {import('../analysis/beyond-profiles.js').HeldPerConnection} held
 */
function heldCell({ target, rssMiB, heapMiB, cpuUsPerRequest }) {
  // a collection during the run can leave the heap smaller than before it
  const kib = (/** @type {number | null} */ mib) =>
    mib === null ? DASH : `${mib < 0 ? '−' : '+'}${formatNumber(Math.abs(mib) * KIB_PER_MIB, 1)} KiB`;
  const perRequest = cpuUsPerRequest === null ? '' : `, ${formatNumber(cpuUsPerRequest)} µs CPU per request`;
  return `${target}: RSS ${kib(rssMiB)}, heap ${kib(heapMiB)} per connection${perRequest}`;
}
