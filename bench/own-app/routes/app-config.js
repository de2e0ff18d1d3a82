// @ts-check
// The user's module as a bench config: the two adapters as command targets running the bench's launcher, one scenario
// per GET route it can fill in, a --config file's scenarios merged in, and the logged traffic as one weighted mix. The
// result goes through validateConfig like any --config file, so the rest of the bench runs as it always does.
import { UsageError } from '../../errors.js';
import { validateConfig } from '../../model/config.js';
import { LAUNCHER } from '../launch/packages.js';
import { launcherArgs, launcherEnv } from '../launch/launcher-env.js';
import { THROTTLE_ENV, THROTTLE_MODES } from '../launch/throttle.js';
import { routeMatcher } from './route-match.js';
import {
  destroysReason,
  destroysWhatItNames,
  missingReason,
  representativeUrl,
  sentWith,
  versionHeaders,
} from './route-request.js';
import { uploadBody } from '../bodies/upload-form.js';
import { CURRENT_VALUES } from '../sign-in/same-values.js';
import { BASE_TARGET, EXPRESS_TARGET, FASTIFY_TARGET, TRAFFIC_SCENARIO } from '../../model/own-app-record.js';

/** A mix weight is a whole number: shares are kept to a tenth of a percent, and a route that carries any gets one. */
const WEIGHT_SCALE = 1000;
/** A user's --config may add these next to --nest-app; the targets are the module on both adapters. */
const USER_CONFIG_FIELDS = ['scenarios', 'prepare'];

/**
 * @typedef {import('../../model/own-app-record.js').RouteEntry} RouteEntry
 * @typedef {import('./route-request.js').BodyOverride} BodyOverride
 * @typedef {import('../launch/packages.js').NestApp} NestApp
 * @typedef {import('../launch/packages.js').AdapterName} AdapterName
 * @typedef {import('../../model/own-app-record.js').TrafficSummary} TrafficSummary
 *
 * @typedef {object} OwnAppPlan
 * @property {RouteEntry[]} routes
 * @property {Record<string, unknown>[]} scenarios raw scenarios, in the config format
 * @property {TrafficSummary | null} traffic
 * @property {{ route: string, line: string, headers: Record<string, string> }[]} [signedOutAsks] writes held for the
 *   principal's change that may be public, each to be sent once signed out (askableSignedOut): route, `METHOD /path`
 *   as registered; line, `METHOD /url` as sent; headers, its version's
 */

/**
 * @param {object} input
 * @param {import('./discover.js').Discovered} input.discovered
 * @param {Record<string, string>} input.params --params
 * @param {import('./traffic.js').TrafficLog | null} input.traffic
 * @param {string | null} input.trafficFile
 * @param {Record<string, unknown>[]} input.configScenarios a --config file's scenarios, raw
 * @param {BodyOverride[]} [input.bodies] --body
 * @param {Record<string, string>} [input.headers] sent with every request: --header and what authenticate() returned
 * @param {Map<import('./discover.js').Route, import('./id-sources.js').RouteIds>} [input.ids] ids from the app
 * @param {import('../sign-in/principal-values.js').PrincipalValue[]} [input.principal] what names the signed-in
 *   principal (principal-values.js)
 * @param {string[]} [input.timeWrites] --time-write: `METHOD /path` of writes to time though they change it
 * @param {Map<string, import('../bodies/upload-form.js').UploadSent>} [input.uploads] by handler: the routes that take a
 *   file (upload-form.js)
 * @param {Map<string, unknown>} [input.current] GET answers by request path: a write the principal relies on is sent
 *   its entity's current values (same-values.js)
 * @param {string[]} [input.signInFields] the fields authenticate()'s sign-in sent: never sent as current values
 * @param {Set<string>} [input.publicWrites] `METHOD /path` as registered of the writes that answered 2xx signed out:
 *   timed signed out
 * @returns {OwnAppPlan}
 */
