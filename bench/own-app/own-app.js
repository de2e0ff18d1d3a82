// @ts-check
// --nest-app or --nest-main, from flags to the config a run measures: resolve the module or main and its packages,
// boot main on Fastify once for what it cannot take (--nest-main), discover its routes, plan
// scenarios from them, --params, --traffic and a --config file; then, once the runtime is known, check every route on
// both adapters and keep for timing those that answer alike.
import { dirname } from 'node:path';
import { UsageError } from '../errors.js';
import { readConfigObject } from '../model/config.js';
import { SERVER_NODE_ENV } from '../run/targets.js';
import { EXPRESS_TARGET, FASTIFY_TARGET, TRAFFIC_SCENARIO } from '../model/own-app-record.js';
import { ownAppConfig, planOwnApp, trafficMix, userScenarios } from './routes/app-config.js';
import { appClient, authenticateExport, loadSetup, refusedSignInError, signIn } from './sign-in/authenticate.js';
import { bootFailure } from './launch/boot-failure.js';
import { checkCompatibility } from './check/check-run.js';
import { checkedRoutes, heldScenarios, refusedSignInCheck } from './check/checked-routes.js';
import { discoverRoutes, routeLines } from './routes/discover.js';
import {
  answeredByCreates,
  createRoutes,
  createdKey,
  fetchLists,
  listRequests,
  resolveIds,
} from './routes/id-sources.js';
import { fillPath } from './routes/route-match.js';
import { createMutations, withCreatedItem } from './graphql/graphql-values.js';
import { graphqlErrors, graphqlRefusals } from './graphql/graphql-answers.js';
import { fetchGraphqlLists, graphqlTraffic, planGraphql, withGraphql } from './graphql/graphql.js';
import { readOperations } from './graphql/graphql-operations.js';
import {
  askSignedOut,
  findWitness,
  lostSignInReason,
  principalValues,
  tokenClaimValues,
  watchSignIn,
} from './sign-in/principal.js';
import { signInFromFlag } from './sign-in/sign-in-flag.js';
import { proveSignIn, signInCandidates } from './sign-in/sign-in-proof.js';
import { adapterChoices, onPackageSet, resolveNestApp, resolveNestMain } from './launch/packages.js';
import { fastifySkips, measuredWithout, withSkippedCalls } from './launch/main-boot.js';
import { currentValuesRequests, keepValuesOthersRead, signInFieldNames, writeWatcher } from './sign-in/same-values.js';
import { readTraffic } from './routes/traffic.js';
import { scanApp } from './scan/scan.js';
import { THROTTLE_MODES, throttleRecord } from './launch/throttle.js';
import { graphqlUploadParser, uploadsByHandler } from './bodies/upload-form.js';

/**
 * @typedef {object} NestAppFlags
 * @property {string} module --nest-app, or --nest-main's file
 * @property {boolean} [main] --nest-main: module is the app's own compiled main, which the servers run
 * @property {Record<string, unknown> | null} [fastifyOptions] --fastify-options
 * @property {boolean} [strict] --strict: a call of main's Fastify cannot take stops Fastify's boot
 * @property {string | null} setup --nest-setup
 * @property {string | null} [cwd] --nest-cwd
 * @property {boolean} listRoutes
 * @property {Record<string, string>} params --params
 * @property {string | null} traffic --traffic
 * @property {import('./routes/app-config.js').BodyOverride[]} bodies --body
 * @property {Record<string, string>} headers --header
 * @property {string[]} [timeWrites] --time-write: writes to time though they change the signed-in account
 * @property {import('./sign-in/sign-in-flag.js').SignInFlag | null} [signIn] --sign-in: the password sign-in's request
 * @property {string | null} [graphqlQueries] --graphql-queries: a .graphql file of the operations to measure
 * @property {boolean} [keepThrottle] --keep-throttle: time the app's throttler as it is, not lifted
 *
 * @typedef {import('../model/own-app-record.js').OwnAppRecord} OwnAppRecord
 */

