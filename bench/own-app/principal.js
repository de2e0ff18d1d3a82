// @ts-check
// Nothing lost: the signed-in principal outlives the run. A write that would remove or change the account
// authenticate() signed in with is not timed (the plan says why and how to time it anyway), and after each write's
// check the sign-in is tried again, so one the plan did not foresee becomes a finding before anything repeats it.

/** The flag that times such a write anyway. */
export const TIME_WRITE_FLAG = '--time-write';

/** A last path segment that stands for the signed-in account itself. */
const SELF_SEGMENTS = new Set(['me', 'self', 'whoami']);
/** The same, for writes that replace or remove it (a POST there usually creates something else). */
const ACCOUNT_SEGMENTS = new Set(['profile', 'account', 'current-user', 'current']);
/** What follows an account in a path and changes what it signs in with or may do. */
const IDENTITY_SEGMENT =
  /^(password|e-?mail|username|roles?|status|permissions?|credentials?|(de)?activate|disable|enable|suspend|lock|ban|block|tokens?)$/i;
/** A path segment that names a password or e-mail change (`change-password`, `/me/email`). */
const CREDENTIAL_SEGMENT = /password|e-?mail/i;
/** Paths that use credentials without changing the signed-in account: a sign-in, a sign-up. */
const SIGN_IN_SEGMENT = /^(log-?in|sign-?in|register|sign-?up|token|refresh)$/i;
/** Body fields of a password change. */
const PASSWORD_CHANGE_FIELD = /^(old|current|previous|new)[-_]?password$/i;
/** What a token or authenticate()'s params call the signed-in account. */
const IDENTITY_CLAIMS = ['sub', 'id', 'userId', 'user_id', 'uid', 'accountId', 'email', 'username'];
const IDENTITY_PARAM = /^(user|account|me|principal|profile|member|self)[-_]?(id|uuid|name)?$/i;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Collections of accounts: a short value (an int id) names the signed-in account only under one of these. */
const ACCOUNT_COLLECTION =
  /^(users?|accounts?|members?|profiles?|people|persons?|customers?|admins?|employees?|principals?)$/i;
/** A value this long (a uuid, an e-mail, a token) names the account wherever it stands. */
const DISTINCT_VALUE_LENGTH = 8;

/**
 * The values that name the signed-in account: authenticate()'s params named for a user, what its bearer token says
 * (sub, id, email, ...; read, not verified), and the token itself.
 * @param {import('./authenticate.js').Credentials} credentials
 * @returns {string[]}
 */
export function principalValues({ headers, params }) {
  const values = new Set(
    Object.entries(params)
      .filter(([name]) => IDENTITY_PARAM.test(name))
      .map(([, value]) => value),
  );
  for (const header of Object.values(headers)) {
    const token = header.replace(/^(Bearer|Token|JWT)\s+/i, '').trim();
    if (token.length >= 16) values.add(token);
    const payload = jwtPayload(token);
    for (const claim of IDENTITY_CLAIMS)
      if (typeof payload?.[claim] === 'string' || typeof payload?.[claim] === 'number')
        values.add(String(payload[claim]));
  }
  return [...values].filter((value) => value !== '');
}

/**
 * Every value the bearer token carries (roleId, tenantId, organisationId as well as the account's own): a write to
 * the entity one of them names changes what the sign-in may do.
 * @param {Record<string, string>} headers
 * @returns {string[]}
 */
export function tokenClaimValues(headers) {
  return Object.values(headers).flatMap((header) =>
    Object.values(jwtPayload(header.replace(/^(Bearer|Token|JWT)\s+/i, '').trim()) ?? {})
      .filter((value) => typeof value === 'string' || typeof value === 'number')
      .map(String),
  );
}

/** @param {string} token @returns {Record<string, unknown> | null} */
function jwtPayload(token) {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    return payload && typeof payload === 'object' ? payload : null;
  } catch {
    return null;
  }
}

/**
 * Why a write would remove or change the signed-in account, or null when it would not.
 * @param {{ method: string, path: string }} route as registered
 * @param {string} url the request it is measured with, path parameters filled
 * @param {unknown} body what it sends
 * @param {string[]} principal principalValues()
 * @returns {string | null}
 */
