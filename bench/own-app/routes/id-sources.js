// @ts-check
// Ids that name existing entities, taken from the app itself. A path parameter (`/users/:id`) or a body field that
// names an entity (`role: { id }`, `roleId`, an @IsUUID field) cannot be made up: the app answers 404, 400 or 500 for
// an id it does not hold. Its value comes from --params, authenticate()'s params, or a list route's answer (GET
// /roles answers the ids of the roles there are); the plan puts it in place, and says which it could not fill.
import pluralize from 'pluralize';
import { parameterNames, fillPath } from './route-match.js';
import { principalValuesFor } from '../sign-in/principal-values.js';
import { TIME_WRITE_FLAG } from '../sign-in/principal-writes.js';
import { createRouteFor, createdKey, createdRow, valueFromCreated } from './created-ids.js';
import { listedValues, principalOwn, signedOutKey, valueFromList } from './list-answers.js';

// graphql/ and sign-in/ take these from here until they import list-answers.js
export { listItems, valueFromList } from './list-answers.js';

/**
 * A path parameter or body field that names an existing entity.
 * @typedef {object} EntityReference
 * @property {'param' | 'field'} kind
 * @property {string} name a parameter's name, or a field's path: `role.id`, `roleId`, `tags[].id`
 * @property {string} entity what it names, singular: role, user
 * @property {string[]} keys the list item's fields that hold the value, best first
 * @property {string | null} collection a parameter's collection as registered: the path before it
 * @property {boolean} many the field holds a list of ids
 * @property {string | null} optional a field the DTO lets the body leave out: the path of the property to leave out
 * @property {true} [acts] a field naming the row the route acts on (a reset's e-mail sets that account's password):
 *   held as a write's path parameter is, to a row the bench made
 *
 * What a route gets from the app: values by parameter and by field path, and the references left without one.
 * @typedef {object} RouteIds
 * @property {Record<string, string>} params
 * @property {Record<string, unknown>} fields
 * @property {string[]} unfilled each reference left without a value, with the flags that would give one
 * @property {string[]} omit optional fields no value was found for, left out of the body
 * @property {Route[]} lacking the list routes that answered, but with no value this route could take: the create route
 *   of each can make one (createRoutes)
 * @property {Route[]} creates the routes whose answer names what a parameter takes where no GET route lists it, not yet
 *   asked (createRouteFor)
 */

const ID_FIELD = /^(.+?)[-_]?(id|uuid)(s)?$/i;
/** A path that asks something of an existing account (forgot-password, a reset): its body's e-mail must name one. */
const EXISTING_ACCOUNT_PATH = /forgot|reset|recover|resend/i;
const ACCOUNT_EMAIL = /^e-?mail$/i;
const ID_LIKE = /(^|[-_a-z])(id|uuid)$/i;

/** @typedef {import('../bodies/body-schema.js').BodySchema} BodySchema */
/** @typedef {import('./discover.js').Route} Route */
/** @typedef {import('../sign-in/principal-values.js').PrincipalValue} PrincipalValue */

/**
 * @param {Route} route
 * @returns {EntityReference[]}
 */
export function entityReferences(route) {
  const segments = route.path.split('/');
  const params = parameterNames(route.path).map((name) => {
    const at = segments.findIndex((segment) => segment.replace(/^[:*]/, '') === name);
    const before = segments.slice(0, Math.max(at, 0));
    const owner = before.filter((s) => s && !s.startsWith(':')).at(-1) ?? name;
    return /** @type {EntityReference} */ ({
      kind: 'param',
      name,
      entity: singular(owner),
      keys: ID_LIKE.test(name) ? [name, 'id', '_id', 'uuid'] : [name],
      collection: before.join('/') || '/',
      many: false,
      optional: null,
    });
  });
  const own = singular(segments.filter((s) => s && !s.startsWith(':')).at(-1) ?? 'item');
  const context = { own, existingAccount: EXISTING_ACCOUNT_PATH.test(route.path) };
  return [...params, ...(route.body ? fieldReferences(route.body.schema, [], context) : [])];
}

