// @ts-check
// --sign-in 'POST /api/auth/login={…}': the password sign-in as a flag, in place of authenticate() in a setup module.
// It is sent as given; the credential is taken from the answer (a JWT at any depth of its JSON body, a token under a
// key that names one, or the cookies it sets) and sent as the app takes it (a Bearer header or a cookie header).
import { UsageError } from '../../errors.js';
import { graphqlErrors } from '../graphql/graphql-answers.js';
import { schemaOperations } from '../graphql/graphql-operations.js';
import { listQueries } from '../graphql/graphql-values.js';
import { acceptedWay, signInCandidates } from './sign-in-proof.js';

export const SIGN_IN_FLAG = '--sign-in';

/**
 * The sign-in request the flag gives.
 * @typedef {{ method: string, url: string, value: unknown }} SignInFlag
 */

/** Three base64url parts: a JWT, if its first decodes to a JSON object (its header). */
const JWT_PARTS = /^[\w-]+\.[\w-]+\.[\w-]*$/;
/** A key whose string value is the credential where it is no JWT (an opaque session token). */
const TOKEN_KEY = /^(access[-_]?token|accessToken|token|jwt|id[-_]?token|session[-_]?token|auth[-_]?token)$/i;
/** A key naming the token that only gets a new one: taken last. */
const REFRESH_KEY = /refresh/i;
/** How deep in the answer a token is looked for. */
const MOST_DEPTH = 6;
/** How much of a refusing answer the error quotes. */
const MOST_BODY_CHARS = 160;

/**
 * The strings of a JSON answer with the keys they sit under, depth first in the answer's order.
 * @param {unknown} node @param {string} key @param {number} depth
 * @returns {{ key: string, value: string }[]}
 */
function strings(node, key = '', depth = 0) {
  if (typeof node === 'string') return [{ key, value: node }];
  if (depth > MOST_DEPTH || node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([inner, value]) => strings(value, Array.isArray(node) ? key : inner, depth + 1));
}

/**
 * The credential a sign-in's answer holds: a JWT at any depth (an access token before a refresh token), else a string
 * under a key that names a token; null where there is none.
 * @param {unknown} body the parsed answer
 * @returns {string | null}
 */
export function tokenIn(body) {
  const found = strings(body);
  const access = (/** @type {{ key: string }} */ s) => !REFRESH_KEY.test(s.key);
  const jwts = found.filter((s) => isJwt(s.value));
  const named = found.filter((s) => TOKEN_KEY.test(s.key) && s.value.trim() !== '');
  return (jwts.find(access) ?? jwts[0] ?? named.find(access) ?? named[0])?.value ?? null;
}

/** @param {string} value */
function isJwt(value) {
  if (!JWT_PARTS.test(value)) return false;
  try {
    const header = JSON.parse(Buffer.from(value.split('.')[0], 'base64url').toString('utf8'));
    return header !== null && typeof header === 'object' && !Array.isArray(header);
  } catch {
    return false;
  }
}

/**
 * The cookies a set-cookie header sets, as a cookie header sends them back (`a=1; b=2`), or null. Several set-cookie
 * headers arrive joined by commas, as an expiry date's day is: a comma starts a cookie only before `name=`.
 * @param {string | undefined} header
 */
export function cookieHeader(header) {
  if (!header) return null;
  const pairs = header
    .split(/,\s*(?=[^;,=\s]+=)/)
    .map((cookie) => cookie.split(';')[0].trim())
    .filter((pair) => /^[^=]+=./.test(pair));
  return pairs.length ? pairs.join('; ') : null;
}

/**
 * A way of sending a credential back: its name, as the chosen way is kept between sign-ins, and its headers.
 * @typedef {{ way: 'bearer' | 'cookie' | 'token-scheme' | 'bare', headers: Record<string, string> }} CredentialWay
 */

/**
 * The ways a sign-in's answer can be sent back: its token as a Bearer header, its cookies, then the token under the
 * schemes apps read besides Bearer (RealWorld's `Token …`, the bare token).
 * @param {{ headers: Record<string, string>, body: unknown }} answer
 * @returns {CredentialWay[]}
 */
export function credentialWays(answer) {
  const token = tokenIn(answer.body);
  const cookie = cookieHeader(answer.headers['set-cookie']);
  return [
    ...(token ? [{ way: /** @type {const} */ ('bearer'), headers: { authorization: `Bearer ${token}` } }] : []),
    ...(cookie ? [{ way: /** @type {const} */ ('cookie'), headers: { cookie } }] : []),
    ...(token
      ? [
          { way: /** @type {const} */ ('token-scheme'), headers: { authorization: `Token ${token}` } },
          { way: /** @type {const} */ ('bare'), headers: { authorization: token } },
        ]
      : []),
  ];
}

