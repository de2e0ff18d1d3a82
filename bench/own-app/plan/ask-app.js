// @ts-check
// What the plan asks the running app on Express, signed in, in order: the lists that give ids, whether it takes the
// sign-in (and a witness of it), the creates an empty list needs, the current values of what in-place writes change,
// and which held writes are public. Each is a question for settledPlan, which plans again after every answer.
import { refusedSignInError } from '../sign-in/authenticate.js';
import { answeredByCreates, fetchLists, listRequests } from '../routes/id-sources.js';
import { createRoutes, createdKey } from '../routes/created-ids.js';
import { fetchSignedOut } from '../routes/list-answers.js';
import { fillPath } from '../routes/route-match.js';
import { createMutations, withCreatedItem } from '../graphql/graphql-values.js';
import { graphqlErrors } from '../graphql/graphql-answers.js';
import { fetchGraphqlLists } from '../graphql/graphql.js';
import { findWitness, witnessPaths } from '../sign-in/principal.js';
import { askSignedOut } from '../sign-in/principal-writes.js';
import { proveSignIn, signInCandidates } from '../sign-in/sign-in-proof.js';
import { currentValuesRequests } from '../sign-in/same-values.js';
import { idsFor, settledPlan } from './app-plan.js';

/**
 * @typedef {import('./app-context.js').OwnAppContext} OwnAppContext
 * @typedef {import('./app-plan.js').Asked} Asked
 * @typedef {import('./app-plan.js').Plan} Plan
 * @typedef {import('./app-plan.js').Question} Question
 * @typedef {import('../sign-in/authenticate.js').AppClient} AppClient
 * @typedef {import('../sign-in/authenticate.js').Credentials} Credentials
 */

/** How much of a create's answer the record keeps: enough for the id it names. */
const KEPT_ANSWER_CHARS = 300;
/** How much of a create's GraphQL errors its log line quotes. */
const MOST_ERROR_CHARS = 120;

/**
 * Whether the plan has anything to ask the app before the check: a sign-in to prove, GraphQL lists, REST lists, or
 * creates whose answers name ids.
 * @param {OwnAppContext} context
 */
export function asksApp({ authenticate, discovered, flags }) {
  return (
    authenticate !== null ||
    Boolean(discovered.graphql) ||
    listRequests(discovered.routes, flags.params).length > 0 ||
    answeredByCreates(discovered.routes)
  );
}

/**
 * Everything the plan asks the app, signed in, each question asked only where its answer is not known yet.
 * @param {OwnAppContext} context @param {AppClient} client @param {Credentials} signedIn
 * @param {(line: string) => void} log
 * @param {Asked} [known] what is known already
 * @returns {Promise<Asked & { accepted: string | null }>}
 */
export async function askApp(context, client, signedIn, log, known = {}) {
  const headers = { ...signedIn.headers, ...context.flags.headers };
  const questions = [
    listsQuestion(context, client, signedIn, headers),
    proofQuestion(context, client, signedIn, log),
    createsQuestion(context, client, signedIn, log),
    witnessAgainQuestion(client, headers),
    currentValuesQuestion(context, client, signedIn, headers),
    publicWritesQuestion(client),
  ];
  const settled = await settledPlan(context, signedIn, questions, known);
  return { ...settled.known, accepted: settled.known.accepted ?? null };
}

/**
 * The list answers that give ids, REST and GraphQL; as first asked they are also what was there before the run.
 * @param {OwnAppContext} context @param {AppClient} client @param {Credentials} signedIn
 * @param {Record<string, string>} headers
 * @returns {Question}
 */
