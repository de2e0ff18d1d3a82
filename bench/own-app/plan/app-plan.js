// @ts-check
// The plan of the user's app: each route's request from the ids and values the app answered, and the one loop that asks
// the app what a plan lacks and plans again until nothing new comes back (settledPlan).
import { ownAppConfig, planOwnApp, trafficMix } from '../routes/app-config.js';
import { resolveIds } from '../routes/id-sources.js';
import { planGraphql, graphqlTraffic, withGraphql } from '../graphql/graphql.js';
import { principalValues, tokenClaimValues } from '../sign-in/principal-values.js';
import { keepValuesOthersRead, signInFieldNames } from '../sign-in/same-values.js';
import { THROTTLE_MODES } from '../launch/throttle.js';
import { graphqlUploadParser, uploadsByHandler } from '../bodies/upload-form.js';

/**
 * @typedef {import('./app-context.js').OwnAppContext} OwnAppContext
 * @typedef {import('../sign-in/authenticate.js').Credentials} Credentials
 * @typedef {ReturnType<typeof planWith>} Plan
 */

/**
 * What the plan was given from the app, signed in.
 * @typedef {object} Asked
 * @property {Map<string, unknown>} [lists] list answers the app gave (id-sources.js)
 * @property {Map<string, unknown>} [preexisting] the list answers as first asked, before the bench created anything:
 *   a write never takes a row they hold (id-sources.js)
 * @property {Map<string, unknown>} [graphqlLists] the GraphQL list queries' answers, by field (graphql.js)
 * @property {import('../sign-in/authenticate.js').SignInRequest[]} [signInRequests] what authenticate() sent: the sign-in
 *   route's body where --body gives none
 * @property {import('../sign-in/principal.js').SignInWitness | null} [witness] a /me's answer names the principal's ids
 * @property {Map<string, unknown>} [current] the GET answers of what in-place writes change, by request path
 *   (same-values.js)
 * @property {Set<string>} [publicWrites] writes held for the principal's change that answered 2xx signed out
 *   (principal.js askSignedOut)
 * @property {string | null} [accepted] the request that proved the sign-in: it answered 2xx with it, refused without
 * @property {import('../../model/own-app-record.js').SentForIds[]} [sentForIds] the creates sent for ids, each with
 *   the answer that named it
 */

/**
 * What names the signed-in principal, and the ids each route takes from the app's answers.
 * @param {OwnAppContext} context @param {Credentials} signedIn @param {Asked} asked
 */
export function idsFor(
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
  return { flat, principal, claims, ids };
}

/**
 * The plan, from what the sign-in returned and what the app answered.
 * @param {OwnAppContext} context
 * @param {Credentials} signedIn
 * @param {Asked} [asked]
 */
export function planWith(context, signedIn, asked = {}) {
  const { flags, discovered, traffic, user, fileOperations, scan } = context;
  const { graphqlLists = new Map(), signInRequests = [], current = new Map(), publicWrites } = asked;
  const { graphql } = discovered;
  const { flat, principal, claims, ids } = idsFor(context, signedIn, asked);
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
      guard: { principal, claims, preexisting: asked.preexisting },
      signInRequests,
      uploadParser: graphqlUploadParser(scan),
    }),
  );
}

/**
 * @param {OwnAppContext} context @param {import('../launch/packages.js').NestApp} onApp
 * @param {Plan} plan
 */
export function configFor({ user, baseDir, flags }, onApp, plan) {
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
 * One thing a plan asks the app: what it answered, to plan with, or null when there is nothing (more) to ask.
 * @typedef {object} Question
 * @property {(plan: Plan, known: Asked) => Promise<Asked | null>} ask
 * @property {boolean} [again] asked again after each answer, with the plan made from it, until it brings nothing
 */

/**
 * Plans from what is known, asks each question in turn and plans again after every answer: the plan every question
 * sees is made from everything answered before it.
 * @param {OwnAppContext} context @param {Credentials} signedIn
 * @param {Question[]} questions in the order they are asked
 * @param {Asked} [known] what was known before the first
 * @returns {Promise<{ plan: Plan, known: Asked }>}
 */
export async function settledPlan(context, signedIn, questions, known = {}) {
  let plan = planWith(context, signedIn, known);
  for (const { ask, again } of questions)
    for (let found = await ask(plan, known); found; found = again ? await ask(plan, known) : null) {
      known = { ...known, ...found };
      plan = planWith(context, signedIn, known);
    }
  return { plan, known };
}