/**
 * What a run resolves once about the app, from its flags: every later step is given this object.
 * @typedef {object} OwnAppContext
 * @property {NestAppFlags} flags
 * @property {import('./launch/packages.js').NestApp} app
 * @property {import('./routes/discover.js').Discovered} discovered
 * @property {{ scenarios: Record<string, unknown>[], prepare: import('../model/config.js').PrepareStep | null }} user
 *   a --config file's scenarios and prepare step
 * @property {import('./routes/traffic.js').TrafficLog | null} traffic
 * @property {((client: import('./sign-in/authenticate.js').AppClient) => unknown) | null} authenticate --sign-in's,
 *   or the setup module's
 * @property {string | null} signInSource what signs in, as messages name it: `--sign-in POST /login`, the setup file
 * @property {Record<string, string>} adapters adapterChoices()
 * @property {import('./graphql/graphql-operations.js').GraphqlOperation[]} fileOperations --graphql-queries
 * @property {import('./scan/scan.js').ScanRecord} scan
 * @property {import('./launch/main-factory.js').SkippedCall[]} skipped --nest-main: main's calls Fastify cannot take
 * @property {string} baseDir results go under it
 */

/**
 * What the plan was given from the app, signed in.
 * @typedef {object} Asked
 * @property {Map<string, unknown>} [lists] list answers the app gave (id-sources.js)
 * @property {Map<string, unknown>} [preexisting] the list answers as first asked, before the bench created anything:
 *   a write never takes a row they hold (id-sources.js)
 * @property {Map<string, unknown>} [graphqlLists] the GraphQL list queries' answers, by field (graphql.js)
 * @property {import('./sign-in/authenticate.js').SignInRequest[]} [signInRequests] what authenticate() sent: the sign-in
 *   route's body where --body gives none
 * @property {import('./sign-in/principal.js').SignInWitness | null} [witness] a /me's answer names the principal's ids
 * @property {Map<string, unknown>} [current] the GET answers of what in-place writes change, by request path
 *   (same-values.js)
 * @property {Set<string>} [publicWrites] writes held for the principal's change that answered 2xx signed out
 *   (principal.js askSignedOut)
 */

/**
 * @param {NestAppFlags} flags
 * @param {string | null} configFile --config: scenarios to add
 */
export async function loadOwnApp(flags, configFile) {
  const context = await ownAppContext(flags, configFile);
  const firstPlan = planWith(context, { headers: {}, params: {} });
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
    check: (run) => checkOwnApp(context, { firstPlan, config }, run),
  };
}

/**
 * @param {NestAppFlags} flags @param {string | null} configFile
 * @returns {Promise<OwnAppContext>}
 */
async function ownAppContext(flags, configFile) {
  const app = {
    ...(flags.main
      ? resolveNestMain(flags.module, flags.setup, flags.cwd ?? null)
      : resolveNestApp(flags.module, flags.setup, flags.cwd ?? null)),
    fastifyOptions: flags.fastifyOptions ?? null,
    strict: flags.strict ?? false,
  };
  const discovered = await discoverRoutes(app);
  // with --strict the first of them stops Fastify's boot, and the check reports it
  const skipped = app.mainFile && !app.strict ? await fastifySkips(app) : [];
  const user =
    configFile === null
      ? { scenarios: [], prepare: null }
      : userScenarios(await readConfigObject(configFile), configFile);
  const traffic = flags.traffic === null ? null : readTraffic(flags.traffic);
  const setup = await loadSetup(app.setupFile, app.cwd);
  const fromSetup = authenticateExport(setup, app.setupFile);
  const { authenticate, source: signInSource } = signInFromFlag(flags.signIn ?? null, discovered, {
    authenticate: fromSetup,
    source: app.setupFile,
  });
  const adapters = {
    ...adapterChoices(setup),
    ...(flags.fastifyOptions ? { fastify: `--fastify-options ${JSON.stringify(flags.fastifyOptions)}` } : {}),
  };
  if (flags.graphqlQueries && !discovered.graphql)
    throw new UsageError(
      `--graphql-queries: ${app.moduleFile} serves no GraphQL (no GraphQLModule from @nestjs/graphql)`,
    );
  const fileOperations = flags.graphqlQueries ? readOperations(flags.graphqlQueries, app.moduleFile) : [];
  const scan = withSkippedCalls(await scanApp(app), skipped);
  const baseDir = configFile === null ? process.cwd() : dirname(configFile);
  return {
    flags,
    app,
    discovered,
    user,
    traffic,
    authenticate,
    signInSource,
    adapters,
    fileOperations,
    scan,
    skipped,
    baseDir,
  };
}

/**
 * What names the signed-in principal, and the ids each route takes from the app's answers.
 * @param {OwnAppContext} context @param {import('./sign-in/authenticate.js').Credentials} signedIn @param {Asked} asked
 */
