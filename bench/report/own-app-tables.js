// @ts-check
// The tables of a --nest-app run: what changes on Fastify (routes that answer differently, with the server's error),
// what a switch saves at --rate, the rows the writes created, and every route Nest registered with its share of the
// logged traffic and how it was measured, or why not.
import { TARGET_UTILISATION } from '../analysis/switch-at-rate.js';
import { TRAFFIC_SCENARIO } from '../model/own-app-record.js';
import { formatInterval, formatNumber, formatPercent } from './format.js';
import { code, strong } from './rich-table.js';
import { routeLoadTable } from './route-load-table.js';
import { switchingFindingsTable, switchingSummaryTable } from './switching-tables.js';

/** @typedef {import('./rich-table.js').Table} Table */
/** @typedef {import('../analysis/own-app-facts.js').OwnAppFacts} OwnAppFacts */

const DASH = '–';
/** Shown in place of the table when every route answers alike. */
export const ALL_ALIKE = 'Every route answered alike on Express and Fastify (status, content type, body).';

/**
 * @param {import('../analysis/own-app-facts.js').CheckChanges} changes
 * @returns {Table}
 */
export function compatibilityTable({ startFailure, signInError, differing }) {
  return {
    title: 'What changes on Fastify',
    intro:
      'Each route was sent once to your module on Express and on Fastify before anything was timed. These answer ' +
      'differently and are not timed: each is work to do before a switch. The error is the first line the server ' +
      'logged while answering.',
    headers: ['route', 'request', 'Express', 'Fastify', 'what differs', 'server error'],
    align: ['left', 'left', 'right', 'right', 'left', 'left'],
    rows: [
      ...(startFailure
        ? [[strong('the app'), DASH, DASH, DASH, `does not start on ${startFailure.adapter}`, startFailure.error]]
        : []),
      ...(signInError
        ? [[strong('authenticate()'), DASH, 'signed in', strong('failed'), 'signing in fails on Fastify', signInError]]
        : []),
      ...differing.map((r) => [
        r.scenario,
        code(r.request),
        String(r.express.status ?? DASH),
        strong(String(r.fastify.status ?? DASH)),
        r.difference ?? '',
        r.fastify.error ?? r.express.error ?? '(none logged)',
      ]),
    ],
  };
}

/**
 * @param {Pick<OwnAppFacts, 'registered' | 'traffic' | 'mix' | 'timing'>} app timing: by scenario, a route listed
 *   for timing that no timed run measured on both adapters says why
 * @param {import('../analysis/analyze.js').Analysis['switching']} [switching] the findings: a route a shared
 *   cause explains says so
 * @returns {Table}
 */
export function ownRoutesTable({ registered, traffic, mix, timing }, switching = null) {
  const explainedBy = sharedCauseOf(switching);
  const logged = registered.reduce((sum, r) => sum + r.logged, 0);
  const mixed = registered.filter((r) => r.scenario !== null).reduce((sum, r) => sum + r.logged, 0);
  const intro = traffic
    ? [
        `${traffic.file}: ${formatNumber(traffic.requests)} requests, ${formatNumber(traffic.matched)} to the routes below ` +
          `(ignored: ${formatNumber(traffic.unmatched)} matched no route, ${formatNumber(traffic.unreadable)} unreadable ${traffic.unreadable === 1 ? 'line' : 'lines'}). `,
        strong(`The ${mix ?? 'traffic'} row of the verdict is the answer for your app`),
        `: the measured routes in their logged shares, ${formatPercent(logged ? mixed / logged : 0)} of the logged requests to your routes. ` +
          'Each route is measured with its most frequent logged request (path and query as logged), --params in place.',
      ]
    : 'Every route Nest registered, with the global prefix and versioning your setup applies. Without --traffic each ' +
      'route is its own scenario and there is no mix.';
  return {
    title: 'Your routes',
    intro,
    headers: ['route', 'handler', 'share of traffic', 'measured as', 'or why not'],
    align: ['left', 'left', 'right', 'left', 'left'],
    rows: registered.map((r) => [
      code(`${r.method} ${r.path}`),
      r.handler,
      traffic ? formatPercent(logged ? r.logged / logged : 0, 1) : DASH,
      r.scenario ? [r.scenario, ': ', code(r.request ?? ''), ...(r.signedOut ? [', signed out'] : [])] : DASH,
      r.notMeasured
        ? `${r.notMeasured}${explainedBy.has(`${r.method} ${r.path}`) ? `: ${explainedBy.get(`${r.method} ${r.path}`)}` : ''}`
        : r.scenario && timing[r.scenario]
          ? (untimed(timing[r.scenario]) ?? '')
          : '',
    ]),
  };
}

