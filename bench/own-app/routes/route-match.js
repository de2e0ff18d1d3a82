// @ts-check
// Which discovered route a logged request went to, and the concrete request a route is measured with.
import { compile, match } from 'path-to-regexp';

/** @typedef {import('./discover.js').Route} Route */
/** @typedef {import('./traffic.js').LoggedRequest} LoggedRequest */

/**
 * A matcher over the routes in registration order (the first that matches wins, as in Express). HEAD goes to a GET
 * route, as both adapters answer it; a trailing slash is ignored, as Express does by default.
 * @param {Route[]} routes
 * @returns {(request: LoggedRequest) => { route: Route, params: Record<string, string | string[]> } | null}
 */
export function routeMatcher(routes) {
  const matchers = routes.map((route) => ({ route, test: match(routePattern(route.path), { decode: safeDecode }) }));
  return ({ method, url }) => {
    const wanted = method === 'HEAD' ? 'GET' : method;
    const path = withoutTrailingSlash(url.split(/[?#]/)[0]);
    for (const { route, test } of matchers) {
      if (route.method !== wanted && route.method !== 'ALL') continue;
      const found = test(path);
      if (found) return { route, params: /** @type {Record<string, string | string[]>} */ (found.params) };
    }
    return null;
  };
}

/**
 * The route's path with its parameters filled in, or the names of those without a value.
 * @param {Route} route
 * @param {Record<string, string | string[]>} params
 * @returns {{ path: string } | { missing: string[] }}
 */
export function fillPath(route, params) {
  const pattern = routePattern(route.path);
  const missing = parameterNames(pattern).filter((name) => params[name] === undefined);
  if (missing.length) return { missing };
  // a wildcard takes its segments as a list; a --params value gives them as one string
  const segments = Object.fromEntries(
    wildcardNames(pattern).flatMap((name) =>
      typeof params[name] === 'string' ? [[name, String(params[name]).split('/')]] : [],
    ),
  );
  return { path: compile(pattern)({ ...params, ...segments }) };
}

/**
 * The names of a route path's required parameters (`:id`, `*path`); optional groups `{...}` are left empty.
 * @param {string} path as registered, in Express 4's syntax or path-to-regexp 8's
 */
export function parameterNames(path) {
  const required = routePattern(path).replace(/\{[^}]*\}/g, '');
  return [...required.matchAll(/[:*]([A-Za-z_$][\w$]*)/g)].map((m) => m[1]);
}

/** @param {string} pattern */
function wildcardNames(pattern) {
  return [...pattern.matchAll(/\*([A-Za-z_$][\w$]*)/g)].map((m) => m[1]);
}

/**
 * A route's path in path-to-regexp 8's syntax, which this matcher reads. Nest 10 and older register Express 4's
 * (`/mock/*`, `/:id?`, `/:id(\\d+)`) and Nest 11 still keeps a legacy path as written in its route graph while Express
 * serves it: unnamed wildcards get names as Nest's LegacyRouteConverter gives them, an optional parameter its group, a
 * parameter's regex is dropped; what is still not a pattern is matched as the literal path, never thrown.
 * @param {string} path
 */
export function routePattern(path) {
  if (parses(path)) return path;
  let wildcards = 0;
  const converted = path
    .replace(/\/\(\.\*\)$/, '/*')
    .replace(/(:[A-Za-z_$][\w$]*)\((?:[^()\\]|\\.)*\)/g, '$1')
    .replace(/\/:([A-Za-z_$][\w$]*)\?/g, '{/:$1}')
    .replace(/:([A-Za-z_$][\w$]*)[+*]/g, '*$1')
    .replace(/\/\*$/, '/{*path}')
    .replace(/\*(?![A-Za-z_$])/g, () => `*wildcard${++wildcards}`)
    .replace(/[()[\]?+!]/g, '\\$&');
  return parses(converted) ? converted : path.replace(/[{}()[\]?+!:*]/g, '\\$&');
}

/** @param {string} pattern */
function parses(pattern) {
  try {
    compile(pattern);
    return true;
  } catch {
    return false;
  }
}

/** @param {string} path */
function withoutTrailingSlash(path) {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** @param {string} value */
function safeDecode(value) {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
