// @ts-check
// Writes that leave the state as it was. A PATCH of the signed-in account sent with the account's own current values
// (read from the GET of the same path) changes nothing, so it can be timed where a derived body would change what the
// sign-in relies on; what signs in (passwords, e-mails, usernames) is never in such a body. And a write to another
// entity keeps the values other routes take from that entity (brocoders' PATCH /users/:id kept John Doe's e-mail,
// which its forgot-password route sends).
import pluralize from 'pluralize';
import { entityReferences, listRouteFor } from '../routes/id-sources.js';
import { listItems } from '../routes/list-answers.js';
import { answerChanges } from './principal.js';
import { isRecord } from './principal-values.js';
import { fillPath } from '../routes/route-match.js';

/** The body source of a write sent with the entity's own current values. */
export const CURRENT_VALUES = 'current values';

/** Writes that change an entity in place: a PATCH sets what it is sent, a PUT replaces the whole. */
const IN_PLACE = new Set(['PATCH', 'PUT']);
/** Fields that sign an account in, or prove it: never sent as a current value. */
const SIGN_IN_FIELD = /password|e-?mail|user-?name|login|phone|mobile|otp|token|secret|hash|provider|social/i;
/** Fields an answer wraps its entity in. */
const WRAPPERS = ['data', 'result', 'payload', 'item', 'user', 'account'];
const MOST_WRAP_DEPTH = 2;

/** @typedef {import('../bodies/body-schema.js').BodySchema} BodySchema */
/** @typedef {import('../routes/discover.js').Route} Route */

/** A PATCH or PUT with a body: it sets fields of what its path names. @param {Route} route */
export function writesInPlace(route) {
  return IN_PLACE.has(route.method) && Boolean(route.body);
}

/**
 * The GET route that answers a write's entity as it is now: the one registered at the write's own path.
 * @param {Route} route @param {Route[]} routes
 * @returns {Route | null}
 */
export function currentValuesRead(route, routes) {
  if (!writesInPlace(route)) return null;
  return routes.find((r) => r.method === 'GET' && r.path === route.path) ?? null;
}

/**
 * The requests whose answers give the current values: each in-place write's GET twin, its path filled as the write's.
 * @param {Route[]} routes @param {(route: Route) => Record<string, string>} paramsOf what fills a route's path
 * @returns {string[]}
 */
export function currentValuesRequests(routes, paramsOf) {
  const paths = routes.flatMap((route) => {
    const read = currentValuesRead(route, routes);
    const filled = read && fillPath(route, paramsOf(route));
    return filled && 'path' in filled ? [filled.path] : [];
  });
  return [...new Set(paths)];
}

/**
 * A body that sets each field the write's DTO declares to the value the entity holds now, or why there is none. A
 * field that signs in is left out; a PATCH may leave out a plain field the answer does not hold (it keeps its value)
 * and an optional relation the answer leaves out altogether, but not a list (a handler may read its absence as
 * "none") nor a relation the answer holds otherwise, and a PUT none at all: a PUT is sent the
 * null a field holds. A body that wraps its fields (RealWorld's `{ user: { bio, image } }`) takes them from the same
 * object in the answer.
 * @param {Route} route a PATCH or PUT with a body
 * @param {unknown} answer the GET of the same path, signed in
 * @param {string[]} [signInFields] the fields authenticate()'s sign-in sends: left out too
 * @returns {{ value: Record<string, unknown> } | { why: string }}
 */
export function currentValuesBody(route, answer, signInFields = []) {
  const schema = route.body?.schema ?? {};
  const entity = entityIn(answer, Object.keys(schema.properties ?? {}));
  if (!entity) return { why: `GET ${route.path} answered none of the fields its body takes` };
  const { value, missing } = heldValues(schema, entity, { method: route.method, signInFields });
  if (missing.length)
    return {
      why: `GET ${route.path} does not answer ${missing.join(', ')} as its body takes ${missing.length > 1 ? 'them' : 'it'}`,
    };
  if (Object.keys(value).length === 0)
    return { why: `every field its body takes that GET ${route.path} answers signs in (a password, an e-mail)` };
  return { value };
}