/**
 * @param {BodySchema} schema @param {string[]} at the field path so far
 * @param {{ own: string, existingAccount: boolean }} route its entity; whether its e-mail names an existing account
 * @param {string | null} [optionalAt] the optional property this schema lies under, if any
 * @returns {EntityReference[]}
 */
function fieldReferences(schema, at, route, optionalAt = null) {
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const path = [...at, name];
    const optional = optionalAt ?? (schema.required?.includes(name) ? null : path.join('.'));
    const many = property.type === 'array';
    const inner = many ? (property.items ?? {}) : property;
    const field = (/** @type {string} */ entity, /** @type {string} */ dotted, keys = ['id', '_id', 'uuid']) => ({
      kind: /** @type {const} */ ('field'),
      name: dotted,
      entity: singular(entity),
      keys,
      collection: null,
      many,
      optional,
    });
    if (inner.properties?.id) return [field(many ? singular(name) : name, `${path.join('.')}${many ? '[]' : ''}.id`)];
    if (inner.properties)
      return fieldReferences(inner, many ? [...path.slice(0, -1), `${name}[]`] : path, route, optional);
    if (route.existingAccount && ACCOUNT_EMAIL.test(name) && inner.type === 'string')
      return [{ ...field('user', path.join('.'), [name, 'email']), acts: /** @type {const} */ (true) }];
    const { own } = route;
    const named = ID_FIELD.exec(name);
    if (name === 'id' && at.length === 0) return [field(own, 'id')];
    if (named && named[1].length > 1) return [field(named[1], path.join('.'))];
    if (inner.format === 'uuid') return [field(name, path.join('.'))];
    return [];
  });
}

/** @param {string} word `roles`, `userRoles`, `user-roles` → role, userRole, user-role */
function singular(word) {
  return pluralize.singular(word);
}

/**
 * The names a list route of an entity may have as its last segment: roles, user-roles, userRoles, user_roles.
 * @param {string} entity
 */
function listNames(entity) {
  const words = entity
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .map((w) => w.toLowerCase());
  const plural = [...words.slice(0, -1), pluralize.plural(words.at(-1) ?? '')];
  return new Set([
    plural.join('-'),
    plural.join('_'),
    plural.join(''),
    plural.map((w, i) => (i ? w[0].toUpperCase() + w.slice(1) : w)).join(''),
    words.join('-'),
  ]);
}

/**
 * The GET routes whose answers may list a reference's entities, best first: for a parameter, its collection; then GETs
 * without parameters named for the entity, singular or plural (`GET /products/:id` beside `GET /product`), the nearest
 * the route's own path first. Each is asked, and the first whose answer holds a value gives it.
 * @param {EntityReference} reference @param {Route} route the route that needs it @param {Route[]} routes
 * @returns {Route[]}
 */
export function listRoutesFor(reference, route, routes) {
  const gets = routes.filter((r) => r.method === 'GET');
  const collection = reference.kind === 'param' ? gets.filter((r) => r.path === reference.collection) : [];
  const names = listNames(reference.entity);
  const named = gets.filter(
    (r) =>
      !collection.includes(r) &&
      parameterNames(r.path).length === 0 &&
      names.has(r.path.split('/').filter(Boolean).at(-1) ?? ''),
  );
  const shared = (/** @type {Route} */ r) => commonPrefix(r.path, route.path);
  return [...collection, ...named.sort((a, b) => shared(b) - shared(a))];
}

/**
 * The GET route whose answer lists a reference's entities: the first of listRoutesFor.
 * @param {EntityReference} reference @param {Route} route the route that needs it @param {Route[]} routes
 * @returns {Route | null}
 */
export function listRouteFor(reference, route, routes) {
  return listRoutesFor(reference, route, routes)[0] ?? null;
}

