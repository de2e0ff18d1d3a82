// @ts-check
// The requests beyond a route's own that find where Express's defaults and Fastify's part: the path with a trailing
// slash and in capitals, a JSON body over Express's 100 KB limit and the same body as a form, HEAD, a browser's CORS
// preflight for the route's method, and cookies sent along. (A file interceptor's route is sent a file as its own
// request: upload-form.js.) compatibility.js sends each to both adapters; probe-statements.js says what their answers
// showed.
import { formFields } from '../bodies/upload-form.js';

/** Just over Express's default JSON limit (100 KB), far under Fastify's (1 MiB). */
const LARGE_BODY_BYTES = 110 * 1024;
/** Sent when the scan found no cookie the app reads or sets. */
const PROBE_COOKIE_NAMES = ['session'];
/** The preflight's origin when the app names none in its CORS options (a front end on another port). */
export const PROBE_ORIGIN = 'http://localhost:5173';
/** A preflight's answer is compared on these as well as its status. */
export const PREFLIGHT_HEADERS = ['access-control-allow-origin', 'access-control-allow-methods'];

/**
 * @typedef {import('../../model/scenarios.js').ScenarioRequest} ScenarioRequest
 * @typedef {object} Probe
 * @property {string} name trailing slash, other case, body over 100 KB, urlencoded, HEAD, preflight, cookies
 *   (probe-statements.js words each)
 * @property {ScenarioRequest} request
 * @property {boolean} statusOnly HEAD has no body, and a preflight's lists what each framework registered
 * @property {string[]} [headers] compared as well: a preflight's CORS headers
 * @property {string} [asks] the method a preflight asks for
 */

/**
 * @param {ScenarioRequest} request the route's own request
 * @param {{ cookies?: string[], origin?: string }} [route] cookies: the names the app's code reads or sets; origin:
 *   one its CORS options allow
 * @returns {Probe[]}
 */
export function probesFor(request, { cookies = [], origin = PROBE_ORIGIN } = {}) {
  const [path, query = ''] = splitQuery(request.path);
  const at = (/** @type {string} */ newPath) => `${newPath}${query ? `?${query}` : ''}`;
  const plain = { ...request, sequence: undefined };
  /** @type {Probe[]} */
  const probes = [];
  if (path !== '/' && !path.endsWith('/'))
    probes.push({ name: 'trailing slash', request: { ...plain, path: at(`${path}/`) }, statusOnly: false });
  if (path.toUpperCase() !== path)
    probes.push({ name: 'other case', request: { ...plain, path: at(path.toUpperCase()) }, statusOnly: false });
  const json = jsonBody(request.body);
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
    const fields = /** @type {Record<string, unknown>} */ (json);
    probes.push({
      name: 'body over 100 KB',
      request: withBody(plain, 'application/json', JSON.stringify(padded(fields, request.method))),
      statusOnly: false,
    });
    probes.push({
      name: 'urlencoded',
      request: withBody(plain, 'application/x-www-form-urlencoded', formEncoded(fields)),
      statusOnly: false,
    });
  }
  if (request.method === 'GET') probes.push({ name: 'HEAD', request: { ...plain, method: 'HEAD' }, statusOnly: true });
  probes.push({
    name: 'preflight',
    request: { ...plain, method: 'OPTIONS', headers: preflightHeaders(request, origin), body: undefined },
    statusOnly: true,
    headers: PREFLIGHT_HEADERS,
    asks: request.method,
  });
  probes.push({
    name: 'cookies',
    request: {
      ...plain,
      headers: {
        ...plain.headers,
        cookie: (cookies.length ? cookies : PROBE_COOKIE_NAMES).map((name) => `${name}=probe`).join('; '),
      },
    },
    statusOnly: false,
  });
  return probes;
}

/**
 * What a browser sends before a cross-origin request of this method with these headers.
 * @param {ScenarioRequest} request @param {string} origin
 */
function preflightHeaders(request, origin) {
  const asked = Object.keys(request.headers)
    .map((name) => name.toLowerCase())
    .filter((name) => name !== 'cookie')
    .sort();
  return {
    origin,
    'access-control-request-method': request.method,
    ...(asked.length ? { 'access-control-request-headers': asked.join(',') } : {}),
  };
}

/** @param {string} path */
function splitQuery(path) {
  const at = path.indexOf('?');
  return at === -1 ? [path] : [path.slice(0, at), path.slice(at + 1)];
}

/** @param {string | undefined} body */
function jsonBody(body) {
  if (body === undefined) return null;
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}

/** @param {Record<string, string>} headers */
function withoutContentType(headers) {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'));
}

/** @param {ScenarioRequest} request @param {string} type @param {string} body */
function withBody(request, type, body) {
  return { ...request, headers: { ...withoutContentType(request.headers), 'content-type': type }, body };
}

/** Writes that change an existing entity: what their body's fields hold is written over what it holds. */
const IN_PLACE = new Set(['PATCH', 'PUT']);

/**
 * The body made larger than Express's limit where it changes least: a create's first text field grows; a write in place
 * gets a field of its own, so what it sends (the signed-in account's own name, sent as its current values) is written
 * as it was where Fastify takes the body (a validation pipe's whitelist drops the field).
 * @param {Record<string, unknown>} fields @param {string} method
 */
function padded(fields, method) {
  const text = IN_PLACE.has(method) ? undefined : Object.keys(fields).find((key) => typeof fields[key] === 'string');
  const key = text ?? 'padding';
  return { ...fields, [key]: `${text ? String(fields[text]) : ''}${'x'.repeat(LARGE_BODY_BYTES)}` };
}

/**
 * As a browser form with Express's extended parser reads it back: `a[b]=1`, `list[0]=x`.
 * @param {Record<string, unknown>} fields
 */
export function formEncoded(fields) {
  // the unique-value placeholder stays readable for the sender to fill in
  return new URLSearchParams(formFields(fields)).toString().replaceAll('%7B%7Bunique%7D%7D', '{{unique}}');
}