/**
 * The values an entity holds for a body's fields, and the fields it could not fill, by path.
 * @param {BodySchema} schema @param {Record<string, unknown>} entity
 * @param {{ method: string, signInFields: string[] }} write @param {string[]} [at]
 * @returns {{ value: Record<string, unknown>, missing: string[] }}
 */
function heldValues(schema, entity, write, at = []) {
  /** @type {Record<string, unknown>} */
  const value = {};
  const missing = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (SIGN_IN_FIELD.test(name) || write.signInFields.includes(name)) continue;
    const held = entity[name];
    if (property.properties && !property.properties.id && isRecord(held)) {
      const inner = heldValues(property, held, write, [...at, name]);
      missing.push(...inner.missing);
      if (Object.keys(inner.value).length) value[name] = inner.value;
      continue;
    }
    const current = currentValue(property, held);
    if (current !== undefined) value[name] = current;
    else if (held === null && write.method === 'PATCH') continue;
    // a relation the answer leaves out altogether (brocoders' GET /auth/me drops a null photo): an optional one keeps
    // its value in a PATCH; a list does not, where a handler may read its absence as none
    else if (
      write.method === 'PATCH' &&
      !(name in entity) &&
      property.properties?.id &&
      !schema.required?.includes(name)
    )
      continue;
    else if (held === null && write.method === 'PUT' && !schema.required?.includes(name)) value[name] = null;
    else if (write.method === 'PUT' || property.type === 'array' || property.type === 'object' || property.properties)
      missing.push([...at, name].join('.'));
  }
  return { value, missing };
}

/**
 * The object an answer holds the entity in: the answer itself, or under the entity's own name (RealWorld's `{ article:
 * {…}, currentUser: {…} }`), `data`, `result`, ... (`{ success, data: {…} }`) or its only key, whichever holds one of
 * the fields.
 * @param {unknown} answer @param {string[]} fields @param {string | null} [named] the entity's name: article
 * @returns {Record<string, unknown> | null}
 */
function entityIn(answer, fields, named = null, depth = 0) {
  if (!isRecord(answer) || depth > MOST_WRAP_DEPTH) return null;
  if (fields.some((field) => field in answer)) return answer;
  const keys = Object.keys(answer);
  for (const key of [...(named ? [named] : []), ...WRAPPERS, ...(keys.length === 1 ? keys : [])]) {
    const inner = entityIn(answer[key], fields, null, depth + 1);
    if (inner) return inner;
  }
  return null;
}

/**
 * A field's current value as its schema takes it: a plain value of its type, a relation as `{ id }`, a list of either.
 * @param {BodySchema} schema @param {unknown} held
 * @returns {unknown} undefined when the answer holds nothing the field can take
 */
function currentValue(schema, held) {
  if (held === null || held === undefined) return undefined;
  if (schema.type === 'array' || Array.isArray(held)) {
    if (!Array.isArray(held) || (schema.type && schema.type !== 'array')) return undefined;
    const items = held.map((item) => currentValue(schema.items ?? {}, item));
    return items.every((item) => item !== undefined) ? items : undefined;
  }
  if (schema.properties?.id) return isRecord(held) && scalar(held.id) ? { id: held.id } : undefined;
  if (schema.properties || schema.type === 'object') return undefined;
  if (!scalar(held) && typeof held !== 'boolean') return undefined;
  if (schema.enum && !schema.enum.includes(held)) return undefined;
  const kind = schema.type === 'integer' ? 'number' : schema.type;
  return kind === undefined || typeof held === kind ? held : undefined;
}

/**
 * Each in-place write to an entity keeps what names it: the value another route takes from the entity, and what the
 * write's own path id is, or is made from (a title its slug is made from). A PATCH leaves its body field out, a PUT
 * too where its DTO makes the field optional, else it sends what the entity holds now. A write that changed it would
 * break the other routes, and its own next request, for the rest of the run (a forgot-password sent to an e-mail the write had replaced; `PUT /articles/:slug` renaming
 * the article, so its slug named nothing).
 * @param {object} input
 * @param {Map<Route, import('../routes/id-sources.js').RouteIds>} input.ids resolveIds()
 * @param {Route[]} input.routes
 * @param {Map<string, unknown>} input.lists list answers by request
 * @param {Record<string, string>} input.params --params and authenticate()'s: fill the lists' own paths
 * @param {Map<string, unknown>} [input.current] GET answers by request path: the entity a write's path names, as it is
 * @returns {Map<Route, import('../routes/id-sources.js').RouteIds>}
 */
