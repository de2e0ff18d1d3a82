// @ts-check
// Ids the bench makes: where no GET route lists them, the route that makes one (a POST to the parameter's collection,
// or to a word of making under it), and the value its answer names; where a list held none a route could take, the
// list's create (createRoutes), whose answer still names the row when the list does not show it (createdRow).
// id-sources.js asks it.

import { ACCOUNT_COLLECTION, principalValuesFor } from '../sign-in/principal-values.js';
import { fillPath } from './route-match.js';
import { listedValues } from './list-answers.js';

/** The last word of a POST under a collection that makes one of it (never a logout, a refresh, a confirm). */
const MAKING_WORD = /^(upload|create|new|add|import)s?$/i;
/** The route that makes an account: a sign-up (`/auth/register`, `/signup`), never a sign-in. */
const SIGN_UP = /\/(register|sign-?up)$/i;

/** @param {string} path its last segment */
const lastWord = (path) => path.split('/').filter(Boolean).at(-1) ?? '';

/**
 * The route that makes an account, for what a collection of accounts lists or names (`/users`, `/profiles/:username`):
 * the app's sign-up, else a POST to a collection of accounts (RealWorld's `POST /api/users`).
 * @param {Route[]} routes
 * @returns {Route | null}
 */
export function accountCreate(routes) {
  const posts = routes.filter((r) => r.method === 'POST');
  return (
    posts.find((r) => SIGN_UP.test(r.path)) ?? posts.find((r) => ACCOUNT_COLLECTION.test(lastWord(r.path))) ?? null
  );
}

/**
 * @typedef {import('./discover.js').Route} Route
 * @typedef {import('./id-sources.js').EntityReference} EntityReference
 * @typedef {import('./id-sources.js').RouteIds} RouteIds
 * @typedef {import('./id-sources.js').Found} Found
 * @typedef {import('../sign-in/principal-values.js').PrincipalValue} PrincipalValue
 */

/**
 * Where no GET route lists what a parameter names, the route that makes one: a POST to its collection, or to a word
 * of making under it (POST /files/upload makes what GET /files/:path reads); for a collection of accounts
 * (`/profiles/:username`), the app's sign-up (accountCreate). Its answer names what it made.
 * @param {EntityReference} reference @param {Route[]} routes
 * @returns {Route | null}
 */
export function createRouteFor(reference, routes) {
  const { collection } = reference;
  if (reference.kind !== 'param' || collection === null) return null;
  const under = (/** @type {string} */ path) =>
    path.slice(0, path.lastIndexOf('/')) === collection && MAKING_WORD.test(lastWord(path));
  const own = routes.find((r) => r.method === 'POST' && (r.path === collection || under(r.path)));
  return own ?? (ACCOUNT_COLLECTION.test(lastWord(collection)) ? accountCreate(routes) : null);
}

/**
 * The value a create's answer names under one of the keys, in the answer or an object within it (`{ file: { id, path
 * } }`); a link to the route's collection (`http://host/api/v1/files/abc.png`) gives the segment after it.
 * @param {unknown} body @param {string[]} keys @param {string} collection the path the parameter follows
 * @returns {string | number | null}
 */
export function valueFromCreated(body, keys, collection) {
  if (!body || typeof body !== 'object') return null;
  const record = /** @type {Record<string, unknown>} */ (body);
  const key = keys.find((k) => typeof record[k] === 'string' || typeof record[k] === 'number');
  if (key !== undefined) {
    const value = /** @type {string | number} */ (record[key]);
    const at = typeof value === 'string' ? value.indexOf(`${collection}/`) : -1;
    return at === -1
      ? value
      : String(value)
          .slice(at + collection.length + 1)
          .split(/[?#/]/)[0];
  }
  for (const inner of Object.values(record)) {
    const found = valueFromCreated(Array.isArray(inner) ? inner[0] : inner, keys, collection);
    if (found !== null) return found;
  }
  return null;
}

/** Where a create's answer is kept among the list answers. @param {string} path the create's request path */
export function createdKey(path) {
  return `POST ${path}`;
}

/**
 * The id a list's create answered when the bench sent it (createRoutes), for a write whose list does not show it (a
 * list of active users only): the row is the bench's by construction, unless it is the principal's or was listed
 * before the run.
 * @param {EntityReference} reference @param {Found} found fromListAnswers, with its list
 * @param {{ lists: Map<string, unknown>, params: Record<string, string>, principal: PrincipalValue[], claims: string[],
 *   routes: Route[] }} asked
 * @returns {{ value: string | number | null, created: unknown }} created: the create's answer, if the bench sent it
 */
export function createdRow(reference, found, { lists, params, principal, claims, routes }) {
  const create = found.list ? listCreate(found.list, routes) : null;
  const made = create ? fillPath(create, params) : null;
  const created = made && 'path' in made ? lists.get(createdKey(made.path)) : undefined;
  const value = created === undefined ? null : valueFromCreated(created, reference.keys, String(reference.collection));
  const avoid = [
    ...principalValuesFor(reference.entity, principal, claims),
    ...listedValues(found.before, reference.keys).map(String),
  ];
  return { value: value !== null && !avoid.includes(String(value)) ? value : null, created };
}

/**
 * The route that creates what a list route lists: a POST to the list's own path; for a list of accounts, the app's
 * sign-up (`POST /auth/register`) where there is none. The bench sends it once, signed in, when the list held nothing
 * a route could take, and asks the list again: what it lists then, and did not before, the bench made.
 * @param {Map<Route, RouteIds>} ids resolveIds() @param {Route[]} routes
 * @returns {{ list: Route, create: Route }[]} each list once
 */
export function createRoutes(ids, routes) {
  const lacking = new Set([...ids.values()].flatMap((routeIds) => routeIds.lacking));
  return [...lacking].flatMap((list) => {
    const create = listCreate(list, routes);
    return create ? [{ list, create }] : [];
  });
}

/**
 * The route that creates what a list route lists: a POST to its path; for a list of accounts, the app's sign-up.
 * @param {Route} list @param {Route[]} routes
 * @returns {Route | null}
 */
export function listCreate(list, routes) {
  const listed = list.path.split('/').filter(Boolean).at(-1) ?? '';
  return (
    routes.find((r) => r.method === 'POST' && r.path === list.path) ??
    (ACCOUNT_COLLECTION.test(listed) ? accountCreate(routes) : null)
  );
}
