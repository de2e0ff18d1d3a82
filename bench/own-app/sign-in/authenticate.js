// @ts-check
// Signed-in routes: --sign-in gives a password sign-in (sign-in-flag.js), or the --nest-setup module exports
// authenticate(client) for one a flag cannot say. The bench boots the module on each adapter, signs in once per
// booted adapter with a client for that server, and sends the headers it returns (and fills path parameters with the
// params authenticate() may return) with every request. Express's answer is used on both adapters, since
// both serve the same database; Fastify's call shows that signing in works there too.
import { pathToFileURL } from 'node:url';
import { UsageError } from '../../errors.js';
import { serverPort, startTarget } from '../../run/targets.js';
import { send } from '../../run/verify.js';
import { EXPRESS_TARGET, FASTIFY_TARGET } from '../../model/own-app-record.js';
import { SIGN_IN_FLAG } from './sign-in-flag.js';

/** The app refused the headers authenticate() returned: thrown while signed in, ends the sign-in as refused. */
class SignInRefused extends UsageError {
  name = 'SignInRefused';
}

/** What to do when --sign-in's request failed on Express. */
const FLAG_SIGN_IN_FIX =
  "the account it signs in with must be in the database the app reads, as the app's .env names it: sign it up (or " +
  "restore the database) before the run, or give --sign-in another account's credentials";
/** What to do when authenticate() threw on Express. */
const SIGN_IN_FIX =
  'authenticate() signs in on a server just started with the app’s own .env: the account it signs in with must be in ' +
  'the database the app reads (create it in authenticate() when the sign-in answers that it is missing, or restore ' +
  'the database), and it must throw only when the app refuses it';

/**
 * What authenticate(client) is given: one request at a time to the app on one adapter.
 * @typedef {object} AppClient
 * @property {(method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<ClientAnswer>}
 *   request a body that is not a string goes as JSON; headers: e.g. the token of a sign-in before it
 *
 * @typedef {{ status: number, headers: Record<string, string>, body: unknown }} ClientAnswer body: parsed JSON, else
 *   the text
 *
 * @typedef {{ headers: Record<string, string>, params: Record<string, string> }} Credentials
 *
 * @typedef {import('../../model/own-app-record.js').SignInRecord} SignInRecord
 */

/**
 * @param {string} baseUrl
 * @returns {AppClient}
 */