/** @param {string} a @param {string} b the number of leading segments they share */
function commonPrefix(a, b) {
  const x = a.split('/');
  const y = b.split('/');
  let n = 0;
  while (n < x.length && x[n] === y[n]) n++;
  return n;
}

/**
 * Whether some route's parameter takes its value from what a create answers (createRouteFor).
 * @param {Route[]} routes
 */
export function answeredByCreates(routes) {
  return routes.some((route) =>
    entityReferences(route).some(
      (reference) => !listRouteFor(reference, route, routes) && createRouteFor(reference, routes),
    ),
  );
}

/**
 * The list requests the plan needs answered: each list route once, its own parameters filled from the flat params.
 * @param {Route[]} routes @param {Record<string, string>} params --params and authenticate()'s
 * @returns {string[]}
 */
export function listRequests(routes, params) {
  const paths = new Set();
  for (const route of routes)
    for (const reference of entityReferences(route)) {
      if (reference.kind === 'param' && params[reference.name] !== undefined) continue;
      for (const list of listRoutesFor(reference, route, routes)) {
        const filled = fillPath(list, params);
        if ('path' in filled) paths.add(filled.path);
      }
    }
  return [...paths];
}

/**
 * Each route's values from the app: a flat param given under a field's path (`role.id`) or its camel form (`roleId`)
 * fills that field; a list answer fills the rest. Parameters the flat params already fill are left to them.
 * @param {object} input
 * @param {Route[]} input.routes
 * @param {Map<string, unknown>} input.lists answers by list request (listRequests)
 * @param {Record<string, string>} input.params --params and authenticate()'s
 * @param {PrincipalValue[]} [input.principal] what names the signed-in principal (principal.js): taken last
 * @param {string[]} [input.claims] every value the sign-in's token carries: the path of a write never names one
 * @param {string[]} [input.timeWrites] --time-write: writes whose path may name the principal's own
 * @param {Map<string, unknown>} [input.preexisting] the list answers as first asked, before the bench created
 *   anything: a write's path never names a row they hold, the user's data (it takes one the bench made)
 * @returns {Map<Route, RouteIds>}
 */
export function resolveIds({
  routes,
  lists,
  params,
  principal = [],
  claims = [],
  timeWrites = [],
  preexisting = new Map(),
}) {
  return new Map(
    routes.map((route) => {
      /** @type {RouteIds} */
      const ids = { params: {}, fields: {}, unfilled: [], omit: [], lacking: [], creates: [] };
      for (const reference of entityReferences(route)) {
        const given = reference.kind === 'field' ? (params[reference.name] ?? params[camel(reference.name)]) : null;
        if (reference.kind === 'param' && params[reference.name] !== undefined) continue;
        const candidates = listRoutesFor(reference, route, routes);
        const create = candidates.length ? null : createRouteFor(reference, routes);
        if (create && given === null) {
          const made = fillPath(create, params);
          const answer = 'path' in made ? lists.get(createdKey(made.path)) : undefined;
          const value =
            answer === undefined ? null : valueFromCreated(answer, reference.keys, String(reference.collection));
          if (answer === undefined && 'path' in made) ids.creates.push(create);
          if (value !== null) ids.params[reference.name] = String(value);
          else ids.unfilled.push(unfilledLine(reference, route, { list: null, answer, principal, create }));
          continue;
        }
        // a write's path names what it changes: the role or tenant the token carries would change the sign-in
        const target =
          (reference.kind === 'param' || reference.acts === true) &&
          route.method !== 'GET' &&
          !timeWrites.includes(`${route.method} ${route.path}`);
        const asked = { lists, params, principal, claims: target ? claims : [], preexisting, strict: target, routes };
        const { list, answer, before, untold, signedOut, created, ...found } = fromLists(reference, candidates, asked);
        const value = given ?? found.value;
        // a create cannot help where the rows there before are not known: what it made could not be told from them
        if (value === null && list && answer !== undefined && !untold) ids.lacking.push(list);
        if (value === null && reference.optional) ids.omit.push(reference.optional);
        else if (value === null)
          ids.unfilled.push(
            unfilledLine(reference, route, { list, answer, principal, before, untold, signedOut, created }),
          );
        else if (reference.kind === 'param') ids.params[reference.name] = String(value);
        else ids.fields[reference.name] = value;
      }
      return [route, ids];
    }),
  );
}

