// @ts-check
// What the check leaves to time: each planned route with what its check found (still to be timed, or not measured
// and why), and the scenarios that answered alike, each held to Express's answer.
import { describeExit } from '../../run/targets.js';
import { withoutErrors } from '../graphql/graphql-answers.js';
import { lostSignInReason } from '../sign-in/principal.js';

/**
 * Each planned route with what the check found: still to be timed, or not measured and why.
 * @param {import('../routes/app-config.js').RouteEntry[]} planned
 * @param {import('./compatibility.js').Compatibility} compatibility
 * @param {Map<string, string>} graphqlRefused
 * @param {string | null} [accepted] the request that proved the run's credential (answered 2xx with it)
 * @returns {import('../routes/app-config.js').RouteEntry[]}
 */
export function checkedRoutes(planned, { startFailure, routes, ends = [] }, graphqlRefused, accepted = null) {
  return planned.map((route) => {
    const found = routes.find((r) => r.scenario === route.scenario);
    if (startFailure && route.scenario)
      return { ...route, scenario: null, notMeasured: `the app does not start on ${startFailure.adapter}` };
    if (route.scenario && graphqlRefused.has(route.scenario))
      return { ...route, scenario: null, notMeasured: graphqlRefused.get(route.scenario) ?? null };
    if (!found || found.expect) return route;
    const end = ends.find((e) => e.scenario === found.scenario && e.probe === null);
    return {
      ...route,
      scenario: null,
      checked: found.scenario,
      notMeasured: found.lostSignIn
        ? lostSignInReason(found.lostSignIn, found.request)
        : end
          ? `its request ended the app's process on ${end.adapter} (${describeExit(end)}: ${end.error}); the server was started again for the next route`
          : (refusedAccount(found, accepted) ??
            refusedBody(route, found) ??
            found.notMeasured ??
            `differs on Fastify: ${found.difference}`),
    };
  });
}

/**
 * The check that did not run, as the app refused the sign-in: every planned route not measured, with why.
 * @template {{ routes: import('../routes/app-config.js').RouteEntry[] }} Plan
 * @param {Plan} plan
 * @returns {{ plan: Plan, compatibility: import('./compatibility.js').Compatibility }}
 */
export function refusedSignInCheck(plan) {
  const why = 'not checked: the app refused the sign-in (see the report’s opening)';
  // every route, planned to be checked or not: a reason such as "GET /roles listed none" was never asked
  const routes = plan.routes.map((route) => ({ ...route, scenario: null, notMeasured: why }));
  return { plan: { ...plan, routes }, compatibility: { startFailure: null, routes: [], ends: [] } };
}

/**
 * A 401 or 403 on both adapters where another request proved the credential: the app refuses this account here, which
 * other --params cannot change.
 * @param {import('./compatibility.js').RouteCompatibility} found @param {string | null} accepted
 */
function refusedAccount(found, accepted) {
  const { status, refusal } = found.express;
  if (!accepted || found.difference !== null || (status !== 401 && status !== 403)) return null;
  const method = found.request.split(' ')[0];
  const body = method === 'GET' || method === 'DELETE' ? '' : ', or a --body with the value it checks';
  return `answers ${status} on both adapters${refusal ? ` (${refusal.replace(/\.$/, '')})` : ''}, where ${accepted} answered 2xx with the same sign-in: the app refuses this account here (a guard, a role, or a value in the body it checks, such as a current password); sign in as an account it takes${body}`;
}

/**
 * A derived body the app refused on both adapters: what it said, and the flag that gives the route its own body.
 * @param {import('../routes/app-config.js').RouteEntry} route
 * @param {import('./compatibility.js').RouteCompatibility} found
 */
function refusedBody(route, found) {
  const { status, error, refusal } = found.express;
  if (route.body !== 'derived' || found.difference !== null || status === null || status < 400) return null;
  const from = route.bodySources?.length ? route.bodySources.join(' and ') : 'its DTO, which declares no rules';
  const said = refusal ?? error;
  const fix = route.unfilled?.length
    ? route.unfilled.join('; ')
    : `give it --body '${route.method} ${route.path}=JSON'`;
  return `answers ${status} on both adapters to the body derived from ${from}${said ? `: ${said}` : ''}; ${fix}`;
}

/**
 * Express's answer as a scenario's expect: what both adapters must keep answering.
 * @param {{ status: number, contentType: string | null, body: unknown }} answer
 * @param {boolean} writes the run times writes, which change what reads answer: bodies are not held
 */
function expectation({ status, contentType, body }, writes) {
  return {
    status,
    ...(contentType ? { contentType } : {}),
    ...(body === undefined || writes ? {} : { body }),
  };
}

/**
 * The planned scenarios that answered alike, each held to Express's answer where it gives none of its own.
 * @param {import('../routes/app-config.js').OwnAppPlan} plan @param {import('../routes/app-config.js').RouteEntry[]} routes checkedRoutes()
 * @param {Map<string, any>} kept Express's answer, by scenario
 */
export function heldScenarios(plan, routes, kept) {
  // timed writes change what reads answer: with one in the run, a read is held to its status and media type
  const writes = routes.some((route) => route.scenario !== null && route.method !== 'GET' && route.graphql !== 'query');
  const operations = new Set(routes.filter((r) => r.graphql && r.scenario).map((r) => r.scenario));
  return plan.scenarios
    .filter((s) => kept.has(String(s.name)))
    .map((s) =>
      s.expect === undefined
        ? {
            ...s,
            expect: {
              ...expectation(kept.get(String(s.name)), writes),
              ...(writes && operations.has(String(s.name)) ? { body: withoutErrors } : {}),
            },
          }
        : s,
    );
}
