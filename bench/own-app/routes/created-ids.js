// @ts-check
// Ids no GET route lists: the route that makes one (a POST to the parameter's collection, or to a word of making under
// it), and the value its answer names. id-sources.js asks it where a list route is missing.

import { ACCOUNT_COLLECTION } from '../sign-in/principal-values.js';

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