/**
 * The value the first list that holds one gives a reference, skipping the principal's values and, for a write, the
 * rows that were there before the run; else, for a write, the id its list's create answered when the bench sent it
 * (createdRow); else the first list that answered (or the first asked), with its answer.
 * @param {EntityReference} reference @param {Route[]} candidates listRoutesFor
 * @param {{ lists: Map<string, unknown>, params: Record<string, string>, principal: PrincipalValue[], claims: string[],
 *   preexisting: Map<string, unknown>, strict: boolean, routes: Route[] }} asked strict: a write, which never takes the
 *   principal's own
 * @returns {Found} untold: its list answered only after the bench made something, so what was there before is not known
 */
function fromLists(reference, candidates, asked) {
  const found = fromListAnswers(reference, candidates, asked);
  if (found.value !== null || !found.list || !(asked.strict && namesRow(reference))) return found;
  return { ...found, ...createdRow(reference, found, asked) };
}

/**
 * @param {EntityReference} reference @param {Route[]} candidates
 * @param {{ lists: Map<string, unknown>, params: Record<string, string>, principal: PrincipalValue[], claims: string[],
 *   preexisting: Map<string, unknown>, strict: boolean }} asked
 * @returns {Found}
 */
function fromListAnswers(reference, candidates, { lists, params, principal, claims, preexisting, strict }) {
  /** @type {Found | null} */
  let first = null;
  // the row a write changes is the one its path names right after a word (not /:uuid/:status): a row that was there
  // before the run is the user's, and a list not answered before the bench made anything cannot tell which those are
  const row = strict && namesRow(reference);
  for (const list of candidates) {
    const filled = fillPath(list, params);
    const answer = 'path' in filled ? lists.get(filled.path) : undefined;
    const before = row && 'path' in filled ? preexisting.get(filled.path) : undefined;
    const untold = row && answer !== undefined && before === undefined;
    const signedOut = 'path' in filled ? lists.get(signedOutKey(filled.path)) : undefined;
    const principals = principalValuesFor(reference.entity, principal, claims);
    // a write never takes a row that was there before the run, the principal's among them: of the principal's values
    // it also avoids only those the list shows by principal (principalOwn), never a number that merely equals one; a
    // read or a body field prefers another row to any of them
    const avoid = [
      ...(before === undefined ? principals : principalOwn(principals, answer, signedOut, reference.keys)),
      ...listedValues(before, reference.keys).map(String),
    ];
    const value = answer === undefined || untold ? null : valueFromList(answer, reference.keys, avoid, strict);
    const found = { value, list, answer, before, untold, signedOut };
    if (value !== null) return found;
    if (!first || (first.answer === undefined && answer !== undefined)) first = found;
  }
  return (
    first ?? { value: null, list: null, answer: undefined, before: undefined, untold: false, signedOut: undefined }
  );
}

/**
 * @typedef {{ value: string | number | null, list: Route | null, answer: unknown, before: unknown, untold: boolean,
 *   signedOut: unknown, created?: unknown }} Found signedOut: the list's answer signed out (list-answers.js
 *   fetchSignedOut); created: the answer of the list's create, where the bench sent it (createdRow)
 */

/**
 * Whether a path parameter names a row of its own, right after its collection's word (`/users/:id`), where one after
 * another parameter (`/todolist/:uuid/:status`) names a value of that row.
 * @param {EntityReference} reference
 */