/**
 * authenticate() for a --sign-in flag: sends the sign-in as given and returns the headers that carry its credential,
 * the way the app takes it: `choose` asks the app once which way a read refused signed out answers 2xx with, and
 * every later sign-in sends that way. Where no read tells, the token goes as a Bearer header beside the cookies, and
 * the sign-in's proof shows whether the app takes it.
 * @param {SignInFlag} request
 * @param {(client: import('./authenticate.js').AppClient, ways: Record<string, string>[]) =>
 *   Promise<Record<string, string> | null>} choose the way a read refused signed out answers 2xx with, or null
 * @returns {(client: import('./authenticate.js').AppClient) => Promise<Record<string, string>>}
 */
export function flagAuthenticate(request, choose) {
  /** @type {CredentialWay['way'] | 'unknown' | null} null: not asked yet */
  let chosen = null;
  return async (client) => {
    const answer = await client.request(request.method, request.url, request.value);
    const said = answerText(answer.body);
    const errors = graphqlErrors(answer.body);
    if (answer.status < 200 || answer.status >= 300 || errors)
      throw new Error(`${signInLine(request)} answered ${answer.status} ${errors ?? said}`);
    const ways = credentialWays(answer);
    if (!ways.length)
      throw new Error(
        `${signInLine(request)} answered ${answer.status} without a token (no JWT at any depth of its body, no token key) or a set-cookie: ${said}`,
      );
    if (chosen === null) {
      const taken = await choose(
        client,
        ways.map((w) => w.headers),
      );
      chosen = ways.find((w) => w.headers === taken)?.way ?? 'unknown';
    }
    const picked = ways.find((w) => w.way === chosen);
    if (picked) return picked.headers;
    return Object.assign({}, ...ways.filter((w) => w.way === 'bearer' || w.way === 'cookie').map((w) => w.headers));
  };
}

/**
 * What signs in: --sign-in's request, else the setup module's authenticate(); one of them.
 * @param {SignInFlag | null} flag
 * @param {import('../routes/discover.js').Discovered} discovered where the way the app takes a credential is asked
 * @param {{ authenticate: ((client: import('./authenticate.js').AppClient) => unknown) | null, source: string | null }}
 *   setup the setup module's authenticate, and its file
 * @returns {{ authenticate: ((client: import('./authenticate.js').AppClient) => unknown) | null, source: string | null }}
 * @throws {UsageError} both sign in
 */
export function signInFromFlag(flag, discovered, setup) {
  if (flag === null) return setup;
  if (setup.authenticate)
    throw new UsageError(
      `${signInLine(flag)} and authenticate() in ${setup.source} both sign in: give one (the flag for a password sign-in, authenticate() for one it cannot say)`,
    );
  const candidates = signInCandidates(
    discovered.routes
      .filter((r) => r.method === 'GET' && !r.path.includes(':') && !r.path.includes('*'))
      .map((r) => r.path),
    discovered.graphql ? graphqlQueries(discovered.graphql) : [],
  );
  const choose = (
    /** @type {import('./authenticate.js').AppClient} */ client,
    /** @type {Record<string, string>[]} */ ways,
  ) => acceptedWay(client, candidates, ways, {});
  return { authenticate: flagAuthenticate(flag, choose), source: signInLine(flag) };
}

/**
 * The schema's queries that need no argument, as requests.
 * @param {import('../graphql/graphql-schema.js').GraphqlApi} api
 */
function graphqlQueries(api) {
  const free = new Set(listQueries(api.fields).map((q) => q.field));
  return schemaOperations(api.fields)
    .filter((op) => op.kind === 'query' && op.field && free.has(op.field))
    .map((op) => ({
      line: `POST ${api.path} query ${op.name}`,
      path: api.path,
      body: { query: op.document },
      field: String(op.field),
    }));
}

/** @param {SignInFlag} request e.g. `--sign-in POST /api/auth/login` */
export function signInLine({ method, url }) {
  return `${SIGN_IN_FLAG} ${method} ${url}`;
}

/** @param {unknown} body */
function answerText(body) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text.length > MOST_BODY_CHARS ? `${text.slice(0, MOST_BODY_CHARS)}…` : text;
}
