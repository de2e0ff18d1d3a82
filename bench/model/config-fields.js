// @ts-check
// Each field of a config checked, with the message a user can act on: a target's command or url, its env and stacks, a
// scenario's method, path and expected answer, a mix's routes and weights. validateConfig (config.js) walks a config
// through them.
import { isDeepStrictEqual } from 'node:util';
import { resolve } from 'node:path';
import { BARE, STACK_NAMES } from './stacks.js';
import { METRICS, RATE, defaultMetric } from './metrics.js';

/** @typedef {import('./config.js').Target} Target */
/** @typedef {import('./config.js').Scenario} Scenario */

export const DEFAULT_PORT_ENV = 'PORT';
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
/** Names become file names (profiles) and report columns. */
const NAME_PATTERN = /^[A-Za-z0-9][\w.-]*$/;
const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** How a started command target is spoken to: HTTP/1.1 without or over TLS, HTTP/2 over TLS (h2) or cleartext (h2c). */
const PROTOCOLS = ['http', 'https', 'h2', 'h2c'];
const SCENARIO_FIELDS = [
  'name',
  'description',
  'method',
  'path',
  'headers',
  'body',
  'needsToken',
  'expect',
  'mix',
  'load',
  'metric',
];
const LOAD_FIELDS = ['connections', 'durationSec', 'requestsPerConnection', 'connectionRate'];
const MIX_FIELDS = ['scenario', 'weight'];
const EXPECT_FIELDS = ['status', 'contentType', 'body'];
const COMPARED_GROUP = 'compared';

/**
 * @typedef {(field: string, problem: string) => never} Fail
 */

/**
 * @param {Record<string, unknown>} item @param {string} field
 * @param {{ name: string, compared: boolean, scenarioNames: string[], baseDir: string, fail: Fail }} context
 * @returns {Target}
 */
export function validateTarget(item, field, { name: targetName, compared, scenarioNames, baseDir, fail }) {
  const hasCommand = item.command !== undefined;
  const hasUrl = item.url !== undefined;
  if (hasCommand === hasUrl)
    fail(field, hasCommand ? 'give command or url, not both' : 'needs a command (to start) or a url (already running)');
  if (hasUrl) {
    for (const key of ['cwd', 'env', 'portEnv']) {
      if (item[key] !== undefined)
        fail(`${field}.${key}`, 'only a command target takes it; a url target is not started');
    }
  }
  const group =
    item.group === undefined ? (compared ? COMPARED_GROUP : targetName) : name(item.group, `${field}.group`, fail);
  let scenarios = null;
  if (item.scenarios !== undefined) {
    scenarios = nonEmptyArray(item.scenarios, `${field}.scenarios`, fail).map((value, i) => {
      const text = name(value, `${field}.scenarios[${i}]`, fail);
      if (!scenarioNames.includes(text))
        fail(`${field}.scenarios[${i}]`, `no scenario is named "${text}"; scenarios: ${scenarioNames.join(', ')}`);
      return text;
    });
  }
  return {
    name: targetName,
    group,
    scenarios,
    command: hasCommand
      ? nonEmptyArray(item.command, `${field}.command`, fail).map((part, i) =>
          nonEmptyString(part, `${field}.command[${i}]`, fail),
        )
      : null,
    cwd: item.cwd === undefined ? baseDir : resolve(baseDir, nonEmptyString(item.cwd, `${field}.cwd`, fail)),
    env: item.env === undefined ? {} : stringMap(item.env, `${field}.env`, ENV_NAME_PATTERN, fail),
    portEnv: item.portEnv === undefined ? DEFAULT_PORT_ENV : envName(item.portEnv, `${field}.portEnv`, fail),
    url: hasUrl ? baseUrl(item.url, `${field}.url`, fail) : null,
    stacks: item.stacks === undefined ? [BARE] : stackList(item.stacks, `${field}.stacks`, fail),
    protocol:
      item.protocol === undefined
        ? 'http'
        : PROTOCOLS.includes(/** @type {string} */ (item.protocol))
          ? /** @type {Target['protocol']} */ (item.protocol)
          : fail(`${field}.protocol`, `must be one of ${PROTOCOLS.join(', ')}`),
  };
}

/** @param {unknown} value @param {string} field @param {Fail} fail */
function stackList(value, field, fail) {
  const stacks = nonEmptyArray(value, field, fail).map((item, i) => {
    if (typeof item !== 'string' || !STACK_NAMES.includes(item))
      fail(`${field}[${i}]`, `${JSON.stringify(item)} is not a stack; stacks: ${STACK_NAMES.join(', ')}`);
    return /** @type {string} */ (item);
  });
  return STACK_NAMES.filter((name) => stacks.includes(name));
}

