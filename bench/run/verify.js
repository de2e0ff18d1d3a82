// @ts-check
// Before anything is timed: does each target answer each scenario correctly? A fast wrong answer is not a result.
import { gunzipSync } from 'node:zlib';
import { BARE } from '../model/stacks.js';
import { isHttp2, requestOnce } from './transport.js';
import { uniqueFiller } from './unique-values.js';

/** @typedef {import('../model/scenarios.js').Scenario} Scenario */
/** @typedef {import('../model/scenarios.js').ScenarioRequest} ScenarioRequest */

/**
 * @typedef {import('../model/records.js').Verification} Verification
 * @typedef {import('../model/records.js').HeaderDifference} HeaderDifference
 */

const VERIFY_TIMEOUT_MS = 10_000;
const fillUnique = uniqueFiller();
/** Changes on every response, so it is no difference between adapters. */
const IGNORED_HEADERS = new Set(['date']);
/**
 * Their values follow the body, which varies per response on some routes (queries), or the request (its id): only
 * presence is compared.
 */
const BODY_DERIVED_HEADERS = new Set(['content-length', 'etag', 'x-request-id']);
/** What helmet, @fastify/helmet and CORS set (or, x-powered-by, remove): the production stack's security policy. */
export const SECURITY_HEADERS = new Set([
  'content-security-policy',
  'cross-origin-embedder-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
  'x-powered-by',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-expose-headers',
  'vary',
]);

/**
 * Send the scenario's request once, over a keep-alive connection like the load generators use, and check the answer
 * (a gzipped one after decompressing it, as a client would).
 * @param {{ runtime: string, target: string, stack?: string, baseUrl: string, scenario: Scenario,
 *   request: ScenarioRequest }} pair
 * @returns {Promise<Verification>}
 */
export async function verifyPair({ runtime, target, stack = BARE, baseUrl, scenario, request: req }) {
  const base = { runtime, target, scenario: scenario.name, stack };
  let response;
  try {
    response = await send(`${baseUrl}${req.path}`, req);
  } catch (error) {
    return {
      ...base,
      ok: false,
      reason: `request failed: ${/** @type {Error} */ (error).message}`,
      status: null,
      headers: {},
    };
  }
  const { status, headers, body, protocol } = response;
  const contentType = headers['content-type'] ?? '';
  const reason =
    isHttp2(baseUrl) && protocol !== 'h2'
      ? `HTTP/2 was asked, the answer came over ${protocol}`
      : status !== scenario.status
        ? `expected status ${scenario.status}, got ${status}${errorMessage(body)}`
        : !scenario.contentType.test(contentType)
          ? `expected content-type ${scenario.contentType}, got "${contentType}"`
          : scenario.checkBody(body);
  return { ...base, ok: reason === null, reason, status, headers };
}

/** @param {string} body */
function errorMessage(body) {
  try {
    const { message } = JSON.parse(body);
    return message ? ` (${Array.isArray(message) ? message.join('; ') : message})` : '';
  } catch {
    return '';
  }
}

/**
 * @param {string} url
 * @param {ScenarioRequest} req
 * @param {{ agent?: import('node:http').Agent, timeoutMs?: number }} [connection] a keep-alive agent the caller owns, for requests sent
 *   one after another on one connection; default: a connection of its own, closed after the answer
 * @returns {Promise<{ status: number, headers: Record<string, string>, body: string, protocol: string }>}
 */
export async function send(url, { method, headers, body }, { agent, timeoutMs = VERIFY_TIMEOUT_MS } = {}) {
  const answer = await requestOnce(url, { method, headers, body: fillUnique(body) }, { agent, timeoutMs });
  let text;
  try {
    // a 304 or a HEAD has no body to decode, whatever encoding its headers name
    const gzipped = answer.headers['content-encoding'] === 'gzip' && answer.body.length > 0;
    text = (gzipped ? gunzipSync(answer.body) : answer.body).toString('utf8');
  } catch (error) {
    throw new Error(`the gzipped body does not decompress: ${/** @type {Error} */ (error).message}`);
  }
  /** @type {Record<string, string>} */
  const kept = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (!IGNORED_HEADERS.has(name) && value !== undefined) kept[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { status: answer.status, headers: kept, body: text, protocol: answer.protocol };
}

/**
 * Headers whose presence or value differs between the targets that answered a scenario correctly.
 * @param {Verification[]} verifications
 * @returns {HeaderDifference[]}
 */
export function headerDifferences(verifications) {
  /** @type {Map<string, Verification[]>} */
  const groups = new Map();
  for (const v of verifications.filter((item) => item.ok)) {
    const key = `${v.runtime}\u0000${v.scenario}\u0000${v.stack}`;
    groups.set(key, [...(groups.get(key) ?? []), v]);
  }
  /** @type {HeaderDifference[]} */
  const differences = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const names = [...new Set(group.flatMap((v) => Object.keys(v.headers)))].sort();
    for (const header of names) {
      const values = Object.fromEntries(group.map((v) => [v.target, v.headers[header] ?? null]));
      const compared = Object.values(values).map((value) =>
        BODY_DERIVED_HEADERS.has(header) ? value !== null : value,
      );
      if (new Set(compared).size > 1) {
        const { runtime, scenario, stack } = group[0];
        differences.push({ runtime, scenario, stack, header, security: SECURITY_HEADERS.has(header), values });
      }
    }
  }
  return differences;
}