/**
 * The routes whose own request a shared cause explains (a global filter's 500 where Express refused it), each with
 * the words that say so.
 * @param {import('../analysis/analyze.js').Analysis['switching']} switching
 * @returns {Map<string, string>}
 */
function sharedCauseOf(switching) {
  const explained = new Map();
  for (const finding of switching?.findings ?? [])
    for (const symptom of finding.shared?.symptoms ?? [])
      if (symptom.source === 'request' && symptom.route && !explained.has(symptom.route))
        explained.set(
          symptom.route,
          refusalTurned(symptom)
            ? `Express refused its request (${symptom.express}); Fastify’s 500 is the ${finding.shared?.role} at ${finding.where} failing to answer that refusal (first in What to change for Fastify)`
            : `Express answered ${symptom.express ?? 'nothing'}, Fastify ${symptom.fastify ?? 'nothing'}: the ${finding.shared?.role} at ${finding.where} explains it (in What to change for Fastify)`,
        );
  return explained;
}

/** A 4xx of Express's that Fastify answered 500: a filter failing to answer a refusal. @param {{ express: number | null, fastify: number | null }} symptom */
const refusalTurned = ({ express, fastify }) => express !== null && express >= 400 && express < 500 && fastify === 500;

/**
 * Why a route checked for timing has no ratio: no timed run of it, or none that answered on one adapter.
 * @param {import('../analysis/own-app-facts.js').RouteTiming} timing
 * @returns {import('./rich-table.js').Text | null}
 */
export function untimed(timing) {
  if (!timing.timed) return [strong('never timed'), `: ${timing.why}`];
  if (!timing.unanswered) return null;
  return [
    strong('no ratio'),
    `: no timed run on ${timing.unanswered} answered as checked${timing.failure ? ` (${timing.failure})` : ''}`,
  ];
}

/** @param {{ median: number, ci: { low: number, high: number } | null } | null} estimate @param {(v: number) => string} format */
function withInterval(estimate, format) {
  if (!estimate) return DASH;
  return estimate.ci ? `${format(estimate.median)} (${formatInterval(estimate.ci, format)})` : format(estimate.median);
}

/** @param {number} cores */
const formatCores = (cores) => formatNumber(cores, cores < 1 ? 3 : 2);
/** @param {number | null} ms */
const formatMs = (ms) => (ms === null ? DASH : formatNumber(ms, ms < 10 ? 2 : 1));

/**
 * --rate R: cores, saving, latency and instances per adapter at the rate a service runs at.
 * @param {import('../analysis/switch-at-rate.js').SwitchAtRate[]} rows
 * @param {Record<string, string>} [labels] runtime keys with their release status
 * @returns {Table}
 */
export function switchAtRateTable(rows, labels = {}) {
  return {
    title: `What a switch saves at ${rows.length ? formatNumber(rows[0].rps) : 'your'} req/s`,
    intro:
      'Both adapters driven open loop at the same offered rate, in paired rounds. Cores: the server’s CPU seconds per ' +
      'second at that rate, median over rounds with its 95 % interval. Saving: the share of Express’s CPU per request ' +
      'Fastify does not need, from the ratio taken within each round (negative: Fastify needs more). Latency from ' +
      'each request’s scheduled time, in ms. ' +
      `Instances: single-threaded processes of one core each, planned at ${formatPercent(TARGET_UTILISATION)} ` +
      'utilisation; req/s per instance: what one serves there at this mix of requests.',
    headers: [
      'runtime',
      'scenario',
      'cores Express',
      'cores Fastify',
      'saving',
      'p50 Express / Fastify',
      'p99 Express / Fastify',
      'instances Express / Fastify',
      'req/s per instance Express / Fastify',
      'note',
    ],
    align: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
    rows: rows.map((r) => [
      labels[r.runtime] ?? r.runtime,
      r.scenario === TRAFFIC_SCENARIO ? strong(r.scenario) : r.scenario,
      withInterval(r.express.cores, formatCores),
      withInterval(r.fastify.cores, formatCores),
      withInterval(r.saving, (v) => formatPercent(v)),
      `${formatMs(r.express.p50Ms)} / ${formatMs(r.fastify.p50Ms)}`,
      `${formatMs(r.express.p99Ms)} / ${formatMs(r.fastify.p99Ms)}`,
      `${formatNumber(r.express.instances)} / ${formatNumber(r.fastify.instances)}`,
      `${formatNumber(r.express.rpsPerInstance)} / ${formatNumber(r.fastify.rpsPerInstance)}`,
      unservedNote(r),
    ]),
  };
}

/**
 * Where an adapter did not serve the rate: its answers per second and timeouts, since cores then describe a server
 * that fell behind, not one that kept up.
 * @param {import('../analysis/switch-at-rate.js').SwitchAtRate} row
 */