function listsQuestion({ flags, discovered }, client, signedIn, headers) {
  return {
    async ask(_plan, known) {
      if (known.lists) return null;
      const requests = listRequests(discovered.routes, { ...signedIn.params, ...flags.params });
      // asked signed out too: an id is the principal's own only where the list differs by principal
      const lists = new Map([
        ...(await fetchLists(client, requests, headers)),
        ...(await fetchSignedOut(client, requests)),
      ]);
      const { graphql } = discovered;
      const graphqlLists = graphql ? await fetchGraphqlLists(client, graphql, headers) : new Map();
      // a REST list by its path, a GraphQL list query by its field, which never starts with a slash
      return { lists, preexisting: new Map([...lists, ...graphqlLists]), graphqlLists };
    },
  };
}

/**
 * Whether the app takes the sign-in: the plan's reads and GraphQL queries, each asked signed out and signed in; a read
 * that proves it is the witness, whose answer names the principal. A sign-in the app refuses ends the run's sign-in.
 * @param {OwnAppContext} context @param {AppClient} client @param {Credentials} signedIn
 * @param {(line: string) => void} log
 * @returns {Question}
 */
function proofQuestion(context, client, signedIn, log) {
  return {
    async ask(plan, known) {
      if (!context.authenticate || known.accepted !== undefined) return null;
      const proof = await signInProof(context, client, signedIn, plan);
      if (proof.refused) throw refusedSignInError(String(context.signInSource), signedIn.headers, proof.refused);
      log(
        proof.accepted
          ? `the sign-in is proved: ${proof.accepted} answered 2xx with it, refused without it`
          : 'no request the plan sends is refused signed out: the sign-in is neither proved nor refused',
      );
      const rest = proof.accepted?.startsWith('GET ') ? proof.accepted.slice('GET '.length) : null;
      const headers = { ...signedIn.headers, ...context.flags.headers };
      const witness = rest ? await findWitness(client, witnessPaths(rest, planReads(plan)), headers) : null;
      return { accepted: proof.accepted ?? null, witness };
    },
  };
}

/** The paths of the REST reads the plan sends, parameters filled. @param {Plan} plan */
function planReads(plan) {
  return plan.routes.flatMap((r) =>
    r.scenario && r.method === 'GET' && !r.graphql && r.request ? [r.request.slice('GET '.length)] : [],
  );
}

/**
 * @param {OwnAppContext} context @param {AppClient} client @param {Credentials} signedIn @param {Plan} plan
 */
function signInProof(context, client, signedIn, plan) {
  const reads = planReads(plan);
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

/**
 * The plan's create route for each list that held no id a route could take (none, or only the principal's own), sent
 * once, signed in, and the lists asked again: PATCH /roles/:id gets a role of its own where the only one listed was the
 * principal's, GET /articles/:slug an article where there was none. Asked again while a round creates something: a
 * create may need an id that only another create makes (a user its role, an order its user). A create is sent again
 * only with another body: one that lacked such an id (a nullable idRole left out) and has it now.
 * @param {OwnAppContext} context @param {AppClient} client @param {Credentials} signedIn
 * @param {(line: string) => void} log
 * @returns {Question}
 */
function createsQuestion(context, client, signedIn, log) {
  const headers = { ...signedIn.headers, ...context.flags.headers };
  const tried = new Set();
  const sent = new Set();
  const sentAs = (/** @type {{ line: string, scenario: Record<string, unknown> }} */ create) =>
    `${create.line} ${JSON.stringify(create.scenario.body ?? null)}`;
  return {
    again: true,
    async ask(plan, known) {
      let { lists = new Map(), graphqlLists = new Map() } = known;
      const creates = createsFor(context, signedIn, known, plan).filter((create) => !sent.has(sentAs(create)));
      const relist = [];
      /** @type {[string, unknown][]} */
      const made = [];
      /** @type {import('../../model/own-app-record.js').SentForIds[]} */
      const sentForIds = [];
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
        if (!created) continue;
        // a GraphQL list may answer from a cache: the mutation's own answer names what it created
        if (operation) graphqlLists = withCreatedItem(graphqlLists, operation, answer.body);
        if (list) relist.push(list);
        if (keep) made.push([keep, answer.body]);
        const kept = JSON.stringify(answer.body ?? null).slice(0, KEPT_ANSWER_CHARS);
        sentForIds.push({ request: line, status: answer.status, body: kept });
      }
      if (sentForIds.length === 0) return null;
      return {
        lists: new Map([...lists, ...made, ...(await fetchLists(client, relist, headers))]),
        graphqlLists,
        sentForIds: [...(known.sentForIds ?? []), ...sentForIds],
      };
    },
  };
}

