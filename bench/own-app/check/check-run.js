// @ts-check
// Compatibility before speed: every scenario is sent once to the module on Express and on Fastify before anything is
// timed, with its probes; a server whose process ended under a request is started again before the next route.
// Whether two answers differ is compatibility.js's to say.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requestFor } from '../../model/scenarios.js';
import { errorLine } from '../../errors.js';
import { describeExit, serverPort, startTarget } from '../../run/targets.js';
import { send } from '../../run/verify.js';
import { EXPRESS_TARGET, FASTIFY_TARGET } from '../../model/own-app-record.js';
import { CHECKED_ADAPTERS, startPair } from './check-servers.js';
import { MAX_BODY_CHARS, answerDifference, compare, kept as keptAnswer } from './compatibility.js';
import { probesFor } from './probes.js';
import { repeatsOwnFailure } from './probe-repeats.js';

/** Nest logs an unknown exception right after it replies: this long is allowed for the line to reach the file. */
const ERROR_LOG_WAIT_MS = 300;
const ERROR_LOG_POLL_MS = 20;

/** The headers an answer keeps: what app.use middleware (helmet, compression, cors) shows it did. */
const EVIDENCE_HEADERS = [
  'content-type',
  'content-encoding',
  'access-control-allow-origin',
  'access-control-allow-methods',
  'x-content-type-options',
  'content-security-policy',
  'strict-transport-security',
  'location',
];
/** Sent with each route's own request in this check, as browsers do: compression middleware then shows itself. */
const ACCEPT_ENCODING = 'gzip';

/**
 * @typedef {import('../../model/own-app-record.js').ProbeFinding} ProbeFinding
 * @typedef {import('../../model/own-app-record.js').RouteCompatibility} RouteCompatibility
 * @typedef {import('../../model/own-app-record.js').ServerEnd} ServerEnd
 * @typedef {import('../../model/own-app-record.js').Compatibility} Compatibility
 * @typedef {import('./compatibility.js').Answer} Answer
 */

/**
 * @param {object} input
 * @param {import('../../model/config.js').Config} input.config the own-app config, before compatibility
 * @param {import('../../runtimes/runtimes.js').Runtime} input.runtime
 * @param {number | null} input.basePort --port; null: free ports
 * @param {Record<string, string>} input.env from the prepare step
 * @param {string | null} input.token
 * @param {(line: string) => void} input.log
 * @param {string[]} [input.cookies] the cookies the app's code reads or sets (scan.js), sent by the cookie probe
 * @param {(expressUrl: string, scenario: string) => Promise<import('../sign-in/principal.js').SignInChange | null>}
 *   [input.afterWrite] after each write's check: what it did to the sign-in (principal.js) or to the entity it was
 *   sent the current values of (same-values.js), or null
 * @param {string} [input.corsOrigin] an origin the app's CORS options allow (scan.js), sent by the preflight probe
 * @returns {Promise<Compatibility>}
 */