function idsFor(
  { flags, discovered },
  { headers, params },
  { lists = new Map(), preexisting = new Map(), witness = null, current },
) {
  const flat = { ...params, ...flags.params };
  const principal = principalValues({ headers, params }, witness);
  const claims = tokenClaimValues(headers);
  const timeWrites = flags.timeWrites ?? [];
  const resolved = resolveIds({
    routes: discovered.routes,
    lists,
    preexisting,
    params: flat,
    principal,
    claims,
    timeWrites,
  });
  const ids = keepValuesOthersRead({ ids: resolved, routes: discovered.routes, lists, params: flat, current });
  return { flat, principal, avoid: [...principal.map((p) => p.value), ...claims], ids };
}

/**
 * The plan, from what the sign-in returned and what the app answered.
 * @param {OwnAppContext} context
 * @param {import('./sign-in/authenticate.js').Credentials} signedIn
 * @param {Asked} [asked]
 */
function planWith(context, signedIn, asked = {}) {
  const { flags, discovered, traffic, user, fileOperations, scan } = context;
  const { graphqlLists = new Map(), signInRequests = [], current = new Map(), publicWrites } = asked;
  const { graphql } = discovered;
  const { flat, principal, avoid, ids } = idsFor(context, signedIn, asked);
  const headers = { ...signedIn.headers, ...flags.headers };
  const plan = planOwnApp({
    discovered,
    params: flat,
    traffic,
    trafficFile: flags.traffic,
    configScenarios: user.scenarios,
    bodies: [
      ...flags.bodies,
      ...signInRequests.map((r) => ({ ...r, source: /** @type {const} */ ('authenticate()') })),
    ],
    headers,
    ids,
    principal,
    timeWrites: flags.timeWrites ?? [],
    uploads: uploadsByHandler(scan),
    current,
    signInFields: signInRequests.flatMap((r) => signInFieldNames(r.value)),
    publicWrites,
  });
  if (!graphql) return plan;
  return withGraphql(
    plan,
    planGraphql({
      api: graphql,
      fileOperations,
      params: flat,
      headers,
      logged: graphqlTraffic(traffic, graphql.path),
      lists: graphqlLists,
      avoid,
      signInRequests,
      uploadParser: graphqlUploadParser(scan),
    }),
  );
}

/**
 * @param {OwnAppContext} context @param {import('./launch/packages.js').NestApp} onApp
 * @param {ReturnType<typeof planWith>} plan
 */
function configFor({ user, baseDir, flags }, onApp, plan) {
  const mix = trafficMix(plan.routes);
  return ownAppConfig({
    app: onApp,
    scenarios: [...plan.scenarios, ...(mix ? [mix] : [])],
    prepare: user.prepare,
    baseDir,
    // the sign-in's and the check's servers run the throttler but let its refusals pass: its code is checked on both
    // adapters, and the check's own requests are not refused
    throttle: flags.keepThrottle ? THROTTLE_MODES.keep : THROTTLE_MODES.count,
  });
}

/**
 * What the plan asks the app on Express, signed in: the list answers that give ids, and a witness of the sign-in.
 * @param {OwnAppContext} context
 * @param {import('./sign-in/authenticate.js').AppClient} client @param {import('./sign-in/authenticate.js').Credentials} signedIn
 * @param {(line: string) => void} log
 */
async function askApp(context, client, signedIn, log) {
  const { flags, discovered, authenticate } = context;
  const { graphql } = discovered;
  const headers = { ...signedIn.headers, ...flags.headers };
  const listed = {
    lists: await fetchLists(client, listRequests(discovered.routes, { ...signedIn.params, ...flags.params }), headers),
    graphqlLists: graphql ? await fetchGraphqlLists(client, graphql, headers) : new Map(),
  };
  const proof = authenticate ? await signInProof(context, client, signedIn, listed) : null;
  if (proof?.refused) throw refusedSignInError(String(context.signInSource), signedIn.headers, proof.refused);
  if (proof)
    log(
      proof.accepted
        ? `the sign-in is proved: ${proof.accepted} answered 2xx with it, refused without it`
        : 'no request the plan sends is refused signed out: the sign-in is neither proved nor refused',
    );
  const rest = proof?.accepted?.startsWith('GET ') ? proof.accepted.slice('GET '.length) : null;
  const witness = rest ? await findWitness(client, [rest], headers) : null;
  const created = await withCreated(context, client, signedIn, { ...listed, preexisting: listed.lists, witness }, log);
  const { flat, ids } = idsFor(context, signedIn, created);
  const reading = currentValuesRequests(discovered.routes, (route) => ({ ...ids.get(route)?.params, ...flat }));
  const found = { ...created, preexisting: listed.lists, current: await fetchLists(client, reading, headers) };
  const publicWrites = await askSignedOut(client, planWith(context, signedIn, found).signedOutAsks);
  return { ...found, publicWrites, accepted: proof?.accepted ?? null };
}