export function planOwnApp({
  discovered,
  params,
  traffic,
  trafficFile,
  configScenarios: given,
  bodies = [],
  headers = {},
  ids = new Map(),
  principal = [],
  timeWrites = [],
  uploads = new Map(),
  current = new Map(),
  signInFields = [],
  publicWrites = new Set(),
}) {
  const { routes, versioning } = discovered;
  const matchRoute = routeMatcher(routes);
  const { seen, matched } = loggedByRoute(traffic, matchRoute);
  const configScenarios = given.map((scenario) => signedIn(scenario, headers));
  const named = new Set(configScenarios.map((s) => String(s.name)));
  const byRequest = new Map(configScenarios.map((s) => [requestLine(rawRequest(s)), s]));
  /** @type {Record<string, unknown>[]} */
  const scenarios = [];
  const usedNames = new Set(named);
  /** @type {NonNullable<OwnAppPlan['signedOutAsks']>} */
  const signedOutAsks = [];
  const guard = { principal, timeWrites, current, signInFields, publicWrites };
  const entries = routes.map((route) => {
    const logged = seen.get(route);
    const entry = {
      method: route.method,
      path: route.path,
      handler: route.handler,
      scenario: /** @type {string | null} */ (null),
      request: /** @type {string | null} */ (null),
      notMeasured: /** @type {string | null} */ (null),
      logged: logged?.count ?? 0,
    };
    const version = versionHeaders(route, versioning);
    if (version === null)
      return { ...entry, notMeasured: 'custom versioning: the bench cannot tell which request picks this version' };
    const own = ids.get(route);
    const url = representativeUrl(route, logged?.urls, params, matchRoute, own?.params);
    const fromConfig = configScenarioFor(route, url, byRequest, matchRoute, configScenarios);
    if (fromConfig)
      return { ...entry, scenario: String(fromConfig.name), request: requestLine(rawRequest(fromConfig)) };
    const override = bodies.find((b) => b.method === route.method && matchRoute(b)?.route === route);
    if (destroysWhatItNames(route) && !override) return { ...entry, notMeasured: destroysReason(route, routes) };
    if ('missing' in url) return { ...entry, notMeasured: missingReason(own, url.missing) };
    const sent = sentWith(route, url.url, { override, own, guard });
    if ('why' in sent && sent.ask) signedOutAsks.push(signedOutAsk(route, url.url, version));
    if ('why' in sent) return { ...entry, notMeasured: sent.why };
    const { body, signedOut } = sent;
    // a file sent with the current values would change what they leave as it was
    const upload = route.method === 'GET' || body?.source === CURRENT_VALUES ? undefined : uploads.get(route.handler);
    const name = uniqueName(scenarioName(route), usedNames);
    const sentHeaders = { ...(signedOut ? {} : headers), ...version };
    scenarios.push(routeScenario(route, name, url.url, { headers: sentHeaders, value: body?.value, upload }));
    return {
      ...entry,
      scenario: name,
      request: `${route.method} ${url.url}`,
      ...(Object.keys(version).length ? { headers: version } : {}),
      ...(body ? { body: body.source, bodySources: body.sources } : {}),
      ...(own?.unfilled.length ? { unfilled: own.unfilled } : {}),
      ...(upload ? { upload } : {}),
      ...(signedOut ? { signedOut } : {}),
    };
  });
  return {
    routes: entries,
    scenarios: [...scenarios, ...configScenarios],
    traffic: traffic && trafficFile ? trafficSummary(traffic, trafficFile, matched) : null,
    signedOutAsks,
  };
}

/**
 * @param {import('./discover.js').Route} route @param {string} url @param {Record<string, string>} headers
 * @returns {NonNullable<OwnAppPlan['signedOutAsks']>[number]}
 */
function signedOutAsk(route, url, headers) {
  return { route: `${route.method} ${route.path}`, line: `${route.method} ${url}`, headers };
}

/**
 * The scenario that times a route: its request with the plan's headers and its body, sent as a multipart form with a
 * file where its handler takes one.
 * @param {import('./discover.js').Route} route @param {string} name @param {string} path the route's filled URL
 * @param {{ headers: Record<string, string>, value: unknown,
 *   upload: Parameters<typeof uploadBody>[0] | undefined }} request
 */
