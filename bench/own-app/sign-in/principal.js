// @ts-check
// Nothing lost: the signed-in principal outlives the run. After each write's check the sign-in is tried again and its
// /me read compared with what it answered before, so a change the plan did not foresee becomes a finding before
// anything repeats it.
import {
  ACCOUNT_FIELD,
  OWN_ID,
  SELF_READ,
  holdsSignedToken,
  isRecord,
  principalValues,
  scalar,
  signedClaims,
} from './principal-values.js';

/** @typedef {import('./principal-values.js').PrincipalValue} PrincipalValue */

/**
 * A read that shows the sign-in still works and who it is: a signed-in read that answered with the headers and was
 * refused without them. Chosen once, after authenticate(); its answer is what later writes must leave as it was.
 * @typedef {object} WitnessRead
 * @property {string} path
 * @property {number} status
 * @property {unknown} body its answer, signed in
 * @property {string[]} varies the fields that differed between two reads with nothing written between: not compared
 *
 * The read that proved the sign-in, and every other read of who is signed in that qualified (GET /auth/me and GET
 * /user/profile each show part of the account: its role in one, its username in the other).
 * @typedef {WitnessRead & { others?: WitnessRead[] }} SignInWitness
 *
 * @typedef {import('../../model/own-app-record.js').SignInChange} SignInChange
 */

/**
 * After each write's check: each witness read still answers as before (a /me: with the same answer but for dates and
 * what varies by itself), and authenticate() still signs in. The answers after authenticate() are the next write's
 * baseline, since signing in may change them (a last-login time).
 * @param {object} input
 * @param {((client: import('./authenticate.js').AppClient) => unknown) | null} input.authenticate
 * @param {Record<string, string>} input.headers what every request is sent with
 * @param {SignInWitness | null} input.witness
 * @returns {(client: import('./authenticate.js').AppClient) => Promise<SignInChange | null>} client: the Express
 *   server of the check
 */
export function watchSignIn({ authenticate, headers, witness }) {
  const principal = witness ? principalValues({ headers, params: {} }, witness) : [];
  const reads = witness ? [witness, ...(witness.others ?? [])] : [];
  const recordOf = (/** @type {WitnessRead} */ read, /** @type {unknown} */ body) =>
    principalRecord(read.path, body, principal);
  let baselines = reads.map((read) => recordOf(read, read.body));
  return async (client) => {
    for (const [i, read] of reads.entries()) {
      const { status, body } = await client.request('GET', read.path, undefined, headers);
      const was = `with the sign-in's headers, ${read.status} before`;
      if (status === 401) return { lost: true, why: `GET ${read.path} answered ${status} ${was}` };
      if (status === 403)
        return { lost: false, why: `GET ${read.path} answered ${status} ${was}: the principal lost a right` };
      // a refusal of another kind (a 429, a 500) says nothing of the principal: it is not "the same"
      if (status !== read.status)
        return { lost: false, unread: true, why: `GET ${read.path} answered ${status} ${was}` };
      const record = recordOf(read, body);
      // a list's answer changes with every write to its collection: only the principal's own record is compared
      const changed =
        baselines[i] === null
          ? []
          : record === null
            ? [`the principal's record: gone from the list`]
            : answerChanges(baselines[i], record, read.varies);
      if (changed.length) {
        // the next write is held to the changed record: this one is what changed it
        baselines[i] = record;
        return { lost: false, why: `GET ${read.path} answered ${changed.slice(0, MOST_CHANGES_SHOWN).join('; ')}` };
      }
    }
    if (authenticate) {
      try {
        await authenticate(client);
      } catch (error) {
        return {
          lost: true,
          why: `authenticate() failed: ${/** @type {Error} */ (error).message?.split('\n')[0] ?? String(error)}`,
        };
      }
    }
    baselines = [];
    for (const read of reads)
      baselines.push(recordOf(read, (await client.request('GET', read.path, undefined, headers)).body));
    return null;
  };
}

/** The keys a list answer keeps its items under, when it is not the list itself. */
const LIST_WRAPPERS = ['data', 'items', 'results', 'rows', 'records', 'content', 'list'];

/**
 * The principal's own record in a witness's answer: a read of who is signed in is it whole; in a list (GET /users),
 * the item holding one of the principal's account values (its id, e-mail, username); null where none does.
 * @param {string} path @param {unknown} body @param {PrincipalValue[]} principal
 * @returns {unknown}
 */