export function principalChange(route, url, body, principal) {
  if (READ_METHODS.has(route.method)) return null;
  const registered = route.path.split('/').filter(Boolean);
  const sent = url.split(/[?#]/)[0].split('/').filter(Boolean).map(safeDecode);
  const last = registered.at(-1)?.toLowerCase() ?? '';
  if (SELF_SEGMENTS.has(last)) return `its path ends in /${last}: it ${verb(route.method)} the signed-in account`;
  if (ACCOUNT_SEGMENTS.has(last) && route.method !== 'POST')
    return `its path ends in /${last}: it ${verb(route.method)} the signed-in account`;
  const named = sent.findIndex(
    (segment, i) =>
      principal.includes(segment) &&
      (segment.length >= DISTINCT_VALUE_LENGTH || ACCOUNT_COLLECTION.test(registered[i - 1] ?? '')),
  );
  if (
    named !== -1 &&
    (named === sent.length - 1 || (named === sent.length - 2 && IDENTITY_SEGMENT.test(sent[named + 1])))
  )
    return `${registered[named] ?? 'its path'} is the account authenticate() signed in: it ${verb(route.method)} it`;
  if (!registered.some((segment) => SIGN_IN_SEGMENT.test(segment))) {
    const credential = registered.find((segment) => !segment.startsWith(':') && CREDENTIAL_SEGMENT.test(segment));
    if (credential) return `${/password/i.test(credential) ? 'a password' : 'an e-mail'} change (/${credential})`;
  }
  const field = fieldNames(body).find((name) => PASSWORD_CHANGE_FIELD.test(name));
  if (field) return `a password change (its body has ${field})`;
  return null;
}

/** @param {string} method */
function verb(method) {
  return method === 'DELETE' ? 'removes' : 'changes';
}

/** @param {unknown} body @returns {string[]} every property name in it, nested ones too */
function fieldNames(body) {
  if (Array.isArray(body)) return body.flatMap(fieldNames);
  if (!body || typeof body !== 'object') return [];
  return Object.entries(body).flatMap(([name, value]) => [name, ...fieldNames(value)]);
}

/** @param {string} value */
function safeDecode(value) {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The one line a protected write gets in the routes table.
 * @param {string} why principalChange()
 * @param {{ method: string, path: string }} route
 */
export function protectedWriteReason(why, route) {
  return `${why}, so timing it would lose the sign-in every other route needs; to time it anyway (on an account you can lose): ${TIME_WRITE_FLAG} '${route.method} ${route.path}'`;
}

/**
 * A request that shows the sign-in still works: a signed-in read that answered with the headers and was refused
 * without them. Chosen once, after authenticate().
 * @typedef {{ path: string, status: number }} SignInWitness
 */

/**
 * The sign-in tried again after a write: authenticate() still signs in, and the witness still answers as it did
 * with the headers the run sends. Why it stopped working, or null.
 * @param {object} input
 * @param {import('./authenticate.js').AppClient} input.client the Express server of the check
 * @param {((client: import('./authenticate.js').AppClient) => unknown) | null} input.authenticate
 * @param {Record<string, string>} input.headers what every request is sent with
 * @param {SignInWitness | null} input.witness
 * @returns {Promise<string | null>}
 */
export async function signInLost({ client, authenticate, headers, witness }) {
  if (witness) {
    const { status } = await client.request('GET', witness.path, undefined, headers);
    if (status !== witness.status)
      return `GET ${witness.path} answered ${status} with the sign-in's headers, ${witness.status} before`;
  }
  if (authenticate) {
    try {
      await authenticate(client);
    } catch (error) {
      return `authenticate() failed: ${/** @type {Error} */ (error).message?.split('\n')[0] ?? String(error)}`;
    }
  }
  return null;
}

/**
 * The one line a write after which the sign-in stopped working gets.
 * @param {string} lost signInLost() @param {string} request e.g. DELETE /api/v1/auth/me
 */
export function lostSignInReason(lost, request) {
  return `signing in stopped working after ${request} (${lost}): it changes the signed-in account, so it is not timed; restore the account before the next run`;
}

/** Paths whose name says they answer who is signed in: tried first as the witness. */
const SELF_READ = /\/(me|self|whoami|profile|account|session)$/i;

/**
 * The signed-in reads worth trying as a witness, best first: a /me before a list.
 * @param {string[]} paths GET requests the plan can send, parameters filled
 * @param {number} [most]
 */
export function witnessCandidates(paths, most = 4) {
  return [...paths.filter((p) => SELF_READ.test(p)), ...paths.filter((p) => !SELF_READ.test(p))].slice(0, most);
}

/**
 * The first candidate that answers 2xx with the headers and 401 or 403 without them.
 * @param {import('./authenticate.js').AppClient} client @param {string[]} candidates
 * @param {Record<string, string>} headers
 * @returns {Promise<SignInWitness | null>}
 */
export async function findWitness(client, candidates, headers) {
  for (const path of candidates) {
    const signedIn = await client.request('GET', path, undefined, headers);
    if (signedIn.status < 200 || signedIn.status >= 300) continue;
    const anonymous = await client.request('GET', path);
    if (anonymous.status === 401 || anonymous.status === 403) return { path, status: signedIn.status };
  }
  return null;
}
