// @ts-check
// The built-in scenarios (defined in builtin-config.js) by name, and the request a driver sends for a scenario.
import { BUILTIN_CONFIG } from './builtin-config.js';
import { scenarioNamed } from './config.js';

/**
 * @typedef {import('./config.js').Scenario} Scenario
 *
 * The request a driver sends for one scenario.
 * @typedef {{ method: string, path: string, headers: Record<string, string>, body: string | undefined }} ScenarioRequest
 */

export const SCENARIOS = BUILTIN_CONFIG.scenarios;
export const SCENARIO_NAMES = SCENARIOS.map((s) => s.name);

/** @param {string} name */
export function scenarioByName(name) {
  return scenarioNamed(BUILTIN_CONFIG, name);
}

/**
 * The concrete request for a scenario in this run.
 * @param {Scenario} scenario
 * @param {{ token: string | null }} context the token minted for the run (null when it could not be minted)
 * @returns {ScenarioRequest}
 */
export function requestFor(scenario, { token }) {
  const headers = { ...scenario.headers };
  if (scenario.needsToken && token) headers.authorization = `Bearer ${token}`;
  return { method: scenario.method, path: scenario.path, headers, body: scenario.body };
}
