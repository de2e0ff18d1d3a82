// @ts-check
// --nest-app's and --nest-main's flags: the module or main, its setup, how Fastify is built, and what the user says about
// its routes (bodies, headers, params), and --baseline, the base build measured beside it.
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { parseNonEmpty } from './flag-values.js';

/**
 * The flags that go with --nest-app, as node:util's parseArgs reads them.
 * @typedef {{ 'nest-app'?: string, 'nest-main'?: string, 'nest-setup'?: string, 'nest-cwd'?: string,
 *   'fastify-options'?: string, strict?: boolean, 'list-routes'?: boolean, params?: string, traffic?: string,
 *   body?: string[], header?: string[], 'time-write'?: string[], 'graphql-queries'?: string, 'sign-in'?: string,
 *   'keep-throttle'?: boolean, baseline?: string, packages?: string, 'load-curve'?: boolean, rate?: string,
 *   rates?: string, prof?: boolean, targets?: string }} NestAppValues
 */

/**
 * --nest-app and the flags that go with it, each refused without it.
 * @param {NestAppValues} values
 * @returns {import('../own-app/own-app.js').NestAppFlags | null} null without --nest-app
 */
export function nestAppFlags(values) {
  const entry = nestEntry(values);
  if (entry === null) {
    const stray = /** @type {const} */ ([
      'nest-setup',
      'fastify-options',
      'strict',
      'nest-cwd',
      'list-routes',
      'params',
      'traffic',
      'body',
      'header',
      'time-write',
      'graphql-queries',
      'sign-in',
      'keep-throttle',
      'baseline',
    ]).find((flag) => values[flag] !== undefined);
    if (stray) throw new UsageError(`--${stray} goes with --nest-main dist/main.js or --nest-app FILE; see --help`);
    return null;
  }
  if (values.strict && !entry.main)
    throw new UsageError('--strict goes with --nest-main: it stops at the first call of main Fastify cannot take');
  return {
    baseline: values.baseline === undefined ? null : baselineFolder(values),
    ...entry,
    fastifyOptions: values['fastify-options'] === undefined ? null : parseFastifyOptions(values['fastify-options']),
    strict: values.strict ?? false,
    setup: values['nest-setup'] === undefined ? null : parseNonEmpty('--nest-setup', values['nest-setup']),
    cwd: values['nest-cwd'] === undefined ? null : parseNonEmpty('--nest-cwd', values['nest-cwd']),
    listRoutes: values['list-routes'] ?? false,
    params: values.params === undefined ? {} : parseParams(values.params),
    traffic: values.traffic === undefined ? null : parseNonEmpty('--traffic', values.traffic),
    bodies: (values.body ?? []).map((text) => parseBody(text)),
    headers: Object.fromEntries((values.header ?? []).map(parseHeader)),
    timeWrites: (values['time-write'] ?? []).map(parseRouteLine),
    graphqlQueries:
      values['graphql-queries'] === undefined ? null : parseNonEmpty('--graphql-queries', values['graphql-queries']),
    signIn: values['sign-in'] === undefined ? null : parseBody(values['sign-in'], SIGN_IN_EXAMPLE),
    keepThrottle: values['keep-throttle'] ?? false,
  };
}

/** What measures the two adapters against each other, which a run of two builds on one adapter does not. */
const ADAPTER_FLAGS = /** @type {const} */ (['packages', 'load-curve', 'rate', 'rates', 'prof']);

/**
 * --baseline DIR: the folder of the base build, refused beside the flags that compare the adapters.
 * @param {NestAppValues} values
 */
function baselineFolder(values) {
  const dir = parseNonEmpty('--baseline', values.baseline ?? '');
  const other = ADAPTER_FLAGS.find((flag) => values[flag] !== undefined && values[flag] !== false);
  if (other)
    throw new UsageError(
      `--baseline times two builds on one adapter; --${other} compares the adapters: run it without --baseline`,
    );
  if (values.targets !== undefined)
    throw new UsageError('--targets: a --baseline run times the candidate and the base as written; leave it out');
  return dir;
}

