// @ts-check
// The built-in scenarios (defined in builtin-config.js) by name, and the requests a driver sends for a scenario.
import { BUILTIN_CONFIG } from './builtin-config.js';
import { scenarioNamed, targetNamed } from './config.js';
import { interleave } from './mix.js';
import { BARE, stackHeaders } from './stacks.js';

/**
 * @typedef {import('./config.js').Scenario} Scenario
 *
 * The request a driver sends for one scenario; for a mix, `sequence` is the cycle it goes round.
 * @typedef {{ method: string, path: string, headers: Record<string, string>, body: string | undefined,
 *   sequence?: RouteRequest[] }} ScenarioRequest
 *
 * One request of a mix's cycle.
 * @typedef {object} RouteRequest
 * @property {string} route what the request is counted as
 * @property {string} method
 * @property {string} path including the query
 * @property {Record<string, string>} headers its own, on top of the run's
 * @property {string | undefined} body
 * @property {number} expectedStatus its answer's status, which counts as throughput
 */

export const SCENARIOS = BUILTIN_CONFIG.scenarios;
export const SCENARIO_NAMES = SCENARIOS.map((s) => s.name);

/** @param {string} name */
export function scenarioByName(name) {
  return scenarioNamed(BUILTIN_CONFIG, name);
}

/**
 * @typedef {object} RequestContext
 * @property {string | null} token the token minted for the run (null when it could not be minted)
 * @property {string} [stack] the stack of the server it goes to: a production client accepts gzip
 * @property {import('./config.js').Config} [config] where a mix's scenarios are found
 */

/**
 * The concrete request for a scenario in this run.
 * @param {Scenario} scenario
 * @param {RequestContext} context
 * @returns {ScenarioRequest}
 */
export function requestFor(scenario, { token, stack = BARE, config = BUILTIN_CONFIG }) {
  const headers = { ...stackHeaders(stack), ...scenario.headers };
  if (scenario.needsToken && token) headers.authorization = `Bearer ${token}`;
  const request = { method: scenario.method, path: scenario.path, headers, body: scenario.body };
  if (!scenario.mix) return request;
  const routes = new Map(
    scenario.mix.map(({ route }) => {
      const own = scenarioNamed(config, route);
      return [route, { route, ...requestFor(own, { token }), expectedStatus: own.status }];
    }),
  );
  const sequence = interleave(scenario.mix).map((route) => /** @type {RouteRequest} */ (routes.get(route)));
  return { ...request, sequence };
}

/**
 * A pair with its names resolved once, by the run's plan: its target, its scenario and the request it sends on its
 * stack (bare unless given), so that what runs after the plan looks up no name.
 * @typedef {{ pair: { target: string, scenario: string, stack?: string }, target: import('./config.js').Target,
 *   scenario: Scenario, request: ScenarioRequest }} ResolvedPair
 */

/**
 * @param {{ target: string, scenario: string, stack?: string }} pair
 * @param {RequestContext & { config: import('./config.js').Config }} context
 * @returns {ResolvedPair}
 */
export function resolvePair(pair, { token, config }) {
  const scenario = scenarioNamed(config, pair.scenario);
  const request = requestFor(scenario, { token, stack: pair.stack, config });
  return { pair, target: targetNamed(config, pair.target), scenario, request };
}

/**
 * The scenarios a verification checks: a mix is right when each of its routes is.
 * @param {Scenario} scenario
 * @param {import('./config.js').Config} [config]
 * @returns {Scenario[]}
 */
export function checkedScenarios(scenario, config = BUILTIN_CONFIG) {
  return scenario.mix ? scenario.mix.map(({ route }) => scenarioNamed(config, route)) : [scenario];
}
