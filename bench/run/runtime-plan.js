// @ts-check
// A runtime's plan and state: what one runtime's measurement is given, its names resolved once into the objects its
// runs send and start (frozen: nothing after the plan changes it), and the small state its design owns and changes as
// it goes (live servers, fitted loads, routes in trouble).
import { scenarioNamed } from '../model/config.js';
import { isJudged } from '../model/compared.js';
import { checkedScenarios, requestFor } from '../model/scenarios.js';
import { instanceName } from '../model/stacks.js';
import { blockKey, pairKey } from '../model/keys.js';

/** @typedef {import('./plan.js').Pair} Pair */
/** @typedef {import('./targets.js').ServedTarget} ServedTarget */

/**
 * @typedef {object} RuntimeInput what one runtime's measurement is given
 * @property {import('../runtimes/runtimes.js').Runtime} runtime
 * @property {string} runtimeKey `name@version`, the runtime's label in every record
 * @property {import('../model/config.js').Config} config what the pairs' names refer to
 * @property {import('./options.js').Options} options
 * @property {import('../model/design.js').Design} design how the rounds are spent
 * @property {import('./drivers/registry.js').Driver} driver
 * @property {Pair[]} pairs the applicable pairs, before verification
 * @property {string | null} token for scenarios that need one
 * @property {Record<string, string>} env added to every target's environment
 * @property {string} outDir the run's directory: the production stack's request logs go there
 * @property {import('../model/recorder.js').Recorder} record what the measurement measured goes there
 * @property {ReturnType<typeof import('./progress.js').createProgress>} progress
 * @property {AbortSignal} signal Ctrl-C
 * @property {(block: { runtime: string, scenario: string, stack: string }) => import('../model/design.js').Standing} standing
 *   where a block's verdict stands after the runs recorded so far (--budget only)
 * @property {(block: { runtime: string, scenario: string, stack: string }) => import('../model/design.js').Glance | null} glance
 *   the compared pair's ratio in a block so far, for the log
 */

/**
 * What a block's runs send, resolved once from the config when the runtime's measurement begins: its scenario, its
 * request on the block's stack, and what verifying it sends (a mix: each of its routes).
 * @typedef {{ scenario: import('../model/config.js').Scenario, request: import('../model/scenarios.js').ScenarioRequest,
 *   checks: Array<{ scenario: import('../model/config.js').Scenario, request: import('../model/scenarios.js').ScenarioRequest }> }} ResolvedLoad
 * @typedef {{ name: string, target: import('../model/config.js').Target, stack: string }} Instance one server: a target on
 *   a stack, keyed by instanceName
 * @typedef {{ scenario: import('../model/config.js').Scenario, request: import('../model/scenarios.js').ScenarioRequest }} CurveLoad
 *   what --load-curve sends on a scenario: its request as on the bare stack
 * @typedef {Readonly<RuntimeInput & { loads: Map<string, ResolvedLoad>, instances: Instance[],
 *   targets: Map<string, import('../model/config.js').Target>, judged: Set<string>, curveLoads: Map<string, CurveLoad> }>}
 *   RuntimePlan the input with its names resolved, frozen: loads by blockKey; instances in the pairs' order; targets:
 *   the config's by name (the groups a round's order keeps together); judged: the pairs the verdict divides, by
 *   pairKey; curveLoads: with --load-curve, by scenario
 */

/**
 * What a runtime's measurement changes as it goes, owned by the design that runs it (measure.js hands it over).
 * @typedef {object} RunState
 * @property {Map<string, ServedTarget>} running the live servers by instanceName: a restart replaces one in it, a new
 *   start (--starts) the whole map
 * @property {Map<string, import('./route-load.js').RouteLoad> | null} routeLoads --nest-app: each route's fitted load
 *   by blockKey; null: no route's was fitted
 * @property {Map<string, FittedLoad>} fittedLoads the connections and run length of each block whose load was fitted
 *   (--nest-app's routes, or a block's on the first start) or is the scenario's own, by blockKey; absent: the flags'
 * @property {Set<string>} troubled the block keys of routes that hung or crashed a server, left out of the run from then on
 */

