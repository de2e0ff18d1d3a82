// @ts-check
// --nest-app or --nest-main, from flags to the config a run measures: what the app is (plan/app-context.js) and its
// first plan; then, once the runtime is known, sign in, ask the app what the plan needs (plan/ask-app.js), check every
// route on both adapters and keep for timing those that answer alike.
import { UsageError } from '../errors.js';
import { SERVER_NODE_ENV } from '../run/targets.js';
import { BASE_TARGET, EXPRESS_TARGET, FASTIFY_TARGET, TRAFFIC_SCENARIO } from '../model/own-app-record.js';
import { ownAppConfig, trafficMix } from './routes/app-config.js';
import { appClient, signIn } from './sign-in/authenticate.js';
import { bootFailure } from './launch/boot-failure.js';
import { CheckFailed, checkCompatibility } from './check/check-run.js';
import { checkedRoutes, heldScenarios, refusedSignInCheck } from './check/checked-routes.js';
import { routeLines } from './routes/discover.js';
import { graphqlRefusals } from './graphql/graphql-answers.js';
import { lostSignInReason, watchSignIn } from './sign-in/principal.js';
import { onPackageSet } from './launch/packages.js';
import { measuredWithout } from './launch/main-boot.js';
import { writeWatcher } from './sign-in/same-values.js';
import { THROTTLE_MODES, throttleRecord } from './launch/throttle.js';
import { ownAppContext } from './plan/app-context.js';
import { configFor, planWith } from './plan/app-plan.js';
import { askApp, asksApp } from './plan/ask-app.js';
import { recordedFindings } from './findings/switching.js';
import { buildLine, buildRecord } from './plan/baseline.js';

/**
 * @typedef {import('./plan/app-context.js').NestAppFlags} NestAppFlags
 * @typedef {import('./plan/app-context.js').OwnAppContext} OwnAppContext
 * @typedef {import('./plan/app-plan.js').Plan} Plan
 * @typedef {import('../model/own-app-record.js').OwnAppRecord} OwnAppRecord
 * @typedef {Omit<Awaited<ReturnType<typeof signIn>>, 'found'> & { found: Awaited<ReturnType<typeof askApp>> | null }}
 *   SignedIn what the sign-in returned, with what the plan asked the app while signed in
 */

/**
 * @param {NestAppFlags} flags
 * @param {string | null} configFile --config: scenarios to add
 */
export async function loadOwnApp(flags, configFile) {
  const context = await ownAppContext(flags, configFile);
  const { firstPlan, failure } = planned(context);
  const config = configFor(context, context.app, firstPlan);
  return {
    routeLines: routeLines(context.discovered),
    config,
    /** what the app found installed beside it */
    versions: context.app.versions,
    /**
     * Every route on both adapters: those that differ, or fail on both, leave the run; the others are verified
     * against Express's answer and timed.
     * @param {CheckContext} run
     */
    check: (run) => checkedOrFailed(context, { firstPlan, config, failure }, run),
  };
}

/**
 * The plan before anything is asked of the app; where the bench fails to make it (an error of its own), every route
 * unplanned with that failure, which the check then reports.
 * @param {OwnAppContext} context
 * @returns {{ firstPlan: Plan, failure: string | null }}
 */
function planned(context) {
  try {
    return { firstPlan: planWith(context, { headers: {}, params: {} }), failure: null };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const failure = `the bench failed while planning the routes: ${describeFailure(error)}`;
    const routes = context.discovered.routes.map(({ method, path, handler }) => ({
      method,
      path,
      handler,
      scenario: null,
      request: null,
      notMeasured: failure,
      logged: 0,
    }));
    return { firstPlan: /** @type {Plan} */ ({ routes, scenarios: [], traffic: null }), failure };
  }
}

/**
 * What the check had done when it stopped: each step's result as it was reached.
 * @typedef {object} Reached
 * @property {string} step what it was doing
 * @property {import('./launch/packages.js').NestApp} [onApp]
 * @property {SignedIn} [signedIn]
 * @property {Plan} [plan]
 */

