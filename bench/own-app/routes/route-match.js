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
  const matchers = routes.map((route) => ({ route, test: match(route.path, { decode: safeDecode }) }));
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
  const missing = parameterNames(route.path).filter((name) => params[name] === undefined);
  if (missing.length) return { missing };
  // a wildcard takes its segments as a list; a --params value gives them as one string
  const segments = Object.fromEntries(
    wildcardNames(route.path).flatMap((name) =>
      typeof params[name] === 'string' ? [[name, String(params[name]).split('/')]] : [],
    ),
  );
  return { path: compile(route.path)({ ...params, ...segments }) };
}

/**
 * The names of a route path's required parameters (`:id`, `*path`); optional groups `{...}` are left empty.
 * @param {string} path
 */
export function parameterNames(path) {
  const required = path.replace(/\{[^}]*\}/g, '');
  return [...required.matchAll(/[:*]([A-Za-z_$][\w$]*)/g)].map((m) => m[1]);
}

/** @param {string} path */
function wildcardNames(path) {
  return [...path.matchAll(/\*([A-Za-z_$][\w$]*)/g)].map((m) => m[1]);
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
