// @ts-check
// The tables of a --nest-app run: what changes on Fastify (routes that answer differently, with the server's error),
// and every route Nest registered with its share of the logged traffic and how it was measured, or why not.
import { formatNumber, formatPercent } from './format.js';
import { code, strong } from './rich-table.js';

/** @typedef {import('./rich-table.js').Table} Table */
/** @typedef {import('../run/nest-app/own-app.js').OwnAppRecord} OwnAppRecord */

const DASH = '–';
/** Shown in place of the table when every route answers alike. */
export const ALL_ALIKE = 'Every route answered alike on Express and Fastify (status, content type, body).';

/**
 * @param {OwnAppRecord} record
 * @returns {Table}
 */
export function compatibilityTable(record) {
  const { startFailure, routes } = record.compatibility;
  const differing = routes.filter((r) => !r.same);
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
 * @param {OwnAppRecord} record
 * @returns {Table}
 */
export function ownRoutesTable(record) {
  const logged = record.routes.reduce((sum, r) => sum + r.logged, 0);
  const mixed = record.routes.filter((r) => r.scenario !== null).reduce((sum, r) => sum + r.logged, 0);
  const { traffic } = record;
  const intro = traffic
    ? [
        `${traffic.file}: ${formatNumber(traffic.requests)} requests, ${formatNumber(traffic.matched)} to the routes below ` +
          `(ignored: ${formatNumber(traffic.unmatched)} matched no route, ${formatNumber(traffic.unreadable)} unreadable ${traffic.unreadable === 1 ? 'line' : 'lines'}). `,
        strong(`The ${record.mix ?? 'traffic'} row of the verdict is the answer for your app`),
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
    rows: record.routes.map((r) => [
      code(`${r.method} ${r.path}`),
      r.handler,
      traffic ? formatPercent(logged ? r.logged / logged : 0, 1) : DASH,
      r.scenario ? [r.scenario, ': ', code(r.request ?? '')] : DASH,
      r.notMeasured ?? '',
    ]),
  };
}