/**
 * A mix's shares, each naming another scenario that is not a mix itself.
 * @param {unknown} value @param {string} field @param {Fail} fail
 * @returns {import('./mix.js').MixShare[]}
 */
function mixShares(value, field, fail) {
  return nonEmptyArray(value, field, fail).map((raw, i) => {
    const item = object(raw, `${field}[${i}]`, MIX_FIELDS, fail);
    const weight = item.weight;
    if (!Number.isInteger(weight) || /** @type {number} */ (weight) < 1)
      fail(`${field}[${i}].weight`, `${JSON.stringify(weight)} is not a whole number above 0`);
    return { route: name(item.scenario, `${field}[${i}].scenario`, fail), weight: /** @type {number} */ (weight) };
  });
}

/**
 * @param {Scenario} scenario @param {Scenario[]} scenarios @param {string} field @param {Fail} fail
 */
export function checkMixRoutes(scenario, scenarios, field, fail) {
  scenario.mix?.forEach(({ route }, i) => {
    const named = scenarios.find((s) => s.name === route);
    if (!named)
      fail(
        `${field}[${i}].scenario`,
        `no scenario is named "${route}"; scenarios: ${scenarios.map((s) => s.name).join(', ')}`,
      );
    else if (named.mix) fail(`${field}[${i}].scenario`, `"${route}" is a mix itself`);
  });
  const names = scenario.mix?.map((share) => share.route) ?? [];
  const twice = names.find((item, i) => names.indexOf(item) !== i);
  if (twice !== undefined) fail(field, `"${twice}" is listed twice`);
}

/** @param {unknown} raw @param {string} field @param {Fail} fail @returns {Scenario} */
export function validateScenario(raw, field, fail) {
  const item = object(raw, field, SCENARIO_FIELDS, fail);
  const scenarioName = name(item.name, `${field}.name`, fail);
  if (item.mix !== undefined) return validateMix(item, scenarioName, field, fail);
  const method = item.method === undefined ? 'GET' : nonEmptyString(item.method, `${field}.method`, fail).toUpperCase();
  if (!METHODS.includes(method)) fail(`${field}.method`, `"${method}" is not one of ${METHODS.join(', ')}`);
  const path = nonEmptyString(item.path, `${field}.path`, fail);
  if (!path.startsWith('/')) fail(`${field}.path`, `"${path}" must start with /`);
  const headers = item.headers === undefined ? {} : stringMap(item.headers, `${field}.headers`, null, fail);
  const lowerCased = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
  let body;
  if (item.body !== undefined) {
    if (method === 'GET' || method === 'HEAD') fail(`${field}.body`, `a ${method} request sends no body`);
    if (typeof item.body === 'string') body = item.body;
    else {
      body = JSON.stringify(item.body);
      lowerCased['content-type'] ??= 'application/json';
    }
  }
  const expected = item.expect === undefined ? {} : object(item.expect, `${field}.expect`, EXPECT_FIELDS, fail);
  return {
    name: scenarioName,
    description:
      item.description === undefined
        ? `${method} ${path}`
        : nonEmptyString(item.description, `${field}.description`, fail),
    method,
    path,
    headers: lowerCased,
    ...(body === undefined ? {} : { body }),
    needsToken:
      item.needsToken === undefined
        ? false
        : typeof item.needsToken === 'boolean'
          ? item.needsToken
          : fail(`${field}.needsToken`, 'must be true or false'),
    status: expected.status === undefined ? 200 : httpStatus(expected.status, `${field}.expect.status`, fail),
    contentType: contentTypeMatcher(expected.contentType, `${field}.expect.contentType`, fail),
    checkBody: bodyCheck(expected.body, `${field}.expect.body`, fail),
    mix: null,
    ...loadAndMetric(item, field, fail),
  };
}

/**
 * A mix: its shares, and the headers every request of it carries; its routes bring their own requests and checks.
 * @param {Record<string, unknown>} item @param {string} scenarioName @param {string} field @param {Fail} fail
 * @returns {Scenario}
 */
