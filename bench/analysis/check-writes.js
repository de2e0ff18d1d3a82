// @ts-check
// Writes are state, and the bench's own are the user's to clean up: each create it sent for an id, and each write its
// check sent before timing (each request and write probe), that the app answered 2xx, with the id its answer names
// where it names one, so no row it made goes unsaid.

/**
 * One write the check sent that the app took.
 * @typedef {object} CheckWrite
 * @property {string} request e.g. POST /api/orders
 * @property {string} adapter express or fastify; express, for an id: a create sent before the check
 * @property {number} status
 * @property {string | null} id what its answer names: `"id":5`, `"_id":"…"`; null when its start names none
 */

const WRITE_METHOD = /^(POST|PUT|PATCH|DELETE) /;
/** An id field where a string starts in an answer's body (the start of it the check keeps). */
const ID_FIELD = /"(id|_id|uuid)"\s*:\s*("[^"]*"|\d+)/y;
/** A GraphQL operation's route, as the plan names it: `GraphQL mutation addTask`. */
const GRAPHQL_OPERATION = /^GraphQL (query|mutation|subscription) (\S+)$/;

/**
 * The creates sent for ids (on Express, before the check), then the check's writes.
 * @param {Pick<import('../model/own-app-record.js').OwnAppRecord, 'compatibility' | 'sentForIds'> &
 *   Partial<Pick<import('../model/own-app-record.js').OwnAppRecord, 'routes'>>} record routes: what names a GraphQL
 *   operation's scenario
 * @returns {CheckWrite[]}
 */
export function checkWrites({ compatibility, sentForIds = [], routes = [] }) {
  const forIds = sentForIds.map(({ request, status, body }) => ({
    request,
    adapter: 'express, for an id',
    status,
    id: answeredId(body),
  }));
  const operations = new Map(
    routes.flatMap(({ scenario, checked, handler }) => {
      const operation = GRAPHQL_OPERATION.exec(handler);
      const name = scenario ?? checked;
      return name && operation ? [[name, { kind: operation[1], field: operation[2] }]] : [];
    }),
  );
  return [...forIds, ...checkedWrites(compatibility, operations)];
}

/**
 * The id field nearest the answer's top: the row the write made, not one it points to (`{"school":{"id":1},"id":446}`
 * made 446); the first at that depth. The body may be cut short, so it is scanned, not parsed.
 * @param {string} body the start of an answer @returns {string | null}
 */
function answeredId(body) {
  let nearest = null;
  let depth = 0;
  let inString = false;
  for (let at = 0; at < body.length; at++) {
    const char = body[at];
    if (inString) {
      if (char === '\\') at++;
      else if (char === '"') inString = false;
    } else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') depth--;
    else if (char === '"') {
      ID_FIELD.lastIndex = at;
      const field = ID_FIELD.exec(body);
      if (field && (!nearest || depth < nearest.depth)) nearest = { depth, id: `${field[1]} ${field[2]}` };
      inString = true;
    }
  }
  return nearest?.id ?? null;
}

/**
 * Each answer the app took of each write the check sent: every one it kept (written: Express asked again, the write
 * probes), or in results written before it kept them, the first on each adapter. A GraphQL query is a read sent as a
 * POST, never a write; a mutation is named beside the path all of them share.
 * @param {import('../model/own-app-record.js').Compatibility} compatibility
 * @param {Map<string, { kind: string, field: string }>} operations each GraphQL operation's kind and field, by scenario
 * @returns {CheckWrite[]}
 */
function checkedWrites(compatibility, operations) {
  return compatibility.routes.flatMap(({ scenario, request, express, fastify, written }) => {
    const operation = operations.get(scenario);
    if (!WRITE_METHOD.test(request) || (operation && operation.kind !== 'mutation')) return [];
    const named = (/** @type {string} */ sent) => (operation ? `${sent} (mutation ${operation.field})` : sent);
    const answers = written ?? [
      { request, adapter: 'express', ...express },
      { request, adapter: 'fastify', ...fastify },
    ];
    return answers.flatMap(({ request: sent, adapter, status, body }) => {
      if (status === null || status < 200 || status >= 300) return [];
      return [{ request: named(sent), adapter, status, id: body ? answeredId(body) : null }];
    });
  });
}