/**
 * The check; where the bench itself fails in it (an error of its own, not the user's input), what it found until then
 * is the record, nothing is timed, and the failure is said, so the run still writes its report.
 * @param {OwnAppContext} context
 * @param {{ firstPlan: Plan, config: import('../model/config.js').Config, failure: string | null }} first the plan
 *   and config made before anything was asked of the app, or the bench's failure to make them
 * @param {CheckContext} run
 */
async function checkedOrFailed(context, first, run) {
  /** @type {Reached} */
  const reached = { step: 'preparing the app' };
  try {
    if (first.failure) return failedCheck(context, first.firstPlan, reached, first.failure, run);
    return { ...(await checkOwnApp(context, first, run, reached)), failure: null };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const plan = reached.plan ?? first.firstPlan;
    const failedAt = error instanceof CheckFailed ? error : null;
    const request = plan.routes.find((r) => failedAt?.scenario && r.scenario === failedAt.scenario)?.request;
    const at = request ? ` ${request}` : '';
    const failure = `the check failed while ${reached.step}${at}: ${describeFailure(failedAt?.cause ?? error)}`;
    return failedCheck(context, plan, reached, failure, run, failedAt?.checked);
  }
}

/**
 * A check the bench failed in: the routes as far as they were checked, none timed, each saying why.
 * @param {OwnAppContext} context @param {Plan} plan @param {Reached} reached @param {string} failure
 * @param {CheckContext} run
 * @param {import('./check/compatibility.js').Compatibility} [compatibility] what the check found before it failed
 */
function failedCheck(context, plan, reached, failure, { runtime, options, log }, compatibility) {
  log(failure);
  const checked = compatibility ?? { startFailure: null, routes: [] };
  const routes = checkedRoutes(plan.routes, checked, new Map()).map((route) =>
    route.scenario === null
      ? route
      : {
          ...route,
          scenario: null,
          ...(checked.routes.some((r) => r.scenario === route.scenario) ? { checked: route.scenario } : {}),
          notMeasured: failure,
        },
  );
  const { onApp = context.app, signedIn } = reached;
  const record = checkedRecord(context, { onApp, plan, routes, compatibility: checked, signedIn, mix: null }, runtime);
  return { config: null, options, record, failure };
}

/**
 * The bench's own error in one line: its message, and where it was thrown.
 * @param {unknown} error
 */