export function keepValuesOthersRead({ ids, routes, lists, params, current = new Map() }) {
  const result = new Map(ids);
  for (const route of routes) {
    const own = ids.get(route);
    const schema = route.body?.schema;
    if (!IN_PLACE.has(route.method) || !own || !schema?.properties) continue;
    const readByOthers = new Set(
      [...ids].flatMap(([other, { params: p, fields }]) =>
        other === route ? [] : [...Object.values(p), ...Object.values(fields)].filter(scalar).map(String),
      ),
    );
    const pathIds = entityReferences(route).flatMap((reference) => {
      const value = own.params[reference.name] ?? params[reference.name];
      return reference.kind === 'param' && value !== undefined ? [value] : [];
    });
    const names = (/** @type {string} */ held) =>
      readByOthers.has(held) || pathIds.some((id) => id === held || madeFrom(id, held));
    const kept = { ...own.fields };
    const omit = [...own.omit];
    for (const item of namedItems(route, own, { routes, lists, params, current }))
      for (const { path, name } of scalarFields(schema))
        if (scalar(item[name]) && names(String(item[name])) && !(path in own.fields) && !omit.includes(path))
          // a PATCH leaves out what it must not change (an app may refuse its own value as taken), and a PUT what its
          // DTO lets it leave out: RealWorld makes a new slug from any title it is sent, its own included
          if (route.method === 'PATCH' || optionalAt(schema, path)) omit.push(path);
          else kept[path] = item[name];
    if (Object.keys(kept).length > Object.keys(own.fields).length || omit.length > own.omit.length)
      result.set(route, { ...own, fields: kept, omit });
  }
  return result;
}

/**
 * Whether a body's field, by its path (`article.title`), may be left out: its object lists what it requires, and not
 * this field (class-validator's @IsOptional). Where no list says, the field is sent.
 * @param {BodySchema} schema @param {string} path
 */
function optionalAt(schema, path) {
  const names = path.split('.');
  const parent = names
    .slice(0, -1)
    .reduce((at, name) => at?.properties?.[name], /** @type {BodySchema | undefined} */ (schema));
  return Boolean(parent?.required && !parent.required.includes(/** @type {string} */ (names.at(-1))));
}

/** The shortest text an id is read as made from: shorter ones (an initial, a count) would be found in any id. */
const MIN_MADE_FROM_CHARS = 3;
/** @param {string} text its words as a slug keeps them: lower case, accents and apostrophes dropped */
const slugWords = (text) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f'’]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/**
 * Whether an id is made from a value: the value's words, in order, among the id's (`How to Train Your Dragon` in
 * `how-to-train-your-dragon-x1b2c3`); never a piece of a word (`ace` in a uuid's `3ace91f0`).
 * @param {string} id @param {string} value
 */
export function madeFrom(id, value) {
  const words = slugWords(value);
  const within = slugWords(id);
  if (words.join('').length < MIN_MADE_FROM_CHARS) return false;
  return within.some((_, at) => words.every((word, i) => within[at + i] === word));
}

/** @param {Route} route its entity's name: the last word of its path, singular (`/api/articles/:slug` → article) */
function entityName(route) {
  const word = route.path
    .split('/')
    .filter((segment) => segment && !/^[:*]/.test(segment))
    .at(-1);
  return word ? pluralize.singular(word) : null;
}

/**
 * The names of the fields a sign-in's body sends, nested ones too (`{ user: { email, password } }`: email, password),
 * never its wrapper's.
 * @param {unknown} body
 * @returns {string[]}
 */
export function signInFieldNames(body) {
  if (!isRecord(body)) return [];
  return Object.entries(body).flatMap(([name, value]) => (isRecord(value) ? signInFieldNames(value) : [name]));
}

/**
 * A body's plain fields by their path, through the objects it wraps them in (`{ article: { title } }`), not through
 * relations (`{ id }`) or lists.
 * @param {BodySchema} schema @param {string[]} [at]
 * @returns {{ path: string, name: string }[]}
 */
function scalarFields(schema, at = []) {
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    if (property.type === 'array' || property.properties?.id) return [];
    if (property.properties) return at.length < MOST_WRAP_DEPTH ? scalarFields(property, [...at, name]) : [];
    return [{ path: [...at, name].join('.'), name }];
  });
}

