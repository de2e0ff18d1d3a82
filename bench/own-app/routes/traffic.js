// @ts-check
// --traffic FILE: the requests an app served, from its request log. Two formats, told apart line by line: pino JSON
// lines (pino-http's and Fastify's `req` serializers both carry req.method and req.url) and the common/combined log
// format (morgan, nginx, Apache). A line that is neither is counted, never guessed at.
import { readFileSync } from 'node:fs';
import { UsageError } from '../../errors.js';

/**
 * @typedef {{ method: string, url: string, operation?: string }} LoggedRequest url: path and query as logged;
 *   operation: a GraphQL request's operationName, where the line carries one
 * @typedef {object} TrafficLog
 * @property {LoggedRequest[]} requests in log order
 * @property {number} unreadable lines that are neither format, or a JSON line without a request
 * @property {{ json: number, clf: number }} formats how many requests each format gave
 */

/** `host ident user [time] "METHOD URL PROTOCOL" status ...`; combined adds referer and user agent after. */
const CLF_LINE = /^\S+ \S+ \S+ \[[^\]]+\] "([A-Z]+) (\S+)(?: [^"]*)?" \d{3} /;

/**
 * @param {string} text the log's content
 * @returns {TrafficLog}
 */
export function parseTraffic(text) {
  /** @type {LoggedRequest[]} */
  const requests = [];
  const formats = { json: 0, clf: 0 };
  let unreadable = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const request = line.startsWith('{') ? jsonRequest(line) : clfRequest(line);
    if (request === null) {
      // Fastify logs each request twice: "incoming request" with req, "request completed" with res alone
      if (!isResponseOnlyLine(line)) unreadable++;
      continue;
    }
    requests.push(request);
    formats[line.startsWith('{') ? 'json' : 'clf']++;
  }
  return { requests, unreadable, formats };
}

/**
 * @param {string} file
 * @returns {TrafficLog}
 * @throws {UsageError} unreadable file, or no request in it
 */
export function readTraffic(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--traffic ${file}: cannot read it (${/** @type {NodeJS.ErrnoException} */ (error).code})`);
  }
  const log = parseTraffic(text);
  if (log.requests.length === 0)
    throw new UsageError(
      `--traffic ${file}: no request found in ${log.unreadable} lines; give pino JSON lines (req.method, req.url) or the common/combined log format`,
    );
  return log;
}

/** @param {string} line @returns {LoggedRequest | null} */
function jsonRequest(line) {
  const entry = parseObject(line);
  if (entry === null) return null;
  const req = entry.req && typeof entry.req === 'object' ? entry.req : entry;
  const { method, url, body } = /** @type {{ method?: unknown, url?: unknown, body?: any }} */ (req);
  if (typeof method !== 'string' || typeof url !== 'string' || !url.startsWith('/')) return null;
  const operation = body?.operationName ?? entry.operationName ?? operationInUrl(url);
  return { method: method.toUpperCase(), url, ...(typeof operation === 'string' && operation ? { operation } : {}) };
}

/** @param {string} line */
function isResponseOnlyLine(line) {
  const entry = parseObject(line);
  return entry !== null && entry.req === undefined && typeof entry.res === 'object';
}

/** @param {string} line @returns {Record<string, unknown> | null} */
function parseObject(line) {
  try {
    const value = JSON.parse(line);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** @param {string} line @returns {LoggedRequest | null} */
function clfRequest(line) {
  const match = CLF_LINE.exec(line);
  if (!match || !match[2].startsWith('/')) return null;
  const operation = operationInUrl(match[2]);
  return { method: match[1], url: match[2], ...(operation ? { operation } : {}) };
}

/** A GraphQL GET's (or a client's tagged POST's) `?operationName=`. @param {string} url */
function operationInUrl(url) {
  const query = url.split('?')[1];
  return query ? new URLSearchParams(query).get('operationName') : null;
}