/** --sign-in's flag and example: the request is written as --body's is. */
const SIGN_IN_EXAMPLE = `--sign-in 'POST /api/auth/login={"email":"a@b.c","password":"…"}'`;

/**
 * The app's entry: --nest-main, its own compiled main, or --nest-app, its module; null with neither.
 * @param {NestAppValues} values
 * @returns {{ module: string, main: boolean } | null}
 */
function nestEntry(values) {
  const main = values['nest-main'];
  if (main !== undefined && values['nest-app'] !== undefined)
    throw new UsageError(
      '--nest-main and --nest-app: give one (--nest-main dist/main.js runs the app as its main does)',
    );
  if (main !== undefined) return { module: parseNonEmpty('--nest-main', main), main: true };
  if (values['nest-app'] !== undefined) return { module: parseNonEmpty('--nest-app', values['nest-app']), main: false };
  return null;
}

/**
 * --fastify-options JSON or @file.json: what the FastifyAdapter is built with, e.g. {"trustProxy":true}.
 * @param {string} text
 * @returns {Record<string, unknown>}
 */
function parseFastifyOptions(text) {
  let json = text;
  if (text.startsWith('@')) {
    try {
      json = readFileSync(text.slice(1), 'utf8');
    } catch (error) {
      throw new UsageError(`--fastify-options: cannot read ${text.slice(1)}: ${/** @type {Error} */ (error).message}`);
    }
  }
  let options;
  try {
    options = JSON.parse(json);
  } catch (error) {
    throw new UsageError(`--fastify-options: not JSON: ${/** @type {Error} */ (error).message}`);
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new UsageError(`--fastify-options: give an object of FastifyAdapter options, e.g. '{"trustProxy":true}'`);
  return options;
}

/**
 * --body (or --sign-in) `METHOD /path=JSON` or `METHOD /path=@file.json`.
 * @param {string} text @param {string} [example] the flag, as its example names it
 * @returns {import('../own-app/routes/app-config.js').BodyOverride}
 */
function parseBody(text, example = `--body 'POST /api/users={"name":"a"}'`) {
  const flag = example.split(' ')[0];
  const match = /^\s*([A-Za-z]+)\s+(\/\S*?)=(.*)$/s.exec(text);
  if (!match) throw new UsageError(`${flag}: "${text}" is not METHOD /path=JSON; e.g. ${example}`);
  const [, method, url, given] = match;
  let json = given;
  if (given.startsWith('@')) {
    try {
      json = readFileSync(given.slice(1), 'utf8');
    } catch (error) {
      throw new UsageError(
        `${flag} ${method} ${url}: cannot read ${given.slice(1)}: ${/** @type {Error} */ (error).message}`,
      );
    }
  }
  try {
    return { method: method.toUpperCase(), url, value: JSON.parse(json) };
  } catch (error) {
    throw new UsageError(`${flag} ${method} ${url}: not JSON: ${/** @type {Error} */ (error).message}`);
  }
}

/** @param {string} text `METHOD /path` as --list-routes prints it */
function parseRouteLine(text) {
  const match = /^\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(text);
  if (!match)
    throw new UsageError(`--time-write: "${text}" is not METHOD /path; e.g. --time-write 'DELETE /api/auth/me'`);
  return `${match[1].toUpperCase()} ${match[2]}`;
}

/** @param {string} text `name: value` @returns {[string, string]} */
function parseHeader(text) {
  const match = /^\s*([!#$%&'*+.^_`|~\w-]+)\s*:\s*(.*)$/.exec(text);
  if (!match) throw new UsageError(`--header: "${text}" is not "name: value"; e.g. --header 'x-api-key: k1'`);
  return [match[1].toLowerCase(), match[2].trim()];
}

/** @param {string} text `name=value,...` */
function parseParams(text) {
  return Object.fromEntries(
    text.split(',').map((item) => {
      const match = /^\s*([A-Za-z_$][\w$.[\]]*)=(.+)$/.exec(item);
      if (!match) throw new UsageError(`--params: "${item}" is not name=value; e.g. --params id=7,slug=intro`);
      return [match[1], match[2].trim()];
    }),
  );
}