/**
 * Whether the app takes the sign-in: the plan's reads and GraphQL queries, each asked signed out and signed in.
 * @param {OwnAppContext} context @param {import('./sign-in/authenticate.js').AppClient} client
 * @param {import('./sign-in/authenticate.js').Credentials} signedIn @param {Asked} listed
 */
function signInProof(context, client, signedIn, listed) {
  const plan = planWith(context, signedIn, listed);
  const reads = plan.routes.flatMap((r) =>
    r.scenario && r.method === 'GET' && !r.graphql && r.request ? [r.request.slice('GET '.length)] : [],
  );
  const queries = plan.routes.flatMap((r) => {
    const scenario = plan.scenarios.find((s) => s.name === r.scenario);
    const body = /** @type {{ query?: unknown } | undefined} */ (scenario?.body);
    if (r.graphql !== 'query' || !r.request || typeof body?.query !== 'string') return [];
    return [{ line: r.request, path: r.path, body, field: r.handler.split(' ').at(-1) ?? '' }];
  });
  const signedOut = { ...context.flags.headers };
  return proveSignIn(client, signInCandidates(reads, queries), {
    signedIn: { ...signedIn.headers, ...signedOut },
    signedOut,
  });
}

/** How much of a create's answer the record keeps: enough for the id it names. */
const KEPT_ANSWER_CHARS = 300;
/** How much of a create's GraphQL errors its log line quotes. */
const MOST_ERROR_CHARS = 120;

/**
 * The lists again, after the plan's create route for each list that held no id a route could take (none, or only the
 * principal's own) was sent once, signed in: PATCH /roles/:id gets a role of its own where the only one listed was
 * the principal's, GET /articles/:slug an article where there was none. Rounds go on while one creates something: a
 * create may need an id that only another create makes (a user its role, an order its user). A create is sent again
 * only with another body: one that lacked such an id (a nullable idRole left out) and has it now. The witness is read
 * again after them: a create may change the principal (project_5's upload sets its image), no write's check did.
 * @param {OwnAppContext} context @param {import('./sign-in/authenticate.js').AppClient} client
 * @param {import('./sign-in/authenticate.js').Credentials} signedIn
 * @param {Asked & { lists: Map<string, unknown>, graphqlLists: Map<string, unknown> }} asked
 * @param {(line: string) => void} log
 */
export async function withCreated(context, client, signedIn, asked, log) {
  const headers = { ...signedIn.headers, ...context.flags.headers };
  let { lists, graphqlLists } = asked;
  const tried = new Set();
  /** @type {import('../model/own-app-record.js').SentForIds[]} */
  const sentForIds = [];
  const sent = new Set();
  const sentAs = (/** @type {{ line: string, scenario: Record<string, unknown> }} */ create) =>
    `${create.line} ${JSON.stringify(create.scenario.body ?? null)}`;
  for (;;) {
    const now = { ...asked, lists, graphqlLists };
    const creates = createsFor(context, signedIn, now, planWith(context, signedIn, now)).filter(
      (create) => !sent.has(sentAs(create)),
    );
    const relist = [];
    /** @type {[string, unknown][]} */
    const made = [];
    let madeOne = false;
    for (const create of creates) {
      const { scenario, list, keep, operation, since, line } = create;
      const again = tried.has(line);
      tried.add(line);
      sent.add(sentAs(create));
      const { method, path, headers: own, body } = /** @type {Record<string, any>} */ (scenario);
      const answer = await client.request(method, path, body, own).catch(() => null);
      const errors = answer === null ? null : graphqlErrors(answer.body);
      const created = answer !== null && answer.status >= 200 && answer.status < 300 && !errors;
      const outcome = created
        ? 'it created one'
        : errors
          ? `it answered GraphQL errors: ${errors.slice(0, MOST_ERROR_CHARS)}`
          : `it answered ${answer?.status ?? 'nothing'}`;
      const sending = again ? 'sent again, with the ids an earlier create made' : 'sent once';
      log(`${line} ${sending}, since ${since}: ${outcome}`);
      // a GraphQL list may answer from a cache: the mutation's own answer names what it created
      if (created && operation) graphqlLists = withCreatedItem(graphqlLists, operation, answer.body);
      if (created && list) relist.push(list);
      if (created && keep) made.push([keep, answer.body]);
      madeOne ||= created;
      if (created)
        sentForIds.push({
          request: line,
          status: answer.status,
          body: JSON.stringify(answer.body ?? null).slice(0, KEPT_ANSWER_CHARS),
        });
    }
    if (!madeOne) break;
    lists = new Map([...lists, ...made, ...(await fetchLists(client, relist, headers))]);
  }
  const witness = asked.witness && (await findWitness(client, [asked.witness.path], headers));
  return { lists, graphqlLists, witness, sentForIds };
}