export function principalRecord(path, body, principal) {
  if (SELF_READ.test(path)) return body;
  const items = Array.isArray(body)
    ? body
    : isRecord(body)
      ? (LIST_WRAPPERS.map((key) => body[key]).find(Array.isArray) ?? [])
      : [];
  const accounts = principal.filter((p) => p.kind === 'account').map((p) => p.value);
  return (
    items.find(
      (item) =>
        isRecord(item) &&
        Object.entries(item).some(
          ([key, value]) =>
            scalar(value) && (OWN_ID.test(key) || ACCOUNT_FIELD.test(key)) && accounts.includes(String(value)),
        ),
    ) ?? null
  );
}

const MOST_CHANGES_SHOWN = 3;
/** A field named for a time, or a value that is one: it moves by itself (updatedAt, lastLoginAt). */
const TIME_FIELD = /(At|_at|Date|_date|Time|_time)$|^(date|time|timestamp|iat|exp)$/;
const TIME_VALUE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/**
 * Where two answers of one read differ, as `path: before → after`: times and the paths in `ignore` left out.
 * @param {unknown} before @param {unknown} after @param {string[]} [ignore] paths, e.g. data.requestId
 * @returns {string[]}
 */
export function answerChanges(before, after, ignore = []) {
  return differences(before, after, ignore, '').map(({ path, was, now }) => `${path || 'its body'}: ${was} → ${now}`);
}

/**
 * @param {unknown} before @param {unknown} after @param {string[]} ignore @param {string} at
 * @returns {{ path: string, was: string, now: string }[]}
 */
function differences(before, after, ignore, at) {
  if (ignore.includes(at) || TIME_FIELD.test(at.split('.').at(-1) ?? '')) return [];
  // a token signed per read (RealWorld's user.token) is another string each time: compare what it says
  if (typeof before === 'string' && typeof after === 'string' && holdsSignedToken(before) && holdsSignedToken(after))
    return differences(signedClaims(before), signedClaims(after), ignore, at);
  if (Array.isArray(before) && Array.isArray(after)) {
    if (before.length !== after.length) return [{ path: at, was: `${before.length} items`, now: `${after.length}` }];
    return before.flatMap((item, i) => differences(item, after[i], ignore, `${at}[${i}]`));
  }
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => differences(before[key], after[key], ignore, at ? `${at}.${key}` : key));
  }
  if (before === after || (typeof before === 'string' && TIME_VALUE.test(before) && typeof after === 'string'))
    return [];
  return [{ path: at, was: shown(before), now: shown(after) }];
}

const MOST_VALUE_CHARS = 40;
/** @param {unknown} value */
function shown(value) {
  if (value === undefined) return 'none';
  const text = JSON.stringify(value);
  return text.length > MOST_VALUE_CHARS ? `${text.slice(0, MOST_VALUE_CHARS)}…` : text;
}

/**
 * The one line a write after which the sign-in stopped working, or answers as another principal, gets.
 * @param {SignInChange} change watchSignIn() @param {string} request e.g. DELETE /api/v1/auth/me
 */
export function lostSignInReason({ lost, why, unread }, request) {
  if (unread)
    return `the signed-in principal's record could not be read after ${request} (${why}), so whether it changed the principal is not known: it is not timed; check the account before the next run`;
  return lost
    ? `signing in stopped working after ${request} (${why}): it changes the signed-in account, so it is not timed; restore the account before the next run`
    : `the signed-in principal's answer changed after ${request} (${why}): it changes the principal or what it may do, so it is not timed, and routes checked after it ran as the changed principal; restore it before the next run`;
}

/**
 * The reads a witness is chosen from: the one that proved the sign-in, then every other read of who is signed in.
 * @param {string} proved its path @param {string[]} reads GET paths the plan sends, parameters filled
 */
export function witnessPaths(proved, reads) {
  return [proved, ...reads.filter((path) => path !== proved && SELF_READ.test(path))];
}

/**
 * The first candidate that answers 2xx with the headers and 401 or 403 without them, with what varies between two of
 * its signed-in answers; beyond it, each read of who is signed in that does too (others).
 * @param {import('./authenticate.js').AppClient} client @param {string[]} candidates witnessPaths()
 * @param {Record<string, string>} headers
 * @returns {Promise<SignInWitness | null>}
 */
export async function findWitness(client, candidates, headers) {
  /** @type {WitnessRead[]} */
  const found = [];
  for (const path of candidates) {
    if (found.length && !SELF_READ.test(path)) continue;
    const signedIn = await client.request('GET', path, undefined, headers);
    if (signedIn.status < 200 || signedIn.status >= 300) continue;
    const anonymous = await client.request('GET', path);
    if (anonymous.status !== 401 && anonymous.status !== 403) continue;
    const again = await client.request('GET', path, undefined, headers);
    const varies = differences(signedIn.body, again.body, [], '').map((change) => change.path);
    found.push({ path, status: signedIn.status, body: signedIn.body, varies });
  }
  const [first, ...others] = found;
  return first ? { ...first, ...(others.length ? { others } : {}) } : null;
}