function routeScenario(route, name, path, { headers, value, upload }) {
  const form = upload ? uploadBody(upload, value) : null;
  const sent = { ...headers, ...(form ? { 'content-type': form.contentType } : {}) };
  const sentBody = form ? form.body : value;
  return {
    name,
    description: `${route.handler}: ${route.method} ${path}`,
    ...(route.method === 'GET' ? {} : { method: route.method }),
    path,
    ...(Object.keys(sent).length ? { headers: sent } : {}),
    ...(sentBody === undefined ? {} : { body: sentBody }),
  };
}

/**
 * The logged requests by the route they match, each route's requests counted by URL.
 * @param {import('./traffic.js').TrafficLog | null} traffic @param {ReturnType<typeof routeMatcher>} matchRoute
 */
function loggedByRoute(traffic, matchRoute) {
  /** @type {Map<import('./discover.js').Route, { count: number, urls: Map<string, number> }>} */
  const seen = new Map();
  let matched = 0;
  for (const request of traffic?.requests ?? []) {
    const found = matchRoute(request);
    if (!found) continue;
    matched++;
    const entry = seen.get(found.route) ?? { count: 0, urls: new Map() };
    entry.count++;
    entry.urls.set(request.url, (entry.urls.get(request.url) ?? 0) + 1);
    seen.set(found.route, entry);
  }
  return { seen, matched };
}

/**
 * @param {import('./traffic.js').TrafficLog} traffic @param {string} file @param {number} matched
 * @returns {TrafficSummary}
 */
function trafficSummary(traffic, file, matched) {
  return {
    file,
    requests: traffic.requests.length,
    matched,
    unmatched: traffic.requests.length - matched,
    unreadable: traffic.unreadable,
  };
}

/**
 * A --config scenario sends what every discovered route sends (authenticate()'s headers, --header), its own headers
 * winning; a mix sends its members' requests.
 * @param {Record<string, unknown>} scenario raw @param {Record<string, string>} headers
 */
function signedIn(scenario, headers) {
  if (scenario.mix !== undefined || Object.keys(headers).length === 0) return scenario;
  const own = scenario.headers && typeof scenario.headers === 'object' ? scenario.headers : {};
  const written = new Set(Object.keys(own).map((name) => name.toLowerCase()));
  const inherited = Object.entries(headers).filter(([name]) => !written.has(name.toLowerCase()));
  return { ...scenario, headers: { ...Object.fromEntries(inherited), ...own } };
}

/**
 * The mix of the logged traffic over the routes that are measured, each weighted by its requests in the log.
 * @param {RouteEntry[]} routes only those still measured count
 * @returns {Record<string, unknown> | null} a mix scenario, or null when no measured route carries traffic
 */
export function trafficMix(routes) {
  const carrying = routes.filter((r) => r.scenario !== null && r.logged > 0);
  const total = carrying.reduce((sum, r) => sum + r.logged, 0);
  if (total === 0) return null;
  const shares = carrying.map((r) => ({
    scenario: r.scenario,
    weight: Math.max(1, Math.round((r.logged / total) * WEIGHT_SCALE)),
  }));
  return {
    name: TRAFFIC_SCENARIO,
    description: `your traffic: ${carrying.length} routes weighted by their requests in the log`,
    mix: shares,
  };
}

/**
 * The config the run measures, validated like a --config file.
 * @param {object} input
 * @param {import('../launch/packages.js').NestApp} input.app
 * @param {Record<string, unknown>[]} input.scenarios raw scenarios (a mix last, when there is one)
 * @param {import('../../model/config.js').PrepareStep | null} input.prepare from the user's --config
 * @param {string} input.baseDir results go under it
 * @param {import('../launch/throttle.js').ThrottleMode} [input.throttle] what its servers do with the app's
 *   throttler (throttle.js): kept unless asked
 * @param {NestApp | null} [input.baseline] --baseline's build, timed against the app as written
 * @returns {import('../../model/config.js').Config}
 */
