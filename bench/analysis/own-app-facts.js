// @ts-check
// --nest-app: what the analysis made of the app's record, as the report's own-app tables read it: what kept it from
// booting, what changes on Fastify, the writes, how each route was loaded and what it left behind, what a switch saves
// at --rate, why a route listed for timing has no ratio, and the app's routes and packages.
import { EXPRESS_TARGET, FASTIFY_TARGET } from '../model/own-app-record.js';
import { routeFindings } from './route-findings.js';
import { writeGrowth } from './writes.js';
import { checkWrites } from './check-writes.js';

/** @typedef {import('../model/results.js').Results} Results */
/** @typedef {import('../model/results.js').RunRecord} RunRecord */

/**
 * Whether a route listed for timing was timed, and on which adapter no timed run answered as checked; never timed:
 * why, with the flag that would time it.
 * @typedef {{ timed: false, why: string } | { timed: true, unanswered: string | null, failure: string | null }}
 *   RouteTiming
 *
 * @typedef {object} OwnAppFacts
 * @property {import('./writes.js').WriteGrowth[]} writes
 * @property {import('./check-writes.js').CheckWrite[]} checkWrites each write the check sent that the app took
 * @property {import('./route-findings.js').RouteFinding[]} routes in the order the routes were fitted
 * @property {{ connections: number, durationSec: number }} flags --connections and --duration, each route's ceiling
 * @property {import('./switch-at-rate.js').SwitchAtRate[]} atRate empty without --rate
 * @property {Record<string, RouteTiming>} timing by scenario, for each route listed for timing
 * @property {Record<string, string>} versions the app's Nest packages (core, platforms), as installed beside it
 * @property {Record<string, string> | null} database the app's ORM and database drivers as installed beside it; null
 *   in results from before the scan recorded them
 * @property {BootFacts} boot what kept the app from booting, or a server of its check from answering
 * @property {CheckChanges} changes what the check found changes on Fastify
 * @property {import('../model/own-app-record.js').RouteEntry[]} registered every route Nest registered, measured or
 *   not and why
 * @property {import('../model/own-app-record.js').TrafficSummary | null} traffic the --traffic log, as read
 * @property {string | null} mix the traffic mix's scenario, when the log gave one
 * @property {string | null} cwd the servers' working directory; null in results from before it was recorded
 * @property {string | null} nodeEnv the NODE_ENV the servers were started with; null in results from before
 * @property {Record<string, string>} adapters how the setup module had each adapter built; empty: its defaults
 * @property {import('../model/own-app-record.js').ThrottleRecord | null} throttle the app's throttler guards and what
 *   the timed servers did with them; null when it has none
 */

/**
 * @typedef {import('../model/own-app-record.js').BootFailure} BootFailure
 *
 * @typedef {object} BootFacts
 * @property {string | null} signInRefused why the app refused the sign-in: nothing was checked or timed
 * @property {BootFailure | null} adapter the app did not boot on an adapter
 * @property {BootFailure[]} failures each runtime the app does not boot on, then its boot on an adapter where no
 *   runtime's failure already says it (that one is `adapter` itself)
 * @property {import('../model/own-app-record.js').ServerEnd[][]} ends the check's server processes that ended, those
 *   that ended the same way (adapter, exit, error, a probe or the route's own request) together: a GraphQL API's every
 *   operation can end it alike
 */

/**
 * @param {import('../model/own-app-record.js').OwnAppRecord} record @returns {BootFacts}
 */
function bootFacts(record) {
  const failures = [...(record.runtimeFailures ?? [])];
  const adapter = record.bootFailure ?? null;
  if (adapter && !failures.some((f) => f.runtime === adapter.runtime)) failures.push(adapter);
  /** @type {Map<string, import('../model/own-app-record.js').ServerEnd[]>} */
  const alike = new Map();
  for (const end of record.compatibility.ends ?? []) {
    const key = [end.adapter, end.code, end.signal, end.error, end.probe === null].join('\u0000');
    alike.set(key, [...(alike.get(key) ?? []), end]);
  }
  return { signInRefused: record.signIn?.refused ?? null, adapter, failures, ends: [...alike.values()] };
}

