// @ts-check
// --nest-app, from flags to the config a run measures: resolve the module and its packages, discover its routes, plan
// scenarios from them, --params, --traffic and a --config file; then, once the runtime is known, check every route on
// both adapters and keep for timing those that answer alike.
import { dirname } from 'node:path';
import { UsageError } from '../../errors.js';
import { readConfigObject } from '../config.js';
import {
  EXPRESS_TARGET,
  FASTIFY_TARGET,
  TRAFFIC_SCENARIO,
  ownAppConfig,
  planOwnApp,
  trafficMix,
  userScenarios,
} from './app-config.js';
import { checkCompatibility } from './compatibility.js';
import { discoverRoutes, routeLines } from './discover.js';
import { resolveNestApp } from './packages.js';
import { readTraffic } from './traffic.js';

/**
 * @typedef {object} NestAppFlags
 * @property {string} module --nest-app
 * @property {string | null} setup --nest-setup
 * @property {boolean} listRoutes
 * @property {Record<string, string>} params --params
 * @property {string | null} traffic --traffic
 *
 * What results.json keeps of an own-app run (results.ownApp): the report's tables are rendered from it.
 * @typedef {object} OwnAppRecord
 * @property {string} module
 * @property {string | null} setup
 * @property {Record<string, string>} versions the app's Nest packages (core, platforms)
 * @property {import('./app-config.js').RouteEntry[]} routes every route Nest registered, measured or not and why
 * @property {import('./compatibility.js').Compatibility} compatibility
 * @property {import('./app-config.js').TrafficSummary | null} traffic
 * @property {string | null} mix the traffic mix's scenario, when the log gave one
 */

/**
 * @param {NestAppFlags} flags
 * @param {string | null} configFile --config: scenarios to add
 */
export async function loadOwnApp(flags, configFile) {
  const app = resolveNestApp(flags.module, flags.setup);
  const discovered = await discoverRoutes(app);
  const user =
    configFile === null
      ? { scenarios: [], prepare: null }
      : userScenarios(await readConfigObject(configFile), configFile);
  const traffic = flags.traffic === null ? null : readTraffic(flags.traffic);
  const plan = planOwnApp({
    discovered,
    params: flags.params,
    traffic,
    trafficFile: flags.traffic,
    configScenarios: user.scenarios,
  });
  const mix = trafficMix(plan.routes);
  const config = ownAppConfig({
    app,
    scenarios: [...plan.scenarios, ...(mix ? [mix] : [])],
    prepare: user.prepare,
    baseDir: configFile === null ? process.cwd() : dirname(configFile),
  });
  return {
    routeLines: routeLines(discovered),
    config,
    /**
     * Every route on both adapters: those that differ, or fail on both, leave the run; the others are verified
     * against Express's answer and timed.
     * @param {{ runtime: import('../../runtimes/runtimes.js').Runtime, options: import('../options.js').Options,
     *   log: (line: string) => void }} context
     */
    async check({ runtime, options, log }) {
      const prepared =
        (await config.prepare?.({
          targets: [EXPRESS_TARGET, FASTIFY_TARGET],
          scenarios: config.scenarios.map((s) => s.name),
          log,
        })) ?? {};
      const compatibility = await checkCompatibility({
        config,
        runtime,
        basePort: options.basePort,
        env: prepared.env ?? {},
        token: prepared.token ?? null,
        log,
      });
      const kept = new Map(compatibility.routes.filter((r) => r.expect).map((r) => [r.scenario, r.expect]));
      const routes = plan.routes.map((route) => {
        const found = compatibility.routes.find((r) => r.scenario === route.scenario);
        const { startFailure } = compatibility;
        if (startFailure && route.scenario)
          return { ...route, scenario: null, notMeasured: `the app does not start on ${startFailure.adapter}` };
        if (!found || found.expect) return route;
        return {
          ...route,
          scenario: null,
          notMeasured: found.notMeasured ?? `differs on Fastify: ${found.difference}`,
        };
      });
      const finalMix = trafficMix(routes);
      const scenarios = [
        ...plan.scenarios
          .filter((s) => kept.has(String(s.name)))
          .map((s) =>
            s.expect === undefined ? { ...s, expect: expectation(/** @type {any} */ (kept.get(String(s.name)))) } : s,
          ),
        ...(finalMix ? [finalMix] : []),
      ];
      /** @type {OwnAppRecord} */
      const record = {
        module: app.moduleFile,
        setup: app.setupFile,
        versions: app.versions,
        routes,
        compatibility,
        traffic: plan.traffic,
        mix: finalMix ? TRAFFIC_SCENARIO : null,
      };
      if (scenarios.length === 0) return { config: null, options, record };
      const checked = ownAppConfig({ app, scenarios, prepare: () => prepared, baseDir: config.baseDir });
      const names = checked.scenarios.map((s) => s.name);
      const chosen = options.scenarios.filter((name) => names.includes(name));
      if (chosen.length === 0)
        throw new UsageError(
          `--scenarios ${options.scenarios.join(',')}: none of them answers alike on both adapters; see the table above`,
        );
      return { config: checked, options: { ...options, scenarios: chosen }, record };
    },
  };
}

/**
 * Express's answer as a scenario's expect: what both adapters must keep answering.
 * @param {{ status: number, contentType: string | null, body: unknown }} answer
 */
function expectation({ status, contentType, body }) {
  return {
    status,
    ...(contentType ? { contentType } : {}),
    ...(body === undefined ? {} : { body }),
  };
}