/**
 * What a write's path names: the list items its parameters were taken from, or given (--params, authenticate()'s), and
 * the GET at its own path's answer.
 * @param {Route} route @param {import('../routes/id-sources.js').RouteIds} own
 * @param {{ routes: Route[], lists: Map<string, unknown>, params: Record<string, string>,
 *   current: Map<string, unknown> }} found
 * @returns {Record<string, unknown>[]}
 */
function namedItems(route, own, { routes, lists, params, current }) {
  const filled = fillPath(route, { ...params, ...own.params });
  const fields = scalarFields(route.body?.schema ?? {}).map(({ name }) => name);
  const entity = 'path' in filled ? entityIn(current.get(filled.path), fields, entityName(route)) : null;
  const listed = entityReferences(route).flatMap((reference) => {
    const value = own.params[reference.name] ?? params[reference.name];
    const list = reference.kind === 'param' && value !== undefined ? listRouteFor(reference, route, routes) : null;
    const filled = list && fillPath(list, params);
    const answer = filled && 'path' in filled ? lists.get(filled.path) : undefined;
    const item = listItems(answer).find((one) => reference.keys.some((key) => String(one[key]) === value));
    return item ? [item] : [];
  });
  return entity ? [entity, ...listed] : listed;
}

/** @param {unknown} value */
const scalar = (value) => (typeof value === 'string' && value !== '') || typeof value === 'number';

/**
 * After a same-values write's check: the GET it read the values from still answers them (times and what varies by
 * itself aside), else what changed.
 * @param {import('./authenticate.js').AppClient} client the Express server of the check
 * @param {{ path: string, before: unknown, headers: Record<string, string> }} read
 * @returns {Promise<import('./principal.js').SignInChange | null>}
 */
export async function currentValuesChanged(client, { path, before, headers }) {
  const { status, body } = await client.request('GET', path, undefined, headers);
  if (status < 200 || status >= 300)
    return { lost: false, why: `GET ${path} answered ${status} after it was sent its own current values` };
  const changed = answerChanges(before, body);
  return changed.length
    ? {
        lost: false,
        why: `GET ${path} answered ${changed.slice(0, MOST_CHANGES_SHOWN).join('; ')} after it was sent its own current values`,
      }
    : null;
}

const MOST_CHANGES_SHOWN = 3;

/**
 * What each write's check is followed by: a write sent with its entity's current values must leave that entity's
 * answer as it was, and every write the sign-in working (principal.js).
 * @param {import('../routes/app-config.js').RouteEntry[]} routes the plan's
 * @param {{ current: Map<string, unknown> | undefined, headers: Record<string, string>,
 *   signInChanged: ReturnType<typeof import('./principal.js').watchSignIn> | null }} watched
 * @returns {((client: import('./authenticate.js').AppClient, scenario: string) =>
 *   Promise<import('./principal.js').SignInChange | null>) | undefined}
 */
export function writeWatcher(routes, { current = new Map(), headers, signInChanged }) {
  /** @type {Map<string, { path: string, before: unknown, headers: Record<string, string> }>} */
  const reads = new Map();
  for (const { scenario, body, request, method } of routes) {
    const path = request?.slice(method.length + 1);
    if (scenario && path && body === CURRENT_VALUES) reads.set(scenario, { path, before: current.get(path), headers });
  }
  if (!signInChanged && reads.size === 0) return undefined;
  return async (client, scenario) => {
    const read = reads.get(scenario);
    const changed = read ? await currentValuesChanged(client, read) : null;
    const signIn = signInChanged ? await signInChanged(client) : null;
    return signIn?.lost ? signIn : (changed ?? signIn);
  };
}