/**
 * The planned create of each list that lacks ids: a REST list's POST route, a GraphQL list query's create mutation;
 * and the create whose own answer names what a route takes where no GET route lists it (POST /files/upload).
 * @param {OwnAppContext} context @param {import('./sign-in/authenticate.js').Credentials} signedIn
 * @param {Asked & { graphqlLists: Map<string, unknown> }} asked @param {ReturnType<typeof planWith>} plan
 * @returns {{ scenario: Record<string, unknown>, list: string | null, keep: string | null, operation: { list: string,
 *   create: string } | null, since: string, line: string }[]} list: the REST list request to ask again; keep: where
 *   its own answer is kept among the lists; operation: the GraphQL list query and the mutation that adds to it; since:
 *   why it is sent, as the log says
 */
function createsFor(context, signedIn, asked, plan) {
  const { discovered } = context;
  const { flat, avoid, ids } = idsFor(context, signedIn, asked);
  /** @param {import('./routes/app-config.js').RouteEntry | undefined} entry */
  const scenarioOf = (entry) => (entry?.scenario ? plan.scenarios.find((s) => s.name === entry.scenario) : undefined);
  const rest = createRoutes(ids, discovered.routes).flatMap(({ list, create }) => {
    const scenario = scenarioOf(plan.routes.find((r) => !r.graphql && r.method === 'POST' && r.path === create.path));
    const filled = fillPath(list, flat);
    if (!scenario || !('path' in filled)) return [];
    const since = `GET ${filled.path} held no id its routes could take`;
    return [{ scenario, list: filled.path, keep: null, operation: null, since, line: `POST ${create.path}` }];
  });
  const answering = [...new Set([...ids.values()].flatMap((routeIds) => routeIds.creates))].flatMap((create) => {
    const scenario = scenarioOf(plan.routes.find((r) => !r.graphql && r.method === 'POST' && r.path === create.path));
    const filled = fillPath(create, flat);
    if (!scenario || !('path' in filled)) return [];
    const since = 'its answer names what a route takes that no GET route lists';
    return [
      { scenario, list: null, keep: createdKey(filled.path), operation: null, since, line: `POST ${create.path}` },
    ];
  });
  const { graphql } = discovered;
  const mutations = graphql
    ? createMutations(graphql.fields, asked.graphqlLists, avoid).flatMap(({ list, create }) => {
        const handler = `GraphQL mutation ${create}`;
        const scenario = scenarioOf(plan.routes.find((r) => r.graphql === 'mutation' && r.handler === handler));
        const operation = { list, create };
        const since = `the list query ${list} held no id its routes could take`;
        return scenario ? [{ scenario, list: null, keep: null, operation, since, line: handler }] : [];
      })
    : [];
  return [...rest, ...answering, ...mutations];
}

/**
 * @typedef {{ runtime: import('../runtimes/runtimes.js').Runtime, options: import('../run/options.js').Options,
 *   log: (line: string) => void, set?: import('../packages/sets.js').PackageSet }} CheckContext set: --packages,
 *   the set the app runs on in place of its own packages
 */

/**
 * Signs in, asks the app what the plan needs, and checks every planned route on both adapters.
 * @param {OwnAppContext} context
 * @param {{ firstPlan: ReturnType<typeof planWith>, config: import('../model/config.js').Config }} first the plan
 *   and config made before anything was asked of the app
 * @param {CheckContext} run
 */