/**
 * The planned create of each list that lacks ids: a REST list's POST route, a GraphQL list query's create mutation;
 * and the create whose own answer names what a route takes where no GET route lists it (POST /files/upload).
 * @param {OwnAppContext} context @param {Credentials} signedIn @param {Asked} asked @param {Plan} plan
 * @returns {{ scenario: Record<string, unknown>, list: string | null, keep: string | null, operation: { list: string,
 *   create: string } | null, since: string, line: string }[]} list: the REST list request to ask again; keep: where
 *   its own answer is kept among the lists (createdRow); operation: the GraphQL list query and the mutation that adds to it; since:
 *   why it is sent, as the log says
 */
function createsFor(context, signedIn, asked, plan) {
  const { discovered } = context;
  const { flat, principal, claims, ids } = idsFor(context, signedIn, asked);
  /** @param {import('../routes/app-config.js').RouteEntry | undefined} entry */
  const scenarioOf = (entry) => (entry?.scenario ? plan.scenarios.find((s) => s.name === entry.scenario) : undefined);
  const rest = createRoutes(ids, discovered.routes).flatMap(({ list, create }) => {
    const scenario = scenarioOf(plan.routes.find((r) => !r.graphql && r.method === 'POST' && r.path === create.path));
    const filled = fillPath(list, flat);
    const made = fillPath(create, flat);
    if (!scenario || !('path' in filled) || !('path' in made)) return [];
    const since = `GET ${filled.path} held no id its routes could take`;
    // its own answer is kept too: a list that does not show the row (active users only) still gives the writes its id
    const keep = createdKey(made.path);
    return [{ scenario, list: filled.path, keep, operation: null, since, line: `POST ${create.path}` }];
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
    ? createMutations(graphql.fields, asked.graphqlLists ?? new Map(), {
        principal,
        claims,
        preexisting: asked.preexisting,
      }).flatMap(({ list, create }) => {
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
 * The sign-in's witness read again after the creates: a create may change the principal (project_5's upload sets its
 * image), no write's check did.
 * @param {AppClient} client @param {Record<string, string>} headers
 * @returns {Question}
 */
function witnessAgainQuestion(client, headers) {
  let read = false;
  return {
    async ask(_plan, { witness }) {
      if (read || !witness) return null;
      read = true;
      const paths = witnessPaths(
        witness.path,
        (witness.others ?? []).map((read) => read.path),
      );
      return { witness: await findWitness(client, paths, headers) };
    },
  };
}

/**
 * The GET answers of what in-place writes change, at the ids the plan gives them: a write is sent its current values.
 * @param {OwnAppContext} context @param {AppClient} client @param {Credentials} signedIn
 * @param {Record<string, string>} headers
 * @returns {Question}
 */
function currentValuesQuestion(context, client, signedIn, headers) {
  return {
    async ask(_plan, known) {
      if (known.current) return null;
      const { flat, ids } = idsFor(context, signedIn, known);
      const reading = currentValuesRequests(context.discovered.routes, (route) => ({
        ...ids.get(route)?.params,
        ...flat,
      }));
      return { current: await fetchLists(client, reading, headers) };
    },
  };
}

/**
 * Which of the writes held for the principal's change answer 2xx signed out: public, they name no account.
 * @param {AppClient} client
 * @returns {Question}
 */
function publicWritesQuestion(client) {
  return {
    async ask(plan, known) {
      return known.publicWrites ? null : { publicWrites: await askSignedOut(client, plan.signedOutAsks) };
    },
  };
}
