// @ts-check
// --nest-app: the app's record beside what the analysis made of it, so the report's own-app tables read the Analysis
// alone: the writes, how each route was loaded and what it left behind, what a switch saves at --rate, and why a route
// listed for timing has no ratio.
import { EXPRESS_TARGET, FASTIFY_TARGET } from '../own-app/app-config.js';
import { routeFindings } from './route-findings.js';
import { writeGrowth } from './writes.js';

/** @typedef {import('../model/results.js').Results} Results */
/** @typedef {import('../model/results.js').RunRecord} RunRecord */

/**
 * Whether a route listed for timing was timed, and on which adapter no timed run answered as checked.
 * @typedef {{ timed: false } | { timed: true, unanswered: string | null, failure: string | null }} RouteTiming
 *
 * @typedef {object} OwnAppFacts
 * @property {import('../own-app/own-app.js').OwnAppRecord} record routes, compatibility and traffic, as recorded
 * @property {import('./writes.js').WriteGrowth[]} writes
 * @property {import('./route-findings.js').RouteFinding[]} routes in the order the routes were fitted
 * @property {{ connections: number, durationSec: number }} flags --connections and --duration, each route's ceiling
 * @property {import('./switch-at-rate.js').SwitchAtRate[]} atRate empty without --rate
 * @property {Record<string, RouteTiming>} timing by scenario, for each route listed for timing
 */

/**
 * @param {string} scenario @param {RunRecord[]} runs
 * @returns {RouteTiming}
 */
export function routeTiming(scenario, runs) {
  const own = runs.filter((run) => run.scenario === scenario);
  if (own.length === 0) return { timed: false };
  const unanswered =
    [EXPRESS_TARGET, FASTIFY_TARGET].find(
      (target) => !own.some((run) => run.target === target && run.status === 'ok'),
    ) ?? null;
  const failed = unanswered ? own.find((run) => run.target === unanswered && run.failure) : undefined;
  return { timed: true, unanswered, failure: failed?.failure?.reason ?? null };
}

/**
 * @param {Results} results
 * @param {import('./switch-at-rate.js').SwitchAtRate[]} atRate
 * @returns {OwnAppFacts | null} null without --nest-app
 */
export function ownAppFacts(results, atRate) {
  const record = results.ownApp;
  if (!record) return null;
  const scenarios = record.routes.flatMap((route) => (route.scenario ? [route.scenario] : []));
  return {
    record,
    writes: writeGrowth(results),
    routes: routeFindings(results),
    flags: { connections: results.options.connections, durationSec: results.options.durationSec },
    atRate,
    timing: Object.fromEntries(scenarios.map((scenario) => [scenario, routeTiming(scenario, results.runs)])),
  };
}