function unservedNote(row) {
  return /** @type {const} */ ([
    ['Express', row.express],
    ['Fastify', row.fastify],
  ])
    .filter(([, a]) => !a.served)
    .map(
      ([name, a]) =>
        `${name} answered ${formatNumber(a.achievedRps)} of ${formatNumber(row.rps)} req/s (${formatNumber(a.timeouts)} timeouts): it did not serve this rate, so its cores are those of a server that fell behind and size nothing`,
    )
    .join('; ');
}

/**
 * Writes are state: the rows each timed write route created, and whether its rate moved as the data grew.
 * @param {import('../analysis/writes.js').WriteGrowth[]} rows
 * @returns {Table}
 */
export function writesTable(rows) {
  return {
    title: 'Writes',
    intro:
      'Each timed write adds to your database, which both adapters share under the same rules, one after the other ' +
      'in rotated order. Written: answers with the route’s success status in its own timed runs (warm-up not counted); ' +
      'in the mix: its requests sent as part of the traffic mix. Rate change: req/s in the second half of the ' +
      'rounds against the first, with a 95 % interval; an interval that leaves out 0 says the route slowed or sped up ' +
      'as the data grew.',
    headers: ['runtime', 'route', 'request', 'adapter', 'written', 'in the mix', 'rate change', 'changed?'],
    align: ['left', 'left', 'left', 'left', 'right', 'right', 'right', 'left'],
    rows: rows.map((r) => [
      r.runtime,
      r.scenario,
      code(r.request),
      r.target,
      formatNumber(r.written),
      formatNumber(r.inMix),
      r.rateChange
        ? `${formatSignedPercent(r.rateChange.estimate)} (${formatSignedPercent(r.rateChange.low)} – ${formatSignedPercent(r.rateChange.high)})`
        : DASH,
      !r.rateChange ? 'too few rounds' : r.rateChange.low > 0 ? 'faster' : r.rateChange.high < 0 ? 'slower' : 'no',
    ]),
  };
}

/** @param {number} value */
function formatSignedPercent(value) {
  return `${value >= 0 ? '+' : '−'}${formatPercent(Math.abs(value))}`;
}

/**
 * The --nest-app tables in report order: what switching costs and what to change, what changes on Fastify, how each
 * route was measured and what it did to its server, what a switch saves at --rate, the writes, and every route.
 * @param {import('../analysis/analyze.js').Analysis} analysis
 * @returns {{ table: Table, empty?: string }[]}
 */
export function ownAppTables({ ownApp, runtimeLabels: labels, switching }) {
  if (!ownApp) return [];
  const { atRate, writes } = ownApp;
  const routeLoads = routeLoadTable(ownApp.routes, ownApp.flags, labels);
  return [
    ...(switching
      ? [{ table: switchingSummaryTable(switching, labels) }, { table: switchingFindingsTable(switching) }]
      : []),
    { table: compatibilityTable(ownApp.changes), empty: ALL_ALIKE },
    ...(routeLoads ? [{ table: routeLoads }] : []),
    ...(atRate.length ? [{ table: switchAtRateTable(atRate, labels) }] : []),
    ...(writes.length ? [{ table: writesTable(writes) }] : []),
    { table: ownRoutesTable(ownApp, switching) },
    { table: ownPackagesTable(ownApp) },
  ];
}

/**
 * The NODE_ENV the bench gave the app's servers, and how to give another.
 * @param {string} nodeEnv
 */
function nodeEnvSentence(nodeEnv) {
  return (
    ` The bench started them with NODE_ENV=${nodeEnv}, whatever the .env or your shell says (dotenv keeps a variable` +
    ' that is set); to run them otherwise, set process.env.NODE_ENV at the top of the setup module, which loads' +
    ' before the app’s module.'
  );
}

/**
 * The versions the app was measured with, as found installed beside it.
 * @param {OwnAppFacts} app
 * @returns {Table}
 */
function ownPackagesTable({ cwd, nodeEnv, adapters, versions }) {
  return {
    title: "Your app's packages",
    intro:
      "As installed for the module (the launcher loads these, never the bench's own copies)." +
      (cwd ? ` Its servers ran in ${cwd}, where it finds its .env (--nest-cwd to change).` : '') +
      (nodeEnv ? nodeEnvSentence(nodeEnv) : '') +
      Object.entries(adapters)
        .map(([adapter, how]) => ` ${adapter}'s adapter: ${how}.`)
        .join(''),
    headers: ['package', 'version'],
    align: ['left', 'right'],
    rows: Object.entries(versions).map(([name, version]) => [name, version]),
  };
}