function validateMix(item, scenarioName, field, fail) {
  const own = ['method', 'path', 'body', 'needsToken', 'expect'].find((key) => item[key] !== undefined);
  if (own) fail(`${field}.${own}`, 'a mix takes its requests from the scenarios it names; give mix or this, not both');
  const mix = mixShares(item.mix, `${field}.mix`, fail);
  return {
    name: scenarioName,
    description:
      item.description === undefined
        ? `a mix of ${mix.map((s) => `${s.weight} ${s.route}`).join(', ')}`
        : nonEmptyString(item.description, `${field}.description`, fail),
    method: 'GET',
    path: '/',
    headers: item.headers === undefined ? {} : stringMap(item.headers, `${field}.headers`, null, fail),
    needsToken: false,
    status: 200,
    contentType: ANY,
    checkBody: () => null,
    mix,
    ...loadAndMetric(item, field, fail),
  };
}

/**
 * A scenario's own load and the metric its ratio divides (model/metrics.js): a paced load's req/s is its pace, so it
 * takes CPU per request, and refuses req/s.
 * @param {Record<string, unknown>} item @param {string} field @param {Fail} fail
 * @returns {{ load: import('./config.js').ScenarioLoad | null, metric: import('./metrics.js').Metric }}
 */
function loadAndMetric(item, field, fail) {
  const load = scenarioLoad(item.load, `${field}.load`, fail);
  if (item.metric === undefined) return { load, metric: defaultMetric(load) };
  if (!METRICS.includes(/** @type {import('./metrics.js').Metric} */ (item.metric)))
    fail(`${field}.metric`, `${JSON.stringify(item.metric)} is not one of ${METRICS.join(', ')}`);
  const metric = /** @type {import('./metrics.js').Metric} */ (item.metric);
  if (metric === RATE && load?.connectionRate)
    fail(`${field}.metric`, 'a paced load (connectionRate) sets req/s on both sides alike: give cpu-per-request');
  return { load, metric };
}

/**
 * @param {unknown} value @param {string} field @param {Fail} fail
 * @returns {import('./config.js').ScenarioLoad | null}
 */
function scenarioLoad(value, field, fail) {
  if (value === undefined) return null;
  const item = object(value, field, LOAD_FIELDS, fail);
  /** @param {string} key @param {boolean} whole */
  const positive = (key, whole) => {
    const number = item[key];
    if (number === undefined) return null;
    if (typeof number !== 'number' || !(number > 0) || (whole && !Number.isInteger(number)))
      fail(`${field}.${key}`, `${JSON.stringify(number)} is not a ${whole ? 'whole ' : ''}number above 0`);
    return /** @type {number} */ (number);
  };
  const load = {
    connections: positive('connections', true),
    durationSec: positive('durationSec', false) ?? 0,
    requestsPerConnection: positive('requestsPerConnection', true),
    connectionRate: positive('connectionRate', false),
  };
  if (load.requestsPerConnection !== null && load.connectionRate !== null)
    fail(field, 'give requestsPerConnection or connectionRate, not both');
  return load;
}

/** Any content type passes. */
const ANY = /(?:)/;

/**
 * A string matches that media type with or without parameters ("application/json" matches
 * "application/json; charset=utf-8"); a .js config may give a RegExp.
 * @param {unknown} value @param {string} field @param {Fail} fail
 */
