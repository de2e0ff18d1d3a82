// @ts-check
// A code finding judged again by what the app answered: middleware given to app.use (helmet, compression, cors) is
// said to work on Fastify only where its headers were seen on Fastify's answers too, and a CORS setting without
// methods only matters where the app has a route a browser preflights for PATCH, PUT or DELETE.
import { INVALID_CORS_ORIGIN } from '../scan/app-differences.js';

/**
 * @typedef {import('../scan/scan.js').CodeFinding} CodeFinding
 * @typedef {import('./compatibility.js').RouteCompatibility} RouteCompatibility
 * @typedef {import('./compatibility.js').AdapterAnswer} AdapterAnswer
 */

/** What each middleware leaves on an answer it handled, and in which words. */
const SIGNATURES = /** @type {Record<string, { headers: string[], words: string }>} */ ({
  helmet: {
    headers: ['x-content-type-options', 'content-security-policy', 'strict-transport-security'],
    words: 'helmet’s headers',
  },
  compression: { headers: ['content-encoding'], words: 'compressed answers (content-encoding)' },
});

/** Methods a browser preflights whatever the headers. */
const PREFLIGHTED_METHODS = new Set(['PUT', 'PATCH', 'DELETE']);

/** A call that keeps Fastify from booting: Express's app.set/enable/disable, a plugin Swagger or static files load. */
const BOOT_BREAKING = /^app\.(set|enable|disable)\(/;

/**
 * @param {CodeFinding} finding
 * @param {{ routes: Array<{ method: string }>, compatibility: { routes: RouteCompatibility[], startFailure?: unknown },
 *   setup?: string | null, main?: string | null, bootFailure?: unknown, measuredWithout?: string[], nodeEnv?: string }}
 *   record main: --nest-main, whose calls that stop Fastify's boot ran there and were skipped (main-boot.js, named in
 *   measuredWithout), not left to a setup module
 * @returns {CodeFinding}
 */
export function judgedByAnswers(finding, record) {
  if (bootedPast(finding, record))
    return {
      ...finding,
      kind: 'works',
      onFastify:
        'Fastify booted with this setup module, so this call did not run there: configure(app, { adapter }) keeps it to Express',
      fix: 'nothing to change in the setup; the same call in main.ts is the one to change',
    };
  if (notRunHere(finding, record)) return { ...finding, onFastify: notRunWords(finding, record) };
  if (finding.rule.endsWith(' origin from a value')) return corsOriginSeen(finding, record.compatibility.routes);
  if (finding.middleware && SIGNATURES[finding.middleware])
    return middlewareSeen(finding, SIGNATURES[finding.middleware], record.compatibility.routes);
  if (finding.middleware === 'cors') return corsSeen(finding, record.compatibility.routes);
  if (/^(app\.enableCors|NestFactory\.create\(\{ cors \}\)).* without methods$/.test(finding.rule))
    return corsMethodsNeeded(finding, record.routes);
  return finding;
}

/**
 * @param {CodeFinding} finding @param {{ headers: string[], words: string }} signature
 * @param {RouteCompatibility[]} routes
 * @returns {CodeFinding}
 */
function middlewareSeen(finding, { headers, words }, routes) {
  const carries = (/** @type {AdapterAnswer} */ answer) => headers.some((name) => answer.headers?.[name]);
  const onExpress = routes.filter((route) => carries(route.express));
  const alsoOnFastify = onExpress.filter((route) => carries(route.fastify));
  if (onExpress.length === 0)
    return {
      ...finding,
      onFastify: `${finding.onFastify} (not seen: no answer on either adapter carried ${words})`,
    };
  if (alsoOnFastify.length === onExpress.length)
    return {
      ...finding,
      kind: 'works',
      onFastify: `${finding.onFastify}: seen, ${words} on Fastify’s answers as on Express’s (${alsoOnFastify.length} of ${onExpress.length} routes)`,
    };
  const missing = onExpress.filter((route) => !carries(route.fastify)).map((route) => route.request);
  return {
    ...finding,
    kind: 'differs',
    onFastify: `${words} on Express’s answers but not on Fastify’s for ${missing.length} of ${onExpress.length} routes (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''})`,
  };
}

/**
 * The cors package through app.use: it answers preflights on Fastify too, unless a preflight probe showed otherwise.
 * @param {CodeFinding} finding @param {RouteCompatibility[]} routes
 * @returns {CodeFinding}
 */
function corsSeen(finding, routes) {
  const refused = routes.flatMap((route) =>
    (route.probes ?? []).filter(
      (probe) =>
        probe.probe === 'preflight' &&
        probe.express.headers?.['access-control-allow-origin'] &&
        !probe.fastify.headers?.['access-control-allow-origin'],
    ),
  );
  if (refused.length === 0) return finding;
  return {
    ...finding,
    kind: 'differs',
    onFastify: `the cors package through app.use: Fastify answered ${refused.length} preflight(s) without CORS headers where Express sent them (${refused[0].request})`,
  };
}

/**
 * A CORS origin read from a value: it breaks where Fastify answered with @fastify/cors's refusal of an empty origin,
 * and is information where every answer was checked without it (the value was set in this run).
 * @param {CodeFinding} finding @param {RouteCompatibility[]} routes
 * @returns {CodeFinding}
 */
function corsOriginSeen(finding, routes) {
  if (routes.length === 0) return finding;
  const refused = (/** @type {AdapterAnswer} */ answer) =>
    `${answer.error ?? ''} ${answer.body ?? ''}`.includes(INVALID_CORS_ORIGIN);
  const seen = routes.filter((route) => refused(route.fastify) || (route.probes ?? []).some((p) => refused(p.fastify)));
  if (seen.length)
    return {
      ...finding,
      onFastify: `${finding.onFastify}: seen in this run, on ${seen.length} of ${routes.length} routes (${seen[0].request})`,
    };
  return {
    ...finding,
    kind: 'works',
    onFastify: `the origin had a value in this run: no answer on Fastify carried “${INVALID_CORS_ORIGIN}”; ${finding.onFastify}`,
  };
}

/**
 * CORS without methods matters where a route takes a method browsers preflight.
 * @param {CodeFinding} finding @param {Array<{ method: string }>} routes
 * @returns {CodeFinding}
 */
function corsMethodsNeeded(finding, routes) {
  const preflighted = [...new Set(routes.map((r) => r.method).filter((m) => PREFLIGHTED_METHODS.has(m)))];
  if (preflighted.length)
    return { ...finding, onFastify: `${finding.onFastify} (your routes take ${preflighted.join(', ')})` };
  return {
    ...finding,
    kind: 'works',
    onFastify: `${finding.onFastify}; none of your routes takes PUT, PATCH or DELETE, so nothing breaks today`,
  };
}

/**
 * A call in the setup module that would keep Fastify from booting, where Fastify booted with that setup: the setup
 * gives it to Express only.
 * @param {CodeFinding} finding
 * @param {{ compatibility: { startFailure?: unknown }, setup?: string | null, bootFailure?: unknown }} record
 */
function bootedPast(finding, record) {
  const inSetup =
    Boolean(record.setup) && (finding.file === record.setup || record.setup?.endsWith(`/${finding.file}`));
  return inSetup && booted(record) && (BOOT_BREAKING.test(finding.rule) || /does not boot/.test(finding.onFastify));
}

/**
 * A line that would keep Fastify from booting, where Fastify booted in this run and the line did not run there: a
 * setup module's run never runs main.ts; --nest-main runs main, and a line it ran on Fastify was skipped and named
 * (measuredWithout), so one not named there did not run (a condition kept it out, as NODE_ENV does a dev Swagger).
 * @param {CodeFinding} finding
 * @param {{ compatibility: { startFailure?: unknown }, bootFailure?: unknown, main?: string | null,
 *   measuredWithout?: string[] }} record
 */
function notRunHere(finding, record) {
  if (!booted(record) || !/does not boot/.test(finding.onFastify) || /skipped there/.test(finding.onFastify))
    return false;
  if (!record.main) return true;
  // results from before measuredWithout was recorded cannot tell a skipped line from one not run
  return Boolean(record.measuredWithout) && !record.measuredWithout?.includes(`${finding.file}:${finding.line}`);
}

/**
 * What a line that did not run in this run does where it runs: under its condition when the scan found one.
 * @param {CodeFinding} finding @param {{ main?: string | null, nodeEnv?: string }} record
 */
function notRunWords(finding, record) {
  const env = record.nodeEnv ? ` (NODE_ENV=${record.nodeEnv})` : '';
  const why = !record.main
    ? 'the bench runs the setup module, not main.ts'
    : finding.condition
      ? `it runs only where ${finding.condition}`
      : 'main never reached it';
  return `Fastify booted in this run${env}, which did not run this line (${why}); where it runs: ${finding.onFastify}`;
}

/** @param {{ compatibility: { startFailure?: unknown }, bootFailure?: unknown }} record */
const booted = (record) => !record.bootFailure && !record.compatibility.startFailure;
