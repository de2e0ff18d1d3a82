// @ts-check
// How one route is requested, or why it is not: its URL from the log, the flags and the app's ids, the header that picks
// its version, and a write's body (--body, derived from the DTO, or its entity's current values) and whether it goes
// signed out. The plan (app-config.js) makes each route's scenario from this.
import { fillPath, parameterNames } from './route-match.js';
import { exampleValue } from '../bodies/example-body.js';
import { withValues } from '../bodies/pinned-values.js';
import { askableSignedOut, principalChange, protectedWriteReason } from '../sign-in/principal-writes.js';
import { CURRENT_VALUES, currentValuesBody, writesInPlace } from '../sign-in/same-values.js';

/**
 * @typedef {import('../../model/own-app-record.js').RouteEntry} RouteEntry
 *
 * --body: a route's body as the user gives it, `METHOD /path=JSON`; or the one authenticate() signed in with.
 * @typedef {{ method: string, url: string, value: unknown, source?: 'authenticate()' }} BodyOverride
 */

/**
 * What a route is sent with: its body (null for a GET) and whether it goes signed out; or, for a write that would change
 * the signed-in principal, why it is not timed (ask: it may be public, and is to be sent once signed out). Such a write
 * is timed as it is with --time-write, signed out once it answered 2xx so (a public stub), or with its entity's current
 * values where it takes them.
 * @param {import('./discover.js').Route} route @param {string} url
 * @param {{ override: BodyOverride | undefined, own: import('./id-sources.js').RouteIds | undefined,
 *   guard: { principal: import('../sign-in/principal-values.js').PrincipalValue[], timeWrites: string[],
 *   current: Map<string, unknown>, signInFields: string[], publicWrites: Set<string> } }} input
 * @returns {{ body: { value: unknown, source: NonNullable<RouteEntry['body']>, sources: string[] } | null,
 *   signedOut: boolean } | { why: string, ask: boolean }}
 */
export function sentWith(route, url, { override, own, guard }) {
  const body = route.method === 'GET' ? null : requestBody(route, override, own);
  const { principal, timeWrites, current, signInFields, publicWrites } = guard;
  const changesPrincipal = principalChange(route, url, body?.value, principal);
  const key = `${route.method} ${route.path}`;
  if (!changesPrincipal || timeWrites.includes(key)) return { body, signedOut: false };
  // --body is the user's own: a write given one is timed as they wrote it, with --time-write
  const ask = !override && askableSignedOut(route, url, principal);
  if (ask && publicWrites.has(key)) return { body, signedOut: true };
  const same = override ? { why: null } : sameValuesWrite(route, url, current, signInFields);
  return 'why' in same
    ? { why: protectedWriteReason(changesPrincipal, route, same.why), ask }
    : { body: same, signedOut: false };
}

/**
 * A DELETE whose last path segment is a parameter removes the thing it names (`/articles/:slug`), so a second request
 * finds nothing; one that ends in a word removes a relation (`/articles/:slug/favorite`) and can repeat.
 * @param {import('./discover.js').Route} route
 */
export function destroysWhatItNames(route) {
  return route.method === 'DELETE' && /\/[:*][^/]+$/.test(route.path);
}

/**
 * Why a DELETE of what its path names is not timed, and what measures it: runs last a time, not a count, so each of
 * its requests would need one made for it, and a run that outran them would time 404s as answers.
 * @param {import('./discover.js').Route} route a DELETE of what its path names
 * @param {import('./discover.js').Route[]} routes the app's: the create route that makes what it deletes
 */
export function destroysReason(route, routes) {
  const collection = route.path.replace(/\/[:*][^/]+$/, '') || '/';
  const create = routes.find((r) => r.method === 'POST' && r.path === collection);
  const made = create ? ` (POST ${create.path} makes them)` : '';
  return `deletes what :${parameterNames(route.path).at(-1)} names, so only its first request finds it: a timed run lasts a time, not a count of requests, so timing it would need one made for each request of its warm-up and rounds${made}, and a run that outran them would time 404s as its answers; give a --config scenario for a DELETE that can repeat (a relation, a soft delete that answers alike twice)`;
}