/** @typedef {{ connections: number, durationSec: number }} FittedLoad */

/**
 * @param {Pick<RuntimeInput, 'config' | 'pairs' | 'token'>} input
 * @returns {Map<string, ResolvedLoad>}
 */
function resolveLoads({ config, pairs, token }) {
  return new Map(
    pairs.map((pair) => {
      const scenario = scenarioNamed(config, pair.scenario);
      const resolve = (/** @type {import('../model/config.js').Scenario} */ sent) => ({
        scenario: sent,
        request: requestFor(sent, { token, stack: pair.stack, config }),
      });
      return [blockKey(pair), { ...resolve(scenario), checks: checkedScenarios(scenario, config).map(resolve) }];
    }),
  );
}

/**
 * The input with what its pairs' runs send, the servers they need and the pairs the verdict divides resolved once,
 * when the runtime's measurement begins; frozen, as nothing after the plan changes it.
 * @param {RuntimeInput} unplanned
 * @returns {RuntimePlan}
 */
export function planRuntime(unplanned) {
  const { pairs, config, token } = unplanned;
  const targets = new Map(config.targets.map((target) => [target.name, target]));
  return Object.freeze({
    ...unplanned,
    loads: resolveLoads({ config, pairs, token }),
    instances: instancesOf(pairs, targets),
    targets,
    judged: new Set(pairs.filter((pair) => isJudged(config, pair)).map(pairKey)),
    curveLoads: unplanned.options.loadCurve ? curveLoadsOf({ config, pairs, token }) : new Map(),
  });
}

/**
 * @param {Pick<RuntimeInput, 'config' | 'pairs' | 'token'>} input
 * @returns {Map<string, CurveLoad>}
 */
function curveLoadsOf({ config, pairs, token }) {
  return new Map(
    [...new Set(pairs.map((pair) => pair.scenario))].map((name) => {
      const scenario = scenarioNamed(config, name);
      return [name, { scenario, request: requestFor(scenario, { token, config }) }];
    }),
  );
}

/**
 * A measurement's state as it begins: the first start's servers, the loads the scenarios bring, no route in trouble.
 * @param {Pick<RuntimePlan, 'loads' | 'options'>} plan @param {Map<string, ServedTarget>} running
 * @returns {RunState}
 */
export function runState({ loads, options }, running) {
  return { running, routeLoads: null, fittedLoads: ownLoads(loads, options), troubled: new Set() };
}

/**
 * The scenarios that bring their own load (config.js: ScenarioLoad) run with it: its connections, and its run length
 * or --duration's, whichever is longer.
 * @param {Map<string, { scenario: import('../model/config.js').Scenario }>} loads
 * @param {{ connections: number, durationSec: number }} options
 * @returns {Map<string, FittedLoad>}
 */
export function ownLoads(loads, options) {
  return new Map(
    [...loads].flatMap(([key, { scenario }]) =>
      scenario.load
        ? [
            [
              key,
              {
                connections: scenario.load.connections ?? options.connections,
                durationSec: Math.max(scenario.load.durationSec, options.durationSec),
              },
            ],
          ]
        : [],
    ),
  );
}

/**
 * The servers the pairs need, one per target and stack, in the pairs' order, each with its target resolved.
 * @param {Pair[]} pairs @param {RuntimePlan['targets']} targets
 * @returns {Instance[]}
 */
function instancesOf(pairs, targets) {
  const seen = new Map(pairs.map((pair) => [instanceName(pair), pair]));
  return [...seen].map(([name, { target, stack }]) => ({
    name,
    target: /** @type {import('../model/config.js').Target} */ (targets.get(target)),
    stack,
  }));
}