async function checkOwnApp(context, { firstPlan, config }, { runtime, options, log, set }) {
  const { app, discovered, flags, authenticate, scan, skipped } = context;
  for (const call of skipped)
    log(`Fastify: ${call.call} at ${call.at ?? 'main'} skipped (${call.error}); measured without it`);
  const onApp = set ? onPackageSet(app, set) : app;
  const base = set ? configFor(context, onApp, firstPlan) : config;
  const prepared =
    (await base.prepare?.({
      targets: [EXPRESS_TARGET, FASTIFY_TARGET],
      scenarios: config.scenarios.map((s) => s.name),
      log,
    })) ?? {};
  const asksApp =
    authenticate !== null ||
    Boolean(discovered.graphql) ||
    listRequests(discovered.routes, flags.params).length > 0 ||
    answeredByCreates(discovered.routes);
  const signedIn = await signIn({
    authenticate,
    source: context.signInSource,
    config: base,
    runtime,
    basePort: options.basePort,
    env: prepared.env ?? {},
    log,
    whileSignedIn: asksApp ? (client, credentials) => askApp(context, client, credentials, log) : null,
  });
  const skip = signedIn.record?.refused ? refusedSignInCheck(firstPlan) : null;
  if (skip) return timedConfig(context, { onApp, config, ...skip, prepared, signedIn }, { runtime, options, log });
  const witness = signedIn.found?.witness ?? null;
  const plan = planWith(context, signedIn.credentials, {
    lists: signedIn.found?.lists,
    preexisting: signedIn.found?.preexisting,
    graphqlLists: signedIn.found?.graphqlLists,
    signInRequests: signedIn.requests,
    witness,
    current: signedIn.found?.current,
    publicWrites: signedIn.found?.publicWrites,
  });
  const sentHeaders = { ...signedIn.credentials.headers, ...flags.headers };
  const signInChanged = authenticate || witness ? watchSignIn({ authenticate, headers: sentHeaders, witness }) : null;
  const watchWrite = writeWatcher(plan.routes, {
    current: signedIn.found?.current,
    headers: sentHeaders,
    signInChanged,
  });
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
  return timedConfig(context, { onApp, config, plan, compatibility, prepared, signedIn }, { runtime, options, log });
}

/**
 * What the check leaves to time: the routes that answered alike, each held to Express's answer, with the record the
 * report is rendered from.
 * @param {OwnAppContext} context
 * @param {object} checked
 * @param {import('./launch/packages.js').NestApp} checked.onApp
 * @param {import('../model/config.js').Config} checked.config the first config: its scenarios are the defaults
 * @param {ReturnType<typeof planWith>} checked.plan
 * @param {import('./check/compatibility.js').Compatibility} checked.compatibility
 * @param {import('../model/config.js').Prepared} checked.prepared
 * @param {Awaited<ReturnType<typeof signIn>>} checked.signedIn
 * @param {CheckContext} run
 */
function timedConfig(context, { onApp, config, plan, compatibility, prepared, signedIn }, { runtime, options, log }) {
  const { app, discovered, flags, scan, adapters, baseDir, skipped } = context;
  const kept = new Map(compatibility.routes.filter((r) => r.expect).map((r) => [r.scenario, r.expect]));
  const graphqlRefused = graphqlRefusals(plan.routes, compatibility.routes);
  for (const name of graphqlRefused.keys()) kept.delete(name);
  const routes = checkedRoutes(plan.routes, compatibility, graphqlRefused);
  for (const { lostSignIn, request } of compatibility.routes)
    if (lostSignIn) log(lostSignInReason(lostSignIn, request));
  const finalMix = trafficMix(routes);
  const scenarios = [...heldScenarios(plan, routes, kept), ...(finalMix ? [finalMix] : [])];
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
    sentForIds:
      /** @type {{ sentForIds?: import('../model/own-app-record.js').SentForIds[] }} */ (signedIn?.found ?? {})
        .sentForIds ?? [],
    traffic: plan.traffic,
    mix: finalMix ? TRAFFIC_SCENARIO : null,
    signIn: signedIn?.record
      ? {
          ...signedIn.record,
          accepted: /** @type {{ accepted?: string | null } | null} */ (signedIn.found)?.accepted ?? null,
        }
      : null,
    headers: Object.keys(flags.headers),
    swaggerError: discovered.swaggerError ?? null,
    ...throttleRecord(discovered, scan, flags),
    scan,
    adapters,
    bootFailure: compatibility.startFailure
      ? bootFailure(compatibility.startFailure, `${runtime.name}@${runtime.version}`, scan)
      : null,
  };
  if (scenarios.length === 0) return { config: null, options, record };
  const throttle = flags.keepThrottle ? THROTTLE_MODES.keep : THROTTLE_MODES.lift;
  const checkedConfig = ownAppConfig({ app: onApp, scenarios, prepare: () => prepared, baseDir, throttle });
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
    options: { ...options, scenarios: chosen, curveScenarios, fitLoads: true },
    record,
  };
}
