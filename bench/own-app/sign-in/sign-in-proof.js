// @ts-check
// Whether the app takes the sign-in's credential, shown where it works: any request that answers otherwise signed out
// (a 401 or 403, GraphQL errors, a 404 that hides what is not yours, a 500 from a handler reading the absent user) and
// 2xx signed in proves it. It is refused only when none does, and then every request tried is named.
import { graphqlErrors } from '../graphql/graphql-answers.js';

/**
 * A request that may need the sign-in: a REST read, or a GraphQL query.
 * @typedef {{ line: string, method: string, path: string, body?: unknown }} SignInCandidate line: as the report
 *   names it, `GET /api/me`, `POST /graphql query me`
 *
 * @typedef {object} SignInProof
 * @property {string | null} accepted the request that answered 2xx signed in and was refused signed out; null when
 *   none was refused signed out, so nothing could prove or refuse it
 * @property {SignInRefusal | null} refused every request refused signed out refused the credential too
 *
 * What the app answered where it refused the credential: the first request, and every one tried.
 * @typedef {{ path: string, status: number, body: unknown, tried: string[] }} SignInRefusal
 */

/** Paths and query fields whose name says they answer who is signed in: tried first. */
const SELF_READ = /(\/|^)(me|self|whoami|profile|account|session|current[-_]?user|viewer)$/i;
const OWN_FIELD = /^(me|my[A-Z_]|whoami|viewer|profile|currentUser)/;

/**
 * The requests that may prove a sign-in, best first: reads of who is signed in, then other reads, then GraphQL queries.
 * @param {string[]} reads GET paths the plan can send, parameters filled
 * @param {{ line: string, path: string, body: unknown, field: string }[]} queries the plan's GraphQL queries
 * @returns {SignInCandidate[]}
 */
export function signInCandidates(reads, queries) {
  const rest = [...reads.filter((p) => SELF_READ.test(p)), ...reads.filter((p) => !SELF_READ.test(p))];
  const own = (/** @type {{ field: string }} */ q) => OWN_FIELD.test(q.field) || SELF_READ.test(q.field);
  return [
    ...rest.map((path) => ({ line: `GET ${path}`, method: 'GET', path })),
    ...[...queries.filter(own), ...queries.filter((q) => !own(q))].map(({ line, path, body }) => ({
      line,
      method: 'POST',
      path,
      body,
    })),
  ];
}

/**
 * One candidate's answer: ok, a 2xx without GraphQL errors; refused, a 401 or 403 or GraphQL errors (said: what).
 * @param {import('./authenticate.js').AppClient} client @param {SignInCandidate} candidate
 * @param {Record<string, string>} headers
 */
async function ask(client, candidate, headers) {
  const answer = await client
    .request(candidate.method, candidate.path, candidate.body, headers)
    .catch(() => ({ status: 0, headers: {}, body: null }));
  const errors = candidate.body === undefined ? null : graphqlErrors(answer.body);
  const ok = answer.status >= 200 && answer.status < 300 && errors === null;
  const refused = answer.status === 401 || answer.status === 403 || (errors !== null && answer.status < 500);
  return { ...answer, ok, refused, said: `${answer.status}${errors ? ` ${errors}` : ''}` };
}

/**
 * The first candidate that answers otherwise signed out (not a 2xx) and 2xx signed in, or why the credential is
 * refused: each candidate refused signed out (a 401 or 403, GraphQL errors) answered alike with it. A 403 with it where
 * 401 without, or other errors, knows who asks: the account may lack a role there, the credential is not refused. A
 * request that fails alike both ways (a 404, a 400) says nothing of the credential.
 * @param {import('./authenticate.js').AppClient} client @param {SignInCandidate[]} candidates
 * @param {{ signedIn: Record<string, string>, signedOut: Record<string, string> }} headers signedOut: without the
 *   sign-in's own headers (a --header key stays)
 * @returns {Promise<SignInProof>}
 */
export async function proveSignIn(client, candidates, { signedIn, signedOut }) {
  /** @type {{ candidate: SignInCandidate, status: number, body: unknown }[]} */
  const refusedAlike = [];
  let knowsWho = false;
  for (const candidate of candidates) {
    const anonymous = await ask(client, candidate, signedOut);
    if (anonymous.ok) continue;
    const answer = await ask(client, candidate, signedIn);
    if (answer.ok) return { accepted: candidate.line, refused: null };
    if (!anonymous.refused) continue;
    if (answer.said === anonymous.said) refusedAlike.push({ candidate, status: answer.status, body: answer.body });
    else knowsWho = true;
  }
  if (knowsWho || refusedAlike.length === 0) return { accepted: null, refused: null };
  const [first] = refusedAlike;
  const tried = refusedAlike.map(({ candidate }) => candidate.line);
  return { accepted: null, refused: { path: first.candidate.line, status: first.status, body: first.body, tried } };
}

/**
 * The way of sending a credential (a Bearer header, a cookie) that a candidate answering otherwise signed out answers
 * 2xx with: the way the app takes it, where a sign-in answers both a token and cookies. Null where no candidate tells.
 * @param {import('./authenticate.js').AppClient} client @param {SignInCandidate[]} candidates
 * @param {Record<string, string>[]} ways @param {Record<string, string>} signedOut
 * @returns {Promise<Record<string, string> | null>}
 */
export async function acceptedWay(client, candidates, ways, signedOut) {
  for (const candidate of candidates) {
    if ((await ask(client, candidate, signedOut)).ok) continue;
    for (const way of ways) if ((await ask(client, candidate, { ...signedOut, ...way })).ok) return way;
  }
  return null;
}