export async function checkCompatibility({
  config,
  runtime,
  basePort,
  env,
  token,
  log,
  cookies = [],
  afterWrite,
  corsOrigin,
}) {
  const dir = mkdtempSync(join(tmpdir(), 'nest-app-errors-'));
  const targets = [EXPRESS_TARGET, FASTIFY_TARGET].map((name) => config.targets.find((t) => t.name === name));
  const errorFiles = targets.map((_, i) => join(dir, `errors-${i}.jsonl`));
  log(`checking ${config.scenarios.filter((s) => !s.mix).length} routes on Express and Fastify before timing`);
  const pair = await startPair((i) =>
    startTarget(/** @type {import('../../model/config.js').Target} */ (targets[i]), {
      runtime,
      port: serverPort(basePort, i),
      env: { ...env, NEST_APP_ERRORS: errorFiles[i] },
    }),
  );
  try {
    if (pair.failure) return { startFailure: pair.failure, routes: [] };
    /** @type {RouteCompatibility[]} */
    const routes = [];
    /** @type {ServerEnd[]} */
    const ends = [];
    /** @type {Asker} */
    const ask = async (i, request) => {
      const got = await answer(pair.url(i), request, errorFiles[i]);
      const end = await pair.ended(i, got.status === null);
      return end
        ? { ...got, error: `its process ended (${describeExit(end)}) under this request: ${end.error}`, end }
        : got;
    };
    /** @type {string | null} */
    let checking = null;
    try {
      // reads first: where the app refuses every one, the writes are not sent, so a run that compares nothing writes
      // no rows beyond the creates its ids needed
      const [reads, writes] = readsFirst(config.scenarios.filter((s) => !s.mix));
      for (const scenario of [...reads, ...writes]) {
        checking = scenario.name;
        const own = requestFor(scenario, { token, config });
        const unsent = writes.includes(scenario) ? refusedEveryRead(routes.slice(0, reads.length)) : null;
        if (unsent) {
          routes.push(notSent(scenario.name, `${own.method} ${own.path}`, unsent));
          continue;
        }
        const probes = probesFor(own, { cookies, ...(corsOrigin ? { origin: corsOrigin } : {}) });
        const checked = await checkRoute(scenario.name, own, probes, ask);
        const { end } = checked;
        if (end) {
          log(`${end.request} ended the app's process on ${end.adapter} (${describeExit(end)}): ${end.error}`);
          const notStarted = await pair.restart();
          ends.push({ ...end, scenario: scenario.name, restarted: notStarted === null });
          if (notStarted) {
            routes.push(checked.route);
            const error = `it was started again after ${end.request} ended its process (${describeExit(end)}: ${end.error}) and did not answer: ${notStarted.error}`;
            return { startFailure: { adapter: notStarted.adapter, error }, routes, ends };
          }
        }
        const lostSignIn =
          own.method !== 'GET' && afterWrite && end?.adapter !== 'express'
            ? await afterWrite(pair.url(0), scenario.name)
            : null;
        routes.push({ ...checked.route, ...(lostSignIn ? { lostSignIn, expect: null } : {}) });
      }
    } catch (error) {
      throw new CheckFailed(checking, error, { startFailure: null, routes, ends });
    }
    return { startFailure: null, routes, ends };
  } finally {
    await pair.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The order writes are checked in: a PATCH or PUT may rename what its path names (a slug made from a title). */
const WRITE_ORDER = ['POST', 'DELETE', 'PATCH', 'PUT'];

/**
 * The scenarios that read (a GET, a GraphQL query), then those that write: those that may rename the row they name
 * last, so the writes that name it after them (its comments, its favorite) still find it.
 * @param {import('../../model/config.js').Scenario[]} scenarios
 * @returns {[import('../../model/config.js').Scenario[], import('../../model/config.js').Scenario[]]}
 */
export function readsFirst(scenarios) {
  const reads = (/** @type {import('../../model/config.js').Scenario} */ s) =>
    s.method === 'GET' || s.description.startsWith('GraphQL query ');
  const rank = (/** @type {import('../../model/config.js').Scenario} */ s) => WRITE_ORDER.indexOf(s.method);
  return [scenarios.filter(reads), scenarios.filter((s) => !reads(s)).sort((a, b) => rank(a) - rank(b))];
}

/** Statuses that refuse the bench itself, whatever it asks: its sign-in, or a rate limit. */
const REFUSALS = new Set([401, 403, 429]);

/**
 * Why the writes are not sent: every read the check sent was refused on Express (a sign-in or a limiter refusing
 * the bench), so nothing is compared, and a write would make rows for nothing; null when any read was not.
 * @param {RouteCompatibility[]} reads as checked
 * @returns {string | null}
 */
export function refusedEveryRead(reads) {
  const statuses = reads.map((r) => r.express.status);
  if (!statuses.length || !statuses.every((status) => status !== null && REFUSALS.has(status))) return null;
  const seen = [...new Set(statuses)].join(', ');
  return `not sent: every read the check sent was refused on Express (${seen}), so nothing is compared and a write would only leave rows behind`;
}

/**
 * A write the check did not send.
 * @param {string} scenario @param {string} request @param {string} why
 * @returns {RouteCompatibility}
 */
function notSent(scenario, request, why) {
  const none = { status: null, contentType: null, error: null, refusal: null, body: '' };
  return {
    scenario,
    request,
    same: false,
    difference: null,
    express: none,
    fastify: none,
    bodyVaries: false,
    expect: null,
    notMeasured: why,
  };
}

/** The bench's own error while checking a route: the routes checked before it are kept with it. */
export class CheckFailed extends Error {
  name = 'CheckFailed';

  /**
   * @param {string | null} scenario the route's scenario it failed at
   * @param {unknown} cause what the bench threw
   * @param {Compatibility} checked what the check found before it
   */
  constructor(scenario, cause, checked) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.scenario = scenario;
    this.checked = checked;
  }
}

/**
 * Sends one request to an adapter's server (0 Express, 1 Fastify); `end` is set when its process ended under it.
 * @typedef {(adapter: number, request: import('../../model/scenarios.js').ScenarioRequest) =>
 *   Promise<Answer & { end?: import('./check-servers.js').ProcessEnd }>} Asker
 */

/**
 * A route's own request to both adapters (and Express again, to see whether its body varies), then its probes; once a
 * server's process ended, nothing more is asked of it. Every answer to a write is kept (written).
 * @param {string} scenario @param {import('../../model/scenarios.js').ScenarioRequest} own
 * @param {import('./probes.js').Probe[]} probes @param {Asker} asker
 * @returns {Promise<{ route: RouteCompatibility, end: Omit<ServerEnd, 'scenario' | 'restarted'> | null }>}
 */
async function checkRoute(scenario, own, probes, asker) {
  /** @type {import('../../model/own-app-record.js').WrittenAnswer[]} */
  const written = [];
  const ask = recording(asker, written);
  const withWritten = (/** @type {RouteCompatibility} */ route) => (written.length ? { ...route, written } : route);
  const request = { ...own, headers: { 'accept-encoding': ACCEPT_ENCODING, ...own.headers } };
  const line = `${request.method} ${request.path}`;
  const onExpress = await ask(0, request);
  const onFastify = onExpress.end ? nothingAsked : await ask(1, request);
  const again = onExpress.end || onFastify.end ? onExpress : await ask(0, request);
  const found = compare(scenario, line, onExpress, onFastify, again);
  const ended = onExpress.end ? 0 : onFastify.end ? 1 : null;
  if (ended !== null) {
    const end = /** @type {import('./check-servers.js').ProcessEnd} */ ((ended ? onFastify : onExpress).end);
    const adapter = CHECKED_ADAPTERS[ended];
    return {
      route: withWritten({
        ...found,
        same: false,
        difference: `its process ended on ${adapter} (${describeExit(end)})`,
        expect: null,
        probes: [],
      }),
      end: { ...end, adapter, request: line, probe: null },
    };
  }
  /** @type {ProbeFinding[]} */
  const differing = [];
  for (const probe of probes) {
    const probeExpress = await ask(0, probe.request);
    const probeFastify = probeExpress.end ? nothingAsked : await ask(1, probe.request);
    const difference = answerDifference(probeExpress, probeFastify, {
      bodies: !probe.statusOnly && !found.bodyVaries,
      cookies: probe.name === 'cookies',
      headers: probe.headers ?? [],
    });
    // the route's own difference again (its 500 on every request) says nothing new
    if (
      difference &&
      !(difference === found.difference && probeFastify.error === onFastify.error) &&
      !repeatsOwnFailure(
        onFastify,
        probeFastify,
        probe.request.headers?.['content-type'] === own.headers?.['content-type'],
      )
    )
      differing.push({
        probe: probe.name,
        request: `${probe.request.method} ${probe.request.path}`,
        difference,
        express: keptAnswer(probeExpress),
        fastify: keptAnswer(probeFastify),
        ...(probe.asks ? { asks: probe.asks } : {}),
        ...(probe.name === 'urlencoded' ? { sent: String(probe.request.body).slice(0, MAX_BODY_CHARS) } : {}),
      });
    const end = probeExpress.end ?? probeFastify.end;
    if (end)
      return {
        route: withWritten({ ...found, probes: differing }),
        end: {
          ...end,
          adapter: CHECKED_ADAPTERS[probeExpress.end ? 0 : 1],
          request: `${probe.request.method} ${probe.request.path}`,
          probe: probe.name,
        },
      };
  }
  return { route: withWritten({ ...found, probes: differing }), end: null };
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The asker, keeping every answer to a write it sends: each one the app took may have made a row.
 * @param {Asker} ask @param {import('../../model/own-app-record.js').WrittenAnswer[]} written filled as it asks
 * @returns {Asker}
 */
export function recording(ask, written) {
  return async (adapter, request) => {
    const got = await ask(adapter, request);
    if (!READ_METHODS.has(request.method)) {
      const { status, body } = keptAnswer(got);
      written.push({ request: `${request.method} ${request.path}`, adapter: CHECKED_ADAPTERS[adapter], status, body });
    }
    return got;
  };
}

/**
 * Fastify's answer where Express's process ended first and it was not asked.
 * @type {Answer & { end?: import('./check-servers.js').ProcessEnd }}
 */
const nothingAsked = {
  status: null,
  contentType: null,
  body: '',
  error: 'not asked: the request ended Express’s process first',
  setCookies: [],
  headers: {},
};

/**
 * @param {string} baseUrl @param {import('../../model/scenarios.js').ScenarioRequest} request @param {string} errorFile
 * @returns {Promise<Answer>}
 */
async function answer(baseUrl, request, errorFile) {
  const before = errorLines(errorFile).length;
  let response;
  try {
    response = await send(`${baseUrl}${request.path}`, request);
  } catch (error) {
    return {
      status: null,
      contentType: null,
      body: '',
      error: `request failed: ${/** @type {Error} */ (error).message}`,
      setCookies: [],
      headers: {},
    };
  }
  let logged = errorLines(errorFile).slice(before);
  for (let waited = 0; logged.length === 0 && response.status >= 500 && waited < ERROR_LOG_WAIT_MS;) {
    await new Promise((resolve) => setTimeout(resolve, ERROR_LOG_POLL_MS));
    waited += ERROR_LOG_POLL_MS;
    logged = errorLines(errorFile).slice(before);
  }
  return {
    status: response.status,
    contentType: mediaType(response.headers['content-type']),
    body: response.body,
    error: logged[0] ?? null,
    setCookies: cookieNames(response.headers['set-cookie']),
    headers: Object.fromEntries(
      EVIDENCE_HEADERS.flatMap((name) => (response.headers[name] ? [[name, response.headers[name]]] : [])),
    ),
  };
}

/**
 * The names of the cookies a set-cookie header sets (several are joined by commas, as an expiry date's day is).
 * @param {string | undefined} header
 */
function cookieNames(header) {
  return header ? [...header.matchAll(/(?:^|,\s*)([^=;,\s]+)=/g)].map((m) => m[1]) : [];
}

/** @param {string} file @returns {string[]} */
function errorLines(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      try {
        return String(JSON.parse(line).error);
      } catch {
        return errorLine(line);
      }
    });
}

/** @param {string | undefined} value */
function mediaType(value) {
  return value ? value.split(';')[0].trim().toLowerCase() : null;
}