/**
 * What the check found changes on Fastify, as the report lists it: the app that did not start, a sign-in that fails on
 * Fastify, and each route whose answers differ (a content type alone is a finding, not a route left untimed).
 * @typedef {object} CheckChanges
 * @property {import('../model/own-app-record.js').Compatibility['startFailure']} startFailure
 * @property {string | null} signInError
 * @property {import('../model/own-app-record.js').RouteCompatibility[]} differing
 */

/**
 * @param {import('../model/own-app-record.js').OwnAppRecord} record @returns {CheckChanges}
 */
export function checkChanges(record) {
  const { startFailure, routes } = record.compatibility;
  return {
    startFailure,
    signInError: record.signIn?.errors[FASTIFY_TARGET] ?? null,
    differing: routes.filter((r) => !r.same && !r.contentTypeOnly),
  };
}

/**
 * What else a run recorded about a route it did not time.
 * @typedef {object} UntimedEvidence
 * @property {Results['verification']} [verification] a failed one skipped the route
 * @property {NonNullable<Results['drains']>} [drains] a hang or crash under its load left it out
 * @property {string[] | null} [chosen] --scenarios, when it was given
 */

/**
 * @param {string} scenario @param {RunRecord[]} runs @param {UntimedEvidence} [evidence]
 * @returns {RouteTiming}
 */
export function routeTiming(scenario, runs, evidence = {}) {
  const own = runs.filter((run) => run.scenario === scenario);
  if (own.length === 0) return { timed: false, why: neverTimed(scenario, evidence) };
  const unanswered =
    [EXPRESS_TARGET, FASTIFY_TARGET].find(
      (target) => !own.some((run) => run.target === target && run.status === 'ok'),
    ) ?? null;
  const failed = unanswered ? own.find((run) => run.target === unanswered && run.failure) : undefined;
  return { timed: true, unanswered, failure: failed?.failure?.reason ?? null };
}

/**
 * Why a route its check kept was never timed: --scenarios left it out; its verification before timing answered
 * otherwise than its check (a write timed before it changed what it answers, e.g. a 403 once a role lost its rights);
 * its server hung or crashed under its load.
 * @param {string} scenario @param {UntimedEvidence} evidence
 */
function neverTimed(scenario, { verification = [], drains = [], chosen = null }) {
  if (chosen && !chosen.includes(scenario)) return `--scenarios left it out: add ${scenario} to time it`;
  const skipped = verification.find((v) => v.scenario === scenario && !v.ok);
  if (skipped)
    return `skipped: its verification before timing on ${skipped.target} failed (${skipped.reason}), where its check had answered alike, so what it answers changed in between (a write timed before it); --scenarios ${scenario} times it alone`;
  const trouble = drains.find((d) => d.scenario === scenario && d.outcome !== 'backlog');
  if (trouble)
    return `its server ${trouble.outcome === 'crashed' ? 'crashed' : 'hung'} on ${trouble.target} under ${trouble.connections} connections (how each route was measured): a finding, not a ratio`;
  return 'no timed run of it was recorded';
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
    writes: writeGrowth(results),
    checkWrites: checkWrites(record),
    routes: routeFindings(results),
    flags: { connections: results.options.connections, durationSec: results.options.durationSec },
    atRate,
    timing: Object.fromEntries(
      scenarios.map((scenario) => [
        scenario,
        routeTiming(scenario, results.runs, {
          verification: results.verification,
          drains: results.drains ?? [],
          chosen: results.options.scenarios ?? null,
        }),
      ]),
    ),
    versions: record.versions,
    database: record.scan?.database ?? null,
    boot: bootFacts(record),
    changes: checkChanges(record),
    registered: record.routes,
    traffic: record.traffic,
    mix: record.mix,
    cwd: record.cwd ?? null,
    nodeEnv: record.nodeEnv ?? null,
    adapters: record.adapters ?? {},
    throttle: record.throttle ?? null,
  };
}