function namesRow(reference) {
  if (reference.acts) return true;
  return reference.kind === 'param' && !/(^|\/)[:*][^/]*$/.test(String(reference.collection));
}

/** @param {string} dotted `role.id` → roleId */
function camel(dotted) {
  return dotted
    .replace(/\[\]/g, '')
    .split('.')
    .map((part, i) => (i ? part[0].toUpperCase() + part.slice(1) : part))
    .join('');
}

/**
 * Why a reference has no value, with the flags that give one: for a write whose list held only the principal's own,
 * which of its values that is, and --time-write to change it anyway.
 * @param {EntityReference} reference @param {Route} route the route that needs it
 * @param {{ list: Route | null, answer: unknown, principal: PrincipalValue[], create?: Route, before?: unknown,
 *   untold?: boolean, signedOut?: unknown, created?: unknown }} found the list route and its answer (before: as first
 *   asked; untold: it was not answered then; signedOut: its answer signed out; created: its create's answer, where the
 *   bench sent it); or the route that makes one, and its answer
 */
function unfilledLine(
  reference,
  route,
  { list, answer, principal, create, before, untold = false, signedOut, created },
) {
  const what = reference.kind === 'param' ? `:${reference.name}` : reference.name;
  const give = `give --params ${reference.name}=VALUE`;
  if (create)
    return `${what} names an existing ${reference.entity} (no GET route lists ${pluralize.plural(reference.entity)}; POST ${create.path}${answer === undefined ? ' was not asked' : ` answered none under ${reference.keys.join(', ')}`}): ${give}`;
  if (!list)
    return `${what} names an existing ${reference.entity} (no GET route lists ${pluralize.plural(reference.entity)}): ${give}`;
  if (untold)
    return `${what} names an existing ${reference.entity} (GET ${list.path} did not answer before the bench made anything, so the rows that were there before the run cannot be told from the bench's own): ${route.method} ${route.path} could change your data; give --params ${reference.name}=VALUE for a row you can lose`;
  const listed = listedValues(answer, reference.keys).map(String);
  if (listed.length === 0)
    return `${what} names an existing ${reference.entity} (GET ${list.path} listed none): ${give}`;
  const mine = principalOwn(principalValuesFor(reference.entity, principal), answer, signedOut, reference.keys);
  const own = principal.find((p) => mine.includes(p.value) && listed.includes(p.value));
  const theirs = listedValues(before, reference.keys).map(String);
  // a create the bench sent did make a row: its answer named none a write could take
  const made =
    created === undefined
      ? `no POST ${list.path} made one of the bench's own`
      : `the create the bench sent for it answered no ${[...new Set(reference.keys)].join(', ')} a write could take`;
  if (!own && theirs.length && listed.every((value) => theirs.includes(value)))
    return `${what} names an existing ${reference.entity} (GET ${list.path} listed only rows that were there before the run, and ${made}): ${route.method} ${route.path} would change your data; give --params ${reference.name}=VALUE for a row you can lose`;
  const principals = own ? `the signed-in principal's own (${own.source})` : "what the sign-in's token carries";
  const whose = theirs.length ? `${principals} and rows that were there before the run` : principals;
  return `${what} names an existing ${reference.entity} (GET ${list.path} listed only ${whose}): ${give} for another ${reference.entity}, or ${TIME_WRITE_FLAG} '${route.method} ${route.path}' to change the principal's own (on an account you can lose)`;
}

/**
 * Each list request sent once to the running app, signed in; an answer that is not a 2xx is left out.
 * @param {import('../sign-in/authenticate.js').AppClient} client @param {string[]} paths @param {Record<string, string>} headers
 * @returns {Promise<Map<string, unknown>>}
 */
export async function fetchLists(client, paths, headers) {
  const answers = new Map();
  for (const path of paths) {
    const answer = await client.request('GET', path, undefined, headers).catch(() => null);
    if (answer && answer.status >= 200 && answer.status < 300) answers.set(path, answer.body);
  }
  return answers;
}