export function appClient(baseUrl) {
  return {
    async request(method, path, body, extra = {}) {
      const text = body === undefined || typeof body === 'string' ? body : JSON.stringify(body);
      /** @type {Record<string, string>} */
      const headers = {
        ...(text !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
        ...extra,
      };
      const answer = await send(`${baseUrl}${path}`, { method: method.toUpperCase(), path, headers, body: text });
      let parsed;
      try {
        parsed = JSON.parse(answer.body);
      } catch {
        parsed = answer.body;
      }
      return { status: answer.status, headers: answer.headers, body: parsed };
    },
  };
}

/**
 * The setup module's authenticate export, or null when it has none.
 * @param {Record<string, any> | null} setup loadSetup()'s @param {string | null} setupFile where it was loaded from
 * @returns {((client: AppClient) => unknown) | null}
 * @throws {UsageError} its authenticate is not a function
 */
export function authenticateExport(setup, setupFile) {
  if (setup === null) return null;
  const authenticate = setup.authenticate ?? setup.default?.authenticate;
  if (authenticate === undefined) return null;
  if (typeof authenticate !== 'function') throw new UsageError(`${setupFile}: authenticate must be a function`);
  return authenticate;
}

/**
 * The setup module, imported once in the bench's process from the app's folder as its servers are: a setup that loads
 * the app's .env (`import 'dotenv/config'`) and the app's modules, as main.ts does, finds them.
 * @param {string | null} file @param {string} cwd the app's folder, where its servers run
 * @returns {Promise<Record<string, any> | null>} null without a setup module
 * @throws {UsageError} it does not load
 */
export async function loadSetup(file, cwd) {
  if (file === null) return null;
  const before = process.cwd();
  process.chdir(cwd);
  try {
    return await import(pathToFileURL(file).href);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const said = message.trim().split('\n').slice(0, 3).join(' ');
    throw new UsageError(`--nest-setup ${file}: it does not load in the bench's process, run in ${cwd}: ${said}`);
  } finally {
    process.chdir(before);
  }
}

/**
 * What authenticate() returned, as headers and path parameters: either headers, or { headers, params }.
 * @param {unknown} returned @param {string} setupFile
 * @returns {Credentials}
 */
export function credentials(returned, setupFile) {
  const record = /** @type {Record<string, unknown>} */ (returned);
  const hasParts = record !== null && typeof record === 'object' && ('headers' in record || 'params' in record);
  const headers = hasParts ? (record.headers ?? {}) : record;
  const params = hasParts ? (record.params ?? {}) : {};
  const strings = (/** @type {unknown} */ value) =>
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number');
  if (!strings(headers) || !strings(params))
    throw new UsageError(
      `${setupFile}: authenticate() returned ${JSON.stringify(returned)?.slice(0, 80)}; return headers, e.g. { authorization: 'Bearer …' }, or { headers, params }`,
    );
  const text = (/** @type {object} */ map) =>
    Object.fromEntries(Object.entries(map).map(([name, value]) => [name, String(value)]));
  return {
    headers: Object.fromEntries(
      Object.entries(text(/** @type {object} */ (headers))).map(([n, v]) => [n.toLowerCase(), v]),
    ),
    params: text(/** @type {object} */ (params)),
  };
}

/**
 * Boots the module on both adapters, calls authenticate once on each, and stops them. On Express, signed in, it also
 * asks the app what the plan needs from it (whileSignedIn: list answers, a witness of the sign-in). Without
 * authenticate, Express alone is booted for that, and only when asked.
 * @template T
 * @param {object} input
 * @param {((client: AppClient) => unknown) | null} input.authenticate
 * @param {string | null} input.source what signs in: `--sign-in POST /login`, or the setup module's file
 * @param {import('../../model/config.js').Config} input.config the own-app config: its two targets
 * @param {import('../../runtimes/runtimes.js').Runtime} input.runtime
 * @param {number | null} input.basePort --port; null: free ports
 * @param {Record<string, string>} input.env
 * @param {(line: string) => void} input.log
 * @param {((client: AppClient, signedIn: Credentials) => Promise<T>) | null} [input.whileSignedIn]
 * @returns {Promise<{ credentials: Credentials, record: SignInRecord | null, found: T | null,
 *   requests: SignInRequest[] }>} requests: what authenticate() sent on Express and the app accepted
 * @throws {UsageError} authenticate() returned something else than headers, or Express did not start
 */
export async function signIn({ authenticate, source, config, runtime, basePort, env, log, whileSignedIn = null }) {
  const anonymous = { headers: {}, params: {} };
  if (!authenticate || !source) {
    if (!whileSignedIn) return { credentials: anonymous, record: null, found: null, requests: [] };
    log('asking the app on Express for the ids its routes need');
    const running = await startTarget(targetNamed(config, EXPRESS_TARGET), { runtime, port: basePort, env });
    try {
      const found = await whileSignedIn(appClient(running.url), anonymous);
      return { credentials: anonymous, record: null, found, requests: [] };
    } finally {
      await running.stop();
    }
  }
  const flag = source.startsWith(SIGN_IN_FLAG);
  log(`signing in with ${flag ? source : 'authenticate() from --nest-setup'} on Express and Fastify`);
  /** @type {Record<string, Credentials>} */
  const signedIn = {};
  /** @type {Record<string, string | null>} */
  const errors = {};
  /** @type {T | null} */
  let found = null;
  /** @type {SignInRequest[]} */
  const requests = [];
  let threw = false;
  for (const [i, name] of [EXPRESS_TARGET, FASTIFY_TARGET].entries()) {
    let running;
    try {
      running = await startTarget(targetNamed(config, name), { runtime, port: serverPort(basePort, i), env });
      const client = appClient(running.url);
      /** @type {SignInRequest[]} */
      const sent = [];
      const recorded = name === EXPRESS_TARGET ? recording(client, sent) : client;
      const returned = await Promise.resolve(authenticate(recorded)).catch((error) => {
        threw ||= name === EXPRESS_TARGET;
        throw error;
      });
      signedIn[name] = credentials(returned, source);
      if (name === EXPRESS_TARGET) requests.push(...(await acceptedAgain(client, sent)));
      errors[name] = null;
      if (name === EXPRESS_TARGET && whileSignedIn) found = await whileSignedIn(client, signedIn[name]);
    } catch (error) {
      if (error instanceof SignInRefused) return refusedSignIn(error.message, errors);
      if (error instanceof UsageError) throw error;
      errors[name] = /** @type {Error} */ (error).message?.split('\n')[0] ?? String(error);
    } finally {
      await running?.stop();
    }
  }
  const express = signedIn[EXPRESS_TARGET];
  const failed = flag
    ? `the sign-in failed on Express: ${errors[EXPRESS_TARGET]}`
    : `${source}: authenticate() failed on Express: ${errors[EXPRESS_TARGET]}`;
  if (!express && !threw) throw new UsageError(failed);
  if (!express) return refusedSignIn(`${failed}; ${flag ? FLAG_SIGN_IN_FIX : SIGN_IN_FIX}`, errors);
  return {
    credentials: express,
    record: { source, headers: Object.keys(express.headers), params: Object.keys(express.params), errors },
    found,
    requests,
  };
}

/**
 * A sign-in the app refused: no credentials, and the one line that says what it answered and how to fix the setup.
 * @param {string} refused @param {Record<string, string | null>} errors
 */
function refusedSignIn(refused, errors) {
  // Fastify's sign-in is not tried, or failed alike: the report does not read it as Fastify's own failure
  const record = { headers: [], params: [], errors: { [EXPRESS_TARGET]: errors[EXPRESS_TARGET] ?? null }, refused };
  return { credentials: { headers: {}, params: {} }, record, found: null, requests: [] };
}

/**
 * A request authenticate() sent that the app accepted: a valid body for its sign-in route, and the headers it was
 * sent with (an accept header the app requires).
 * @typedef {{ method: string, url: string, value: unknown, headers?: Record<string, string> }} SignInRequest
 */

/**
 * The client, keeping each request with a body that the app answered with a 2xx.
 * @param {AppClient} client @param {SignInRequest[]} into
 * @returns {AppClient}
 */
function recording(client, into) {
  return {
    async request(method, path, body, extra) {
      const answer = await client.request(method, path, body, extra);
      if (body !== undefined && answer.status >= 200 && answer.status < 300)
        into.push({ method: method.toUpperCase(), url: path, value: body, ...(extra ? { headers: extra } : {}) });
      return answer;
    },
  };
}

/**
 * The requests the app accepts a second time: a sign-in's body can be timed, a sign-up's cannot (its account exists
 * now, and the app answers 409).
 * @param {AppClient} client @param {SignInRequest[]} sent
 * @returns {Promise<SignInRequest[]>}
 */
export async function acceptedAgain(client, sent) {
  const again = [];
  for (const request of sent) {
    const answer = await client.request(request.method, request.url, request.value, request.headers);
    if (answer.status >= 200 && answer.status < 300) again.push(request);
  }
  return again;
}

/** How much of a header's value, and of the refusing answer's body, the refusal quotes. */
const MOST_VALUE_CHARS = 12;
const MOST_BODY_CHARS = 160;

/**
 * What askApp throws, while signed in, where the app refused the sign-in's headers: signIn() ends as refused.
 * @param {string} source what signed in @param {Record<string, string>} returned the sign-in's headers
 * @param {import('./sign-in-proof.js').SignInRefusal} refusal
 */
export function refusedSignInError(source, returned, refusal) {
  return new SignInRefused(refusedSignInMessage(source, returned, refusal));
}

/** How many of the requests tried the refusal names. */
const MOST_TRIED_SHOWN = 8;

/**
 * The sign-in's mistake, said once, where every request refused signed out refused its headers too: what it sent,
 * which requests were tried, what the first answered, and the header to send instead (never the one it sent).
 * @param {string} source what signed in: `--sign-in POST /login`, or the setup module's file
 * @param {Record<string, string>} returned the sign-in's headers
 * @param {import('./sign-in-proof.js').SignInRefusal} refusal
 */
export function refusedSignInMessage(source, returned, refusal) {
  const flag = source.startsWith(SIGN_IN_FLAG);
  const shown = Object.entries(returned)
    .map(
      ([name, value]) =>
        `${name}: ${JSON.stringify(value.length > MOST_VALUE_CHARS ? `${value.slice(0, MOST_VALUE_CHARS)}…` : value)}`,
    )
    .join(', ');
  const body = typeof refusal.body === 'string' ? refusal.body : JSON.stringify(refusal.body);
  const said = body.length > MOST_BODY_CHARS ? `${body.slice(0, MOST_BODY_CHARS)}…` : body;
  const tried = refusal.tried.slice(0, MOST_TRIED_SHOWN).join(', ');
  const more = refusal.tried.length > MOST_TRIED_SHOWN ? ` and ${refusal.tried.length - MOST_TRIED_SHOWN} more` : '';
  const authorization = returned.authorization;
  const bearer = authorization !== undefined && /^Bearer\s+\S/i.test(authorization);
  const fix =
    authorization !== undefined && !/^\S+\s+\S/.test(authorization)
      ? 'its authorization has no scheme: return { authorization: `Bearer ${token}` }, as passport-jwt’s fromAuthHeaderAsBearerToken() reads it'
      : bearer || flag
        ? 'the app reads the credential from elsewhere (another header, a cookie, a scheme of its own: see its guard or strategy), or refuses this account on every one of them; for another header, authenticate() in --nest-setup returns it'
        : 'return the header the app reads, e.g. { authorization: `Bearer ${token}` } for passport-jwt’s fromAuthHeaderAsBearerToken()';
  const what = flag ? `the headers ${source} signed in with` : `the headers authenticate() returned`;
  return (
    `${flag ? '' : `${source}: `}the app refused ${what} (${shown || 'none'}) on every request it refuses signed out ` +
    `(${tried}${more}): ${refusal.path} answered ${refusal.status} ${said} with them, as without them; ${fix}`
  );
}

/** @param {import('../../model/config.js').Config} config @param {string} name */
function targetNamed(config, name) {
  return /** @type {import('../../model/config.js').Target} */ (config.targets.find((t) => t.name === name));
}
