// @ts-check
// What a list route's answer holds (id-sources.js reads it for ids): its items, whether the list itself or under a
// usual key, the value each item holds under an id's keys, and which of them it shows only to the signed-in principal.
import { DISTINCT_VALUE_LENGTH } from '../sign-in/principal-values.js';

/** The properties a list answer keeps its items under, when it is not the list itself. */
const LIST_KEYS = ['data', 'items', 'results', 'rows', 'records', 'content', 'list', 'nodes', 'edges'];

/**
 * The items of a list answer: the answer itself, or the first list of objects under a usual key (`data`, `items`,
 * `data.items`); GraphQL-style edges give their nodes.
 * @param {unknown} body
 * @returns {Record<string, unknown>[]}
 */
export function listItems(body) {
  const objects = (/** @type {unknown} */ value) =>
    Array.isArray(value) && value.length > 0 && value.every((item) => item && typeof item === 'object');
  if (objects(body))
    return /** @type {Record<string, unknown>[]} */ (body).map((item) =>
      item.node && typeof item.node === 'object' ? /** @type {Record<string, unknown>} */ (item.node) : item,
    );
  if (!body || typeof body !== 'object') return [];
  const record = /** @type {Record<string, unknown>} */ (body);
  for (const key of [...LIST_KEYS, ...Object.keys(record)]) {
    const value = record[key];
    if (objects(value)) return listItems(value);
    if (LIST_KEYS.includes(key) && value && typeof value === 'object' && !Array.isArray(value)) {
      const inner = listItems(value);
      if (inner.length) return inner;
    }
  }
  return [];
}

/**
 * The first value a list answer holds under one of the keys, skipping values that name the signed-in account; a
 * read may still take the account's own when the list holds nothing else, a write (strict) never does.
 * @param {unknown} body @param {string[]} keys @param {string[]} avoid @param {boolean} [strict]
 * @returns {string | number | null}
 */
export function valueFromList(body, keys, avoid = [], strict = false) {
  const values = listedValues(body, keys);
  return values.find((value) => !avoid.includes(String(value))) ?? (strict ? null : (values[0] ?? null));
}

/**
 * Each list item's value under the first of the keys it holds.
 * @param {unknown} body a list answer @param {string[]} keys
 * @returns {(string | number)[]}
 */
export function listedValues(body, keys) {
  return listItems(body).flatMap((item) => {
    const key = keys.find((k) => typeof item[k] === 'string' || typeof item[k] === 'number');
    return key === undefined ? [] : [/** @type {string | number} */ (item[key])];
  });
}

/** What a list answered signed out where it answered no 2xx: it shows nothing to no one. */
export const REFUSED_SIGNED_OUT = Symbol('refused signed out');

/** Where a list's answer signed out is kept among the list answers. @param {string} path the list's request path */
export function signedOutKey(path) {
  return `signed out GET ${path}`;
}

/**
 * Each list request sent once to the running app without the sign-in's headers, kept under signedOutKey: its body
 * where it answered 2xx, else REFUSED_SIGNED_OUT.
 * @param {import('../sign-in/authenticate.js').AppClient} client @param {string[]} paths
 * @returns {Promise<Map<string, unknown>>}
 */
export async function fetchSignedOut(client, paths) {
  const answers = new Map();
  for (const path of paths) {
    const answer = await client.request('GET', path, undefined, {}).catch(() => null);
    const served = answer && answer.status >= 200 && answer.status < 300;
    answers.set(signedOutKey(path), served ? answer.body : REFUSED_SIGNED_OUT);
  }
  return answers;
}

/**
 * The principal's values a list holds as the principal's own: one as long as a uuid (an e-mail, a token) wherever it
 * stands; a short one (an int id) only where the list differs by principal, shown signed in and not signed out. That a
 * number in a list equals the principal's id says nothing by itself, nor does a list refused signed out, whose answers
 * cannot be compared. A list never asked signed out keeps every value, as the principal's own may be among them.
 * @param {string[]} values the principal's values for the list's entity (principalValuesFor)
 * @param {unknown} signedIn the list's answer signed in @param {unknown} signedOut its answer signed out
 *   (fetchSignedOut): a body, REFUSED_SIGNED_OUT, or undefined where it was not asked
 * @param {string[]} keys the id's keys in an item
 * @returns {string[]}
 */
export function principalOwn(values, signedIn, signedOut, keys) {
  if (signedOut === undefined) return values;
  const anyone = new Set(signedOut === REFUSED_SIGNED_OUT ? [] : listedValues(signedOut, keys).map(String));
  const byPrincipal =
    signedOut === REFUSED_SIGNED_OUT
      ? []
      : listedValues(signedIn, keys)
          .map(String)
          .filter((value) => !anyone.has(value));
  return values.filter((value) => value.length >= DISTINCT_VALUE_LENGTH || byPrincipal.includes(value));
}