function contentTypeMatcher(value, field, fail) {
  if (value === undefined) return ANY;
  if (value instanceof RegExp) return value;
  const text = nonEmptyString(value, field, fail);
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(;|$)`, 'i');
}

/**
 * A string: the body must be exactly that. Any other JSON value: the body must parse to an equal value. A function
 * (.js config): returns null when the body is right, else why not.
 * @param {unknown} value @param {string} field @param {Fail} fail
 * @returns {(body: string) => string | null}
 */
function bodyCheck(value, field, fail) {
  if (value === undefined) return () => null;
  if (typeof value === 'function') return /** @type {(body: string) => string | null} */ (value);
  if (typeof value === 'string')
    return (body) => (body === value ? null : `expected ${JSON.stringify(value)}, got ${excerpt(body)}`);
  if (value === null || ['number', 'boolean', 'object'].includes(typeof value)) {
    return (body) => {
      let parsed;
      try {
        parsed = JSON.parse(body);
      } catch {
        return `body is not JSON: ${excerpt(body)}`;
      }
      return isDeepStrictEqual(parsed, value) ? null : `expected ${JSON.stringify(value)}, got ${excerpt(body)}`;
    };
  }
  return fail(field, 'must be a string, a JSON value or (in a .js config) a function');
}

/** @param {string} body */
function excerpt(body) {
  return JSON.stringify(body.slice(0, 80));
}

/**
 * @param {unknown} value @param {string} field @param {(value: unknown, field: string) => string} targetName
 * @param {Fail} fail
 * @returns {[string, string] | null}
 */
export function targetPair(value, field, targetName, fail) {
  if (value === undefined) return null;
  if (!Array.isArray(value) || value.length !== 2) fail(field, 'must be a list of two target names');
  const pair = /** @type {[string, string]} */ (value.map((item, i) => targetName(item, `${field}[${i}]`)));
  if (pair[0] === pair[1]) fail(field, `compares "${pair[0]}" with itself`);
  return pair;
}

/**
 * @param {unknown} value @param {string} field @param {(value: unknown, field: string) => string} targetName
 * @param {Fail} fail
 * @returns {[string, string][]}
 */
export function pairList(value, field, targetName, fail) {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(field, 'must be a list of [numerator, denominator] target pairs');
  return value.map((item, i) => /** @type {[string, string]} */ (targetPair(item, `${field}[${i}]`, targetName, fail)));
}

/**
 * @param {unknown} value @param {string} field @param {string[]} known @param {Fail} fail
 * @returns {Record<string, unknown>}
 */
export function object(value, field, known, fail) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(field, 'must be an object');
  const record = /** @type {Record<string, unknown>} */ (value);
  const unknown = Object.keys(record).find((key) => !known.includes(key));
  if (unknown !== undefined) fail(field ? `${field}.${unknown}` : unknown, `unknown field; known: ${known.join(', ')}`);
  return record;
}

/** @param {unknown} value @param {string} field @param {Fail} fail @returns {unknown[]} */
export function nonEmptyArray(value, field, fail) {
  if (value === undefined) fail(field, 'missing');
  if (!Array.isArray(value) || value.length === 0) fail(field, 'must be a non-empty list');
  return /** @type {unknown[]} */ (value);
}

/** @param {unknown} value @param {string} field @param {Fail} fail @returns {string} */
function nonEmptyString(value, field, fail) {
  if (value === undefined) fail(field, 'missing');
  if (typeof value !== 'string' || value.trim() === '') fail(field, 'must be a non-empty string');
  return /** @type {string} */ (value);
}

/** @param {unknown} value @param {string} field @param {Fail} fail */
export function name(value, field, fail) {
  const text = nonEmptyString(value, field, fail);
  if (!NAME_PATTERN.test(text))
    fail(field, `"${text}" is not a name: use letters, digits, ".", "_" and "-", starting with a letter or digit`);
  return text;
}

/** @param {unknown} value @param {string} field @param {Fail} fail */
function envName(value, field, fail) {
  const text = nonEmptyString(value, field, fail);
  if (!ENV_NAME_PATTERN.test(text)) fail(field, `"${text}" is not an environment variable name`);
  return text;
}

/**
 * @param {unknown} value @param {string} field @param {RegExp | null} keyPattern @param {Fail} fail
 * @returns {Record<string, string>}
 */
function stringMap(value, field, keyPattern, fail) {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    fail(field, 'must be an object of string values');
  for (const [key, item] of Object.entries(/** @type {object} */ (value))) {
    if (keyPattern && !keyPattern.test(key)) fail(`${field}.${key}`, 'is not an environment variable name');
    if (typeof item !== 'string') fail(`${field}.${key}`, 'must be a string');
  }
  return { .../** @type {Record<string, string>} */ (value) };
}

/** @param {unknown} value @param {string} field @param {Fail} fail */
function httpStatus(value, field, fail) {
  if (!Number.isInteger(value) || /** @type {number} */ (value) < 100 || /** @type {number} */ (value) > 599)
    fail(field, `${JSON.stringify(value)} is not an HTTP status (100-599)`);
  return /** @type {number} */ (value);
}

/** @param {unknown} value @param {string} field @param {Fail} fail */
function baseUrl(value, field, fail) {
  const text = nonEmptyString(value, field, fail);
  let url;
  try {
    url = new URL(text);
  } catch {
    return fail(field, `"${text}" is not a URL, e.g. http://10.0.0.2:3000`);
  }
  // verification and readiness speak plain HTTP/1.1, as the load generators do here
  if (url.protocol !== 'http:') fail(field, `"${text}" must be an http:// URL`);
  if (url.search || url.hash) fail(field, `"${text}" must not have a query or fragment; scenarios give the path`);
  return text.replace(/\/+$/, '');
}

/** @param {{ name: string }[]} items @param {string} field @param {Fail} fail */
export function uniqueNames(items, field, fail) {
  const names = items.map((item) => item.name);
  const twice = names.find((item, i) => names.indexOf(item) !== i);
  if (twice !== undefined) fail(field, `"${twice}" is named twice; names must be unique`);
  return names;
}
