// @ts-check
// What a GraphQL answer says: its `errors`, read from the answer as sent or from the start of it the report keeps, and
// the operations whose check answered errors on both adapters, which are listed with them and not timed.
import { QUERIES_FLAG } from './graphql-values.js';

/** What ends a body the report cut short. */
const CUT_MARK = '…';
/** How much of a cut answer's errors is quoted when no message survived the cut. */
const MOST_CUT_CHARS = 120;

/**
 * What a GraphQL answer's `errors` say, or null when it has none. An answer with errors is a refusal whatever its
 * status: a resolver that threw, a variable of the wrong type, a sign-in the app did not accept.
 * @param {unknown} body the answer's body, parsed or as text
 * @returns {string | null}
 */
export function graphqlErrors(body) {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      return cutShortErrors(body);
    }
  }
  const errors = /** @type {{ errors?: unknown }} */ (value ?? {}).errors;
  if (!Array.isArray(errors) || errors.length === 0) return null;
  return errors
    .map((e) => (e && typeof e === 'object' && 'message' in e ? String(e.message) : JSON.stringify(e)))
    .join('; ');
}

/**
 * The errors of an answer the report kept only the start of (compatibility.js keeps 300 characters): the messages
 * that start holds, or the one it cuts. Apollo's errors can outgrow it (a failed INSERT with its SQL), and the
 * operation was then timed as if it had answered.
 * @param {string} text
 */
function cutShortErrors(text) {
  if (!text.endsWith(CUT_MARK)) return null;
  const errors = text.indexOf('"errors":[');
  if (errors === -1) return null;
  const messages = [...text.slice(errors).matchAll(/"message":"((?:[^"\\]|\\.)*)("|…$)/g)].map(
    ([, message, end]) => `${message.replace(/\\(.)/g, '$1')}${end === '"' ? '' : CUT_MARK}`,
  );
  return messages.length ? messages.join('; ') : `(cut short) ${text.slice(errors, errors + MOST_CUT_CHARS)}`;
}

/**
 * A GraphQL scenario's body check while writes are timed (when its exact answer is not held): no `errors`.
 * @param {string} body
 */
export function withoutErrors(body) {
  const errors = graphqlErrors(body);
  return errors === null ? null : `answered GraphQL errors: ${errors.slice(0, 120)}`;
}

/**
 * The GraphQL operations that answered alike on both adapters, but with `errors`, with a success status or a refusal
 * (a resolver that threw answers 500 on Apollo 4 and later): each with its line for the table, which quotes the errors,
 * not the server's log.
 * @param {import('../routes/app-config.js').RouteEntry[]} routes @param {import('../check/compatibility.js').RouteCompatibility[]} checked
 * @returns {Map<string, string>} by scenario
 */
export function graphqlRefusals(routes, checked) {
  const operations = new Set(routes.filter((r) => r.graphql && r.scenario).map((r) => r.scenario));
  return new Map(
    checked.flatMap((r) => {
      if (!operations.has(r.scenario)) return [];
      const status = r.express.status ?? 0;
      const refused = !r.expect && r.difference === null && status >= 400;
      const errors = r.expect || refused ? graphqlErrors(r.expect?.body ?? r.express.body) : null;
      const answered = refused ? `${status} with GraphQL errors` : 'GraphQL errors';
      if (errors)
        return [
          [
            r.scenario,
            `answers ${answered} on both adapters: ${errors}; give its variables with --params, or the operation in ${QUERIES_FLAG} FILE`,
          ],
        ];
      // answers that vary are not compared, but errors on Fastify alone would fail every timed request there
      const later = r.expect && r.bodyVaries ? graphqlErrors(r.fastify.body) : null;
      return later
        ? [
            [
              r.scenario,
              `answered without GraphQL errors on Express, then with them on Fastify, asked second: ${later}; a write that succeeds once (a unique key it sets) or a difference on Fastify: give it in ${QUERIES_FLAG} FILE with values that repeat to tell`,
            ],
          ]
        : [];
    }),
  );
}