/**
 * Why a route's path parameters have no value: what the app gave when it was asked (id-sources.js), else the flags.
 * @param {import('./id-sources.js').RouteIds | undefined} ids @param {string[]} missing
 */
export function missingReason(ids, missing) {
  const lines = (ids?.unfilled ?? []).filter((line) => missing.some((name) => line.startsWith(`:${name} `)));
  if (lines.length) return lines.join('; ');
  return `no value for ${missing.map((name) => `:${name}`).join(', ')}: give --params ${missing.map((name) => `${name}=VALUE`).join(',')}, return them as params from authenticate(), or a --traffic log with requests to it`;
}

/**
 * A write the sign-in relies on, sent with its entity's current values so that it changes nothing, or why it cannot be.
 * @param {import('./discover.js').Route} route @param {string} url its request
 * @param {Map<string, unknown>} current GET answers by request path @param {string[]} signInFields
 * @returns {{ value: unknown, source: 'current values', sources: string[] } | { why: string | null }} why: null for a
 *   write that sets no fields (a DELETE, a POST)
 */
function sameValuesWrite(route, url, current, signInFields) {
  if (!writesInPlace(route)) return { why: null };
  // there only when the app has a GET at the write's path and it answered 2xx, signed in
  if (!current.has(url)) return { why: `no GET ${url} answered its current values to send it` };
  const body = currentValuesBody(route, current.get(url), signInFields);
  return 'why' in body ? body : { value: body.value, source: CURRENT_VALUES, sources: [`GET ${url}`] };
}

/**
 * The body a write is sent with: --body when given, else one derived from the app's metadata; none when the handler
 * reads no body.
 * @param {import('./discover.js').Route} route @param {BodyOverride | undefined} override
 * @param {import('./id-sources.js').RouteIds} [ids] ids from the app, by field path, and the fields to leave out
 * @returns {{ value: unknown, source: 'derived' | '--body' | 'authenticate()' | 'none', sources: string[] }}
 */
function requestBody(route, override, ids) {
  if (override) return { value: override.value, source: override.source ?? '--body', sources: [] };
  if (!route.body) return { value: undefined, source: 'none', sources: [] };
  const schema = withValues(route.body.schema, ids?.fields ?? {}, ids?.omit);
  return { value: exampleValue(schema), source: 'derived', sources: route.body.sources };
}

/**
 * The request a route is measured with: its most frequent request in the log (path and query as logged), with any
 * --params value put in place; without a log, the path filled from --params alone.
 * @param {import('./discover.js').Route} route
 * @param {Map<string, number> | undefined} urls
 * @param {Record<string, string>} params
 * @param {ReturnType<typeof import('./route-match.js').routeMatcher>} matchRoute
 * @param {Record<string, string>} [fromApp] ids the app gave (id-sources.js): used where the log and flags give none
 * @returns {{ url: string } | { missing: string[] }}
 */
export function representativeUrl(route, urls, params, matchRoute, fromApp = {}) {
  const top = urls ? [...urls].sort((a, b) => b[1] - a[1])[0]?.[0] : undefined;
  const fromLog = top === undefined ? {} : (matchRoute({ method: route.method, url: top })?.params ?? {});
  const query = top?.match(/\?.*$/)?.[0] ?? '';
  const filled = fillPath(route, { ...fromApp, ...fromLog, ...params });
  return 'missing' in filled ? filled : { url: `${filled.path}${query}` };
}

/**
 * The header that selects a route's version under header or media-type versioning; {} when the path carries it or
 * there is none; null when a custom extractor decides.
 * @param {import('./discover.js').Route} route
 * @param {import('./discover.js').Versioning | null} versioning
 * @returns {Record<string, string> | null}
 */
export function versionHeaders(route, versioning) {
  if (route.version === null || versioning === null || versioning.type === 'uri') return {};
  const version = [route.version].flat()[0];
  if (typeof version !== 'string') return {};
  if (versioning.type === 'header' && versioning.header) return { [versioning.header.toLowerCase()]: version };
  if (versioning.type === 'media-type' && versioning.key)
    return { accept: `application/json;${versioning.key}${version}` };
  return null;
}