function describeFailure(error) {
  if (!(error instanceof Error)) return String(error);
  const thrownAt = error.stack
    ?.split('\n')
    .find((line) => line.trim().startsWith('at '))
    ?.trim()
    .replace(/^at (?:.* \()?(.*?)\)?$/, '$1')
    .replace(/^file:\/\//, '');
  return `${error.name}: ${error.message}${thrownAt ? ` (at ${thrownAt})` : ''}`;
}

/**
 * @typedef {{ runtime: import('../runtimes/runtimes.js').Runtime, options: import('../run/options.js').Options,
 *   log: (line: string) => void, set?: import('../packages/sets.js').PackageSet }} CheckContext set: --packages,
 *   the set the app runs on in place of its own packages
 */

/**
 * Signs in, asks the app what the plan needs, and checks every planned route on both adapters.
 * @param {OwnAppContext} context
 * @param {{ firstPlan: Plan, config: import('../model/config.js').Config }} first the plan
 *   and config made before anything was asked of the app
 * @param {CheckContext} run
 * @param {Reached} reached filled as each step is done: what a failure keeps
 */
async function checkOwnApp(context, { firstPlan, config }, { runtime, options, log, set }, reached) {
  const { app, flags, authenticate, scan, skipped } = context;
  for (const call of skipped)
    log(`Fastify: ${call.call} at ${call.at ?? 'main'} skipped (${call.error}); measured without it`);
  const builds = buildsOf(context);
  if (builds) for (const [role, build] of Object.entries(builds)) log(buildLine(build, role));
  const onApp = set ? onPackageSet(app, set) : app;
  reached.onApp = onApp;
  const base = set ? configFor(context, onApp, firstPlan) : config;
  const prepared =
    (await base.prepare?.({
      targets: [EXPRESS_TARGET, FASTIFY_TARGET],
      scenarios: config.scenarios.map((s) => s.name),
      log,
    })) ?? {};
  reached.step = 'signing in and asking the app for ids';
  const signedIn = await signIn({
    authenticate,
    source: context.signInSource,
    config: base,
    runtime,
    basePort: options.basePort,
    env: prepared.env ?? {},
    log,
    whileSignedIn: asksApp(context) ? (client, credentials) => askApp(context, client, credentials, log) : null,
  });
  reached.signedIn = signedIn;
  reached.step = 'planning from what the app answered';
  const skip = signedIn.record?.refused ? refusedSignInCheck(firstPlan) : null;
  if (skip) return timedConfig(context, { onApp, config, ...skip, prepared, signedIn }, { runtime, options, log });
  /** @type {import('./plan/app-plan.js').Asked} */
  const found = signedIn.found ?? {};
  // what the sign-in sent is known once it is done: the last plan gives its route those bodies
  const plan = planWith(context, signedIn.credentials, { ...found, signInRequests: signedIn.requests });
  const witness = found.witness ?? null;
  reached.plan = plan;
  const sentHeaders = { ...signedIn.credentials.headers, ...flags.headers };
  const signInChanged = authenticate || witness ? watchSignIn({ authenticate, headers: sentHeaders, witness }) : null;
  const watchWrite = writeWatcher(plan.routes, {
    current: found.current,
    headers: sentHeaders,
    signInChanged,
  });
  reached.step = 'checking the routes on Express and Fastify';
  const compatibility = await checkCompatibility({
    config: configFor(context, onApp, plan),
    runtime,
    basePort: options.basePort,
    env: prepared.env ?? {},
    token: prepared.token ?? null,
    log,
    cookies: scan.cookies ?? [],
    afterWrite: watchWrite && ((url, scenario) => watchWrite(appClient(url), scenario)),
    corsOrigin: scan.corsOrigins?.[0],
  });
  reached.step = 'choosing what to time';
  return timedConfig(context, { onApp, config, plan, compatibility, prepared, signedIn }, { runtime, options, log });
}

/**
 * What the check leaves to time: the routes that answered alike, each held to Express's answer, with the record the
 * report is rendered from.
 * @param {OwnAppContext} context
 * @param {object} checked
 * @param {import('./launch/packages.js').NestApp} checked.onApp
 * @param {import('../model/config.js').Config} checked.config the first config: its scenarios are the defaults
 * @param {Plan} checked.plan
 * @param {import('./check/compatibility.js').Compatibility} checked.compatibility
 * @param {import('../model/config.js').Prepared} checked.prepared
 * @param {SignedIn} checked.signedIn
 * @param {CheckContext} run
 */
function timedConfig(context, { onApp, config, plan, compatibility, prepared, signedIn }, { runtime, options, log }) {
  const { flags, baseDir } = context;
  const kept = new Map(compatibility.routes.filter((r) => r.expect).map((r) => [r.scenario, r.expect]));
  const graphqlRefused = graphqlRefusals(plan.routes, compatibility.routes);
  for (const name of graphqlRefused.keys()) kept.delete(name);
  const routes = checkedRoutes(plan.routes, compatibility, graphqlRefused, signedIn?.found?.accepted ?? null);
  for (const { lostSignIn, request } of compatibility.routes)
    if (lostSignIn) log(lostSignInReason(lostSignIn, request));
  const finalMix = trafficMix(routes);
  const scenarios = [...heldScenarios(plan, routes, kept), ...(finalMix ? [finalMix] : [])];
  const record = checkedRecord(context, { onApp, plan, routes, compatibility, signedIn, mix: finalMix }, runtime);
  if (scenarios.length === 0) return { config: null, options, record };
  const throttle = flags.keepThrottle ? THROTTLE_MODES.keep : THROTTLE_MODES.lift;
  const { baseline } = context;
  const checkedConfig = ownAppConfig({ app: onApp, scenarios, prepare: () => prepared, baseDir, throttle, baseline });
  const names = checkedConfig.scenarios.map((s) => s.name);
  // without --scenarios every checked route is timed: ids and sign-in fill routes the first plan could not
  const planned = config.scenarios.map((s) => s.name);
  const defaulted = planned.every((name) => options.scenarios.includes(name));
  const chosen = defaulted ? names : options.scenarios.filter((name) => names.includes(name));
  if (chosen.length === 0)
    throw new UsageError(
      `--scenarios ${options.scenarios.join(',')}: none of them answers alike on both adapters; see the table above`,
    );
  // R req/s of the app's traffic: the mix alone when there is one; without a log, each route at R
  const curveScenarios =
    options.rate !== null && finalMix && chosen.includes(TRAFFIC_SCENARIO) ? [TRAFFIC_SCENARIO] : null;
  return {
    config: checkedConfig,
    options: {
      ...options,
      ...(baseline ? { targets: checkedConfig.targets.map((t) => t.name) } : {}),
      scenarios: chosen,
      curveScenarios,
      fitLoads: true,
    },
    record,
  };
}

/**
 * The record the report is rendered from: the app, its routes as checked, what each step found, and the findings
 * judged from all of it once, as its last step.
 * @param {OwnAppContext} context
 * @param {object} found
 * @param {import('./launch/packages.js').NestApp} found.onApp
 * @param {Plan} found.plan
 * @param {import('./routes/app-config.js').RouteEntry[]} found.routes
 * @param {import('./check/compatibility.js').Compatibility} found.compatibility
 * @param {SignedIn | undefined} found.signedIn
 * @param {Record<string, unknown> | null} found.mix
 * @param {import('../runtimes/runtimes.js').Runtime} runtime
 * @returns {OwnAppRecord}
 */
function checkedRecord(context, { onApp, plan, routes, compatibility, signedIn, mix }, runtime) {
  const { app, discovered, flags, scan, adapters, skipped } = context;
  /** @type {OwnAppRecord} */
  const record = {
    module: app.moduleFile,
    ...(app.mainFile ? { main: app.mainFile, measuredWithout: measuredWithout(skipped, scan.root ?? app.cwd) } : {}),
    setup: app.setupFile,
    cwd: app.cwd,
    nodeEnv: SERVER_NODE_ENV,
    versions: onApp.versions,
    routes,
    compatibility,
    sentForIds: signedIn?.found?.sentForIds ?? [],
    traffic: plan.traffic,
    mix: mix ? TRAFFIC_SCENARIO : null,
    signIn: signedIn?.record ? { ...signedIn.record, accepted: signedIn.found?.accepted ?? null } : null,
    headers: Object.keys(flags.headers),
    swaggerError: discovered.swaggerError ?? null,
    ...throttleRecord(discovered, scan, flags),
    scan,
    adapters,
    builds: buildsOf(context),
    bootFailure: compatibility.startFailure
      ? bootFailure(compatibility.startFailure, `${runtime.name}@${runtime.version}`, scan)
      : null,
  };
  return { ...record, findings: recordedFindings(record) };
}

/**
 * --baseline: the two builds the run times, each with its folder and commit.
 * @param {OwnAppContext} context
 * @returns {OwnAppRecord['builds']}
 */
function buildsOf({ app, baseline }) {
  return baseline ? { candidate: buildRecord(app, EXPRESS_TARGET), base: buildRecord(baseline, BASE_TARGET) } : null;
}