export function ownAppConfig({ app, scenarios, prepare, baseDir, throttle = THROTTLE_MODES.keep, baseline = null }) {
  if (scenarios.length === 0)
    throw new UsageError(
      '--nest-app: no route can be measured; give --params for the path parameters, or a --config with scenarios',
    );
  const target = (/** @type {string} */ name, /** @type {NestApp} */ build, /** @type {AdapterName} */ adapter) => ({
    name,
    command: ['node', ...launcherArgs(build, LAUNCHER)],
    cwd: build.cwd,
    env: { ...launcherEnv(build, adapter), [THROTTLE_ENV]: throttle },
  });
  // --baseline: the candidate against the base, both as written; else the app on Fastify against Express
  const [numerator, denominator] = baseline
    ? [target(EXPRESS_TARGET, app, 'express'), target(BASE_TARGET, baseline, 'express')]
    : [target(FASTIFY_TARGET, app, 'fastify'), target(EXPRESS_TARGET, app, 'express')];
  return validateConfig(
    {
      targets: baseline ? [numerator, denominator] : [denominator, numerator],
      scenarios,
      compare: [numerator.name, denominator.name],
      ...(prepare ? { prepare } : {}),
    },
    { source: app.moduleFile, baseDir },
  );
}

/**
 * A --config file next to --nest-app: its scenarios (and prepare step) only.
 * @param {unknown} raw the file's object @param {string} file
 * @returns {{ scenarios: Record<string, unknown>[], prepare: import('../../model/config.js').PrepareStep | null }}
 */
export function userScenarios(raw, file) {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new UsageError(`${file}: must be an object`);
  const record = /** @type {Record<string, unknown>} */ (raw);
  const other = Object.keys(record).find((key) => !USER_CONFIG_FIELDS.includes(key));
  if (other)
    throw new UsageError(
      `${file}: ${other}: with --nest-app a config gives ${USER_CONFIG_FIELDS.join(' and ')}; the targets are your module on both adapters`,
    );
  const scenarios = record.scenarios ?? [];
  if (!Array.isArray(scenarios)) throw new UsageError(`${file}: scenarios: must be a list`);
  return {
    scenarios: /** @type {Record<string, unknown>[]} */ (scenarios),
    prepare: /** @type {import('../../model/config.js').PrepareStep | null} */ (record.prepare ?? null),
  };
}

/**
 * A --config scenario stands in for the route it requests: the user's own request (a body, an auth header) wins.
 * @param {import('./discover.js').Route} route
 * @param {{ url: string } | { missing: string[] }} url
 * @param {Map<string, Record<string, unknown>>} byRequest
 * @param {ReturnType<typeof routeMatcher>} matchRoute
 * @param {Record<string, unknown>[]} configScenarios
 */
function configScenarioFor(route, url, byRequest, matchRoute, configScenarios) {
  const line = 'url' in url ? requestLine({ method: route.method, url: url.url }) : null;
  if (line !== null && byRequest.has(line)) return byRequest.get(line);
  return configScenarios.find((s) => !s.mix && matchRoute(rawRequest(s))?.route === route);
}

/**
 * `GET /api/users/:id/card` → `api-users-id-card`; `POST /api/users` → `post-api-users`; `GET /` → `root`.
 * @param {import('./discover.js').Route} route
 */
function scenarioName(route) {
  const words = route.path
    .split('/')
    .map((part) => part.replace(/[^\w.-]/g, ''))
    .filter(Boolean)
    .join('-');
  // a write is named for its method too: POST /api/users is post-api-users beside GET's api-users
  const base = `${route.method === 'GET' ? '' : `${route.method.toLowerCase()}-`}${words || 'root'}`;
  const version = route.version === null ? null : [route.version].flat().join('.');
  return version !== null && !route.path.includes(`v${version}`) ? `${base}-v${version}` : base;
}

/**
 * The request of a --config scenario as written (not yet validated).
 * @param {Record<string, unknown>} scenario
 * @returns {import('./traffic.js').LoggedRequest}
 */
function rawRequest(scenario) {
  return {
    method: typeof scenario.method === 'string' ? scenario.method.toUpperCase() : 'GET',
    url: typeof scenario.path === 'string' ? scenario.path : '',
  };
}

/** @param {import('./traffic.js').LoggedRequest} request */
function requestLine({ method, url }) {
  return `${method} ${url}`;
}

/** @param {string} name @param {Set<string>} used */
function uniqueName(name, used) {
  let candidate = name;
  for (let n = 2; used.has(candidate); n++) candidate = `${name}-${n}`;
  used.add(candidate);
  return candidate;
}
