// @ts-check
// Variables for the schema's own operations, as a REST write's body is derived from its DTO: each required argument
// filled within its type (an input object's fields, an enum's first value, free text unique per request), and an id
// taken from the app itself, from the answer of a root query that lists that entity (getManyUserList lists users).
// A mutation that deletes, or ends or changes the sign-in, is not derived: it would not repeat, or would lose the
// account the run signs in with.
import pluralize from 'pluralize';
import { exampleValue } from '../bodies/example-body.js';
import { listItems, listedValues, valueFromList } from '../routes/list-answers.js';
import { severalFiles } from '../bodies/upload-form.js';
import { principalValuesFor } from '../sign-in/principal-values.js';

/** @typedef {import('./graphql-schema.js').ArgumentSchema} ArgumentSchema */
/** @typedef {import('./graphql-schema.js').GraphqlField} GraphqlField */

/** A mutation named for removing what it is given: only its first request finds it. */
const DESTRUCTIVE = /^(delete|remove|destroy|purge|drop|erase|clear)/i;
/** A mutation that ends the session or changes what the account signs in with. */
const SESSION =
  /^([Ss]ign|[Ll]og)[-_]?[Oo]ut|[Pp]assword|[Ee]-?mail|[Dd]eactivate|^delete[-_]?([Mm]e|[Aa]ccount|[Pp]rofile)(?![a-z])/;
/** Verbs and quantifiers around the entity in an operation's name: updateUser, getOneUser, getManyUserList. */
const NAME_VERBS = /^(create|update|upsert|delete|remove|get|find|fetch|list|search|add|set|edit|patch|put|all)/i;
const NAME_QUANTIFIERS = /^(one|many|all|single|by)/i;
const NAME_SUFFIXES = /(list|page|connection|paginated|collection|s)$/i;
/** A field or argument named for an entity's id: roleId, role_id, userUuid (not `paid` or `valid`). */
const ID_NAME = /^(.+?)(?:[-_](?:id|uuid)|Id|ID|Uuid|UUID)$/;
/** The same with the id first, as schema-first SDLs often write it: idRole, id_role, id_ord (not `idea`). */
const ID_FIRST = /^(?:id|uuid)(?:[-_]([A-Za-z]\w*)|([A-Z]\w*))$/;
/** The shortest name an argument may abbreviate its entity to (id_ord for order). */
const SHORTEST_ABBREVIATION = 3;
const OWN_ID = /^(id|uuid|_id)$/;
/** Where a list answer's items hold an entity's id. */
const ID_KEYS = ['id', '_id', 'uuid'];
/** A JSON argument that filters the operation's entity by its fields (TypeORM's where): `{ id }` picks one. */
const FILTER_NAME = /^(where|filter)$/;
/**
 * An `Upload` argument's value while variables are derived: the request sends null in its place and the file in a part
 * of its own (withoutFiles, the GraphQL multipart request).
 */
export const FILE = Object.freeze({ file: 'Upload' });
/** The flag that gives the operations as a file. */
export const QUERIES_FLAG = '--graphql-queries';

/**
 * The entity an operation or list query is named for, singular and in lower case: updateUser → user,
 * getManyUserList → user, books → book.
 * @param {string} name
 */
export function operationEntity(name) {
  let rest = name.replace(NAME_VERBS, '');
  rest = rest.replace(NAME_QUANTIFIERS, '') || rest;
  const stripped = rest.replace(NAME_SUFFIXES, '');
  // each word of a compound singular, as its create names it: getOrdersProducts lists what createOrderProduct makes
  const words = (stripped.length > 1 ? stripped : rest).split(/(?=[A-Z])/);
  return words.map((word) => pluralize.singular(word.toLowerCase())).join('');
}

/**
 * Why the bench does not derive this mutation, or null when it may: it deletes, or it ends or changes the sign-in.
 * @param {string} name
 */
export function mutationRefusal(name) {
  if (SESSION.test(name))
    return `a mutation that signs out or changes what the account signs in with (${name}): not timed, so the sign-in outlives the run`;
  if (DESTRUCTIVE.test(name))
    return `a mutation that deletes (${name}): only its first request finds what it removes; timing it needs a fresh one per request`;
  return null;
}

/** What a code-first type's name adds to its entity's: UserOutput, TeamModel, PostType. */
const TYPE_SUFFIX = /(?<=.)(Output|Type|Model|Entity|Dto|DTO|Object|Response|Payload|Node)$/;

/**
 * The root queries whose answers may list entities: those without required arguments, by entity: the type of the
 * items it lists (myTeams: [Team] lists teams, a TeamConnection's nodes too), else its name (getManyUserList).
 * @param {GraphqlField[]} fields
 * @returns {{ field: string, entity: string }[]}
 */
export function listQueries(fields) {
  return fields
    .filter((f) => f.kind === 'query' && f.selection !== '' && !f.args.some((arg) => arg.required))
    .map((f) => ({
      field: f.name,
      entity: f.lists ? operationEntity(f.lists.replace(TYPE_SUFFIX, '')) : operationEntity(f.name),
    }));
}

/**
 * What names the signed-in principal (its values with their kinds, the token's), and the list answers as first asked.
 * @typedef {{ principal: import('../sign-in/principal-values.js').PrincipalValue[], claims: string[],
 *   preexisting?: Map<string, unknown> }} PrincipalGuard
 */

/**
 * The values an id of each entity may not be: the principal's for that entity (principalValuesFor), so product 1 is
 * not avoided because user 1 signs in.
 * @param {PrincipalGuard} guard
 * @returns {(entity: string) => string[]}
 */
export function avoidedIds({ principal, claims }) {
  return (entity) => principalValuesFor(entity, principal, claims);
}

/** A mutation named for making a new entity: createUser, addBook. */
const CREATES = /^(create|add|insert)[A-Z_]/;

/**
 * The list queries whose answers hold no id a mutation could take (none, or only the signed-in principal's), each
 * with the mutation that creates that entity (createUser for getManyUserList): the bench sends it once and asks the
 * list again.
 * @param {GraphqlField[]} fields @param {Map<string, unknown>} lists answers by list query (fetchGraphqlLists)
 * @param {PrincipalGuard} guard what names the signed-in principal
 * @returns {{ list: string, create: string }[]} each create once
 */
export function createMutations(fields, lists, guard) {
  const avoidFor = avoidedIds(guard);
  const creates = fields.filter((f) => f.kind === 'mutation' && CREATES.test(f.name));
  const changes = fields.flatMap((f) =>
    f.kind === 'mutation' && !creates.includes(f) ? [operationEntity(f.name)] : [],
  );
  const found = listQueries(fields).flatMap(({ field, entity }) => {
    const items = graphqlListItems(field, lists.get(field));
    // what a mutation changes is made by the bench: the rows listed before are the user's
    const before = changes.includes(entity) ? idsBefore(field, guard.preexisting) : [];
    if (!lists.has(field) || before === null) return [];
    if (valueFromList(items, ID_KEYS, [...avoidFor(entity), ...before], true) !== null) return [];
    const create = creates.find((m) => operationEntity(m.name) === entity);
    return create ? [{ list: field, create: create.name }] : [];
  });
  return found.filter((one, i) => found.findIndex((other) => other.create === one.create) === i);
}

/**
 * The list answers with what a create mutation answered added to its list query's items: its id is the app's own, where
 * asking the list again may answer from a cache.
 * @param {Map<string, unknown>} lists by list query @param {{ list: string, create: string }} operation
 * @param {unknown} answer the mutation's answer
 * @returns {Map<string, unknown>}
 */
export function withCreatedItem(lists, { list, create }, answer) {
  const made = /** @type {{ data?: Record<string, unknown> } | null} */ (answer)?.data?.[create];
  if (!made || typeof made !== 'object') return lists;
  const items = [...graphqlListItems(list, lists.get(list)), made];
  return new Map([...lists, [list, { data: { [list]: items } }]]);
}

/**
 * The items a root query's answer lists, by query field: `{ data: { users: [...] } }`, `{ data: { getManyUserList:
 * { data: [...] } } }`.
 * @param {string} field @param {unknown} answer the GraphQL answer's body
 */
export function graphqlListItems(field, answer) {
  const data = /** @type {{ data?: Record<string, unknown> } | null} */ (answer)?.data;
  return data && typeof data === 'object' ? listItems(data[field]) : [];
}

/**
 * The ids a list query held before the bench made anything, which no mutation takes; null: it did not answer then.
 * @param {string} field @param {Map<string, unknown> | undefined} preexisting @returns {string[] | null}
 */
function idsBefore(field, preexisting) {
  const answer = preexisting?.get(field);
  return answer === undefined ? null : listedValues(graphqlListItems(field, answer), ID_KEYS).map(String);
}

/**
 * @typedef {object} ValueSources
 * @property {Record<string, string>} params --params and authenticate()'s, by argument or field name
 * @property {Map<string, unknown>} lists each list query's answer, by its field
 * @property {Map<string, unknown>} [preexisting] each list query's answer as first asked, by its field (idsBefore)
 * @property {{ field: string, entity: string }[]} listed the list queries (listQueries)
 * @property {(entity: string) => string[]} avoidFor the values that name the signed-in principal among an
 *   entity's ids (avoidedIds)
 */

/**
 * The variables of an operation derived from the schema, or the one reason it cannot be sent.
 * @param {{ name: string, kind: string, args: { name: string, required: boolean, schema: ArgumentSchema }[] }} field
 * @param {ValueSources} sources
 * @returns {{ variables: Record<string, unknown> } | { missing: string }}
 */
export function derivedVariables(field, sources) {
  const own = operationEntity(field.name);
  const write = field.kind === 'mutation';
  /** @type {Record<string, unknown>} */
  const variables = {};
  /** @type {Map<string, unknown>} the ids given at the root, by the entity each names: its input keeps them */
  const rootIds = new Map();
  for (const arg of field.args.filter((a) => sentArgument(field.kind, a))) {
    const given = sources.params[arg.name];
    const value =
      given !== undefined
        ? { value: typedParam(arg.schema, given) }
        : derivedValue(arg.schema, arg.name, { own, write, rootIds }, sources, true);
    if ('missing' in value) {
      if (arg.required || isIdReference(arg.schema, arg.name)) return value;
      continue;
    }
    variables[arg.name] = value.value;
    if (isIdReference(arg.schema, arg.name)) rootIds.set(idEntity(arg.name) ?? own, value.value);
  }
  return { variables };
}

/**
 * Whether an operation is sent with this argument: a required one always; a mutation's optional ones too, since a
 * schema-first SDL leaves the id and input of `editUser(id: ID, input: UserData)` nullable and the resolver still
 * needs them. A query's optional arguments (filters, paging) are left out, so it lists what it lists by default.
 * @param {string} kind @param {{ required: boolean }} arg
 */
export function sentArgument(kind, arg) {
  return arg.required || kind === 'mutation';
}

/**
 * @param {ArgumentSchema} schema @param {string} name the argument or field
 * @param {{ own: string, write: boolean, rootIds?: Map<string, unknown> }} operation its entity, whether it is a
 *   mutation, and the ids its root arguments name, by entity
 * @param {ValueSources} sources
 * @param {boolean} [root] a root argument: a mutation's names what it changes, where a field inside an input object
 *   refers to something it only points at
 * @returns {{ value: unknown } | { missing: string }}
 */
function derivedValue(schema, name, operation, sources, root = false) {
  const { own, write } = operation;
  // a field inside an input object, given by its name as a REST body's field is (--params where=JSON, roleId=7)
  const given = root ? undefined : sources.params[name];
  if (given !== undefined) return { value: typedParam(schema, given) };
  if (isIdReference(schema, name)) {
    const entity = idEntity(name) ?? own;
    // an input field naming what a root argument names keeps it: editOrderProduct(id_ord, id_pro, input: { idOrder,
    // idProduct }) moved onto the first order and product would take another item's pair (a duplicate key)
    const kept = root ? undefined : rootId(entity, operation.rootIds);
    if (kept !== undefined) return { value: kept };
    const paired = root && entity !== own ? pairedId(own, entity, sources, write) : null;
    if (paired !== null) return { value: typedParam(schema, String(paired)) };
    // a mutation given the signed-in account's own id (or its role's) would change what the run signs in with
    const id = listedId(entity, name, sources, write && root);
    return 'missing' in id ? id : { value: typedParam(schema, String(id.value)) };
  }
  if (schema.scalar === 'JSON' && FILTER_NAME.test(name)) {
    const id = listedId(own, name, sources, write);
    if ('value' in id) return { value: { id: id.value } };
  }
  if (schema.scalar === 'Upload') return { value: FILE };
  if (schema.scalar && schema.scalar !== 'ID')
    return {
      missing: `$${name} is a ${schema.scalar}, which the bench cannot make up: give it as JSON in --params ${name}=JSON`,
    };
  if (schema.type === 'array' && schema.items) {
    const item = derivedValue(schema.items, pluralize.singular(name), operation, sources);
    if ('missing' in item) return item;
    // a list of files is sent several, as a FilesInterceptor's field is
    return { value: Array.from({ length: item.value === FILE ? severalFiles(null) : 1 }, () => item.value) };
  }
  if (schema.properties) {
    /** @type {Record<string, unknown>} */
    const object = {};
    for (const [property, inner] of Object.entries(schema.properties)) {
      const value = derivedValue(inner, property, operation, sources);
      const required = schema.required?.includes(property);
      if ('missing' in value && required) return value;
      if ('value' in value) object[property] = value.value;
    }
    return { value: object };
  }
  return { value: exampleValue(schema, name) };
}

/**
 * An id of the entity from the answer of the root query that lists it, or why there is none.
 * @param {string} entity @param {string} name the argument or field that wants it @param {ValueSources} sources
 * @param {boolean} strict never the principal's own, even when the list holds nothing else
 * @returns {{ value: string | number } | { missing: string }}
 */
function listedId(entity, name, sources, strict) {
  const exact = sources.listed.filter((l) => l.entity === entity);
  const lists = exact.length
    ? exact
    : sources.listed.filter((l) => abbreviates(entity, l.entity)).sort((a, b) => a.entity.length - b.entity.length);
  // every query that lists the entity (myTeams, teamsPage): the first whose answer holds an id it may take (a write,
  // never one listed before the bench made anything)
  let untold = /** @type {string | null} */ (null);
  let theirs = false;
  for (const listing of lists) {
    const items = graphqlListItems(listing.field, sources.lists.get(listing.field));
    const before = strict ? idsBefore(listing.field, sources.preexisting) : [];
    if (before === null && items.length) untold ??= listing.field;
    if (before === null) continue;
    const value = valueFromList(items, ID_KEYS, [...sources.avoidFor(entity), ...before], strict);
    if (value !== null) return { value };
    const others = listedValues(items, ID_KEYS).filter((id) => !sources.avoidFor(entity).includes(String(id)));
    theirs ||= others.length > 0 && others.every((id) => before.includes(String(id)));
  }
  const list = lists[0];
  const items = list ? graphqlListItems(list.field, sources.lists.get(list.field)) : [];
  const give = `give --params ${name}=VALUE`;
  const lose = `${give} for a row you can lose`;
  const why = !list
    ? `no root query lists ${pluralize.plural(entity)}): ${give}`
    : untold
      ? `${untold} did not answer before the bench made anything, so the rows that were there before the run cannot be told from the bench's own): ${lose}`
      : !items.length
        ? `${list.field} listed none): ${give}`
        : theirs
          ? `${list.field} listed only rows that were there before the run, and no mutation made one of the bench's own): the mutation would change your data; ${lose}`
          : `${list.field} listed only the signed-in principal's own): ${give} for another ${entity}, or the operation in ${QUERIES_FLAG} FILE with the principal's own to change it (on an account you can lose)`;
  return { missing: `$${name} names an existing ${entity} (${why}` };
}

/**
 * The id an item of the operation's own list holds for another entity: editOrderProduct(id_ord, id_pro) names a pair
 * that exists, so both come from the first item getOrdersProducts lists (`{ order { id } product { id } }`), not from
 * the first order and the first product. An item naming the signed-in principal is skipped, and for a mutation one
 * listed before the bench made anything.
 * @param {string} own @param {string} entity @param {ValueSources} sources @param {boolean} write
 * @returns {string | number | null}
 */
function pairedId(own, entity, sources, write) {
  const list = sources.listed.find((l) => l.entity === own);
  const items = list ? graphqlListItems(list.field, sources.lists.get(list.field)) : [];
  const answered = list ? sources.preexisting?.get(list.field) : undefined;
  if (write && answered === undefined) return null;
  const before = new Set(graphqlListItems(String(list?.field), answered).map((item) => JSON.stringify(item)));
  for (const item of items) {
    if (write && before.has(JSON.stringify(item))) continue;
    const key = Object.keys(item).find((k) => k.toLowerCase() === entity || abbreviates(entity, k.toLowerCase()));
    const inner = key ? /** @type {Record<string, unknown>} */ (item[key]) : null;
    if (!inner || typeof inner !== 'object') continue;
    const id = ID_KEYS.map((k) => inner[k]).find((v) => typeof v === 'string' || typeof v === 'number');
    if (id !== undefined && !sources.avoidFor(entity).includes(String(id))) return /** @type {string | number} */ (id);
  }
  return null;
}

/**
 * The id a root argument gave for an entity, where one did: `id_ord` for an input's `idOrder`.
 * @param {string} entity @param {Map<string, unknown> | undefined} rootIds
 */
function rootId(entity, rootIds) {
  for (const [named, value] of rootIds ?? []) if (named === entity || abbreviates(named, entity)) return value;
  return undefined;
}

/** Whether a name shortens an entity's, as `id_ord` does order's. @param {string} name @param {string} entity */
function abbreviates(name, entity) {
  return name.length >= SHORTEST_ABBREVIATION && entity.startsWith(name);
}

/** @param {ArgumentSchema} schema @param {string} name */
function isIdReference(schema, name) {
  if (schema.scalar === 'ID') return true;
  return (
    (schema.type === 'string' || schema.type === 'integer') &&
    (OWN_ID.test(name) || ID_NAME.test(name) || ID_FIRST.test(name))
  );
}

/** @param {string} name `roleId`, `idRole` → role; `id_ord` → ord (order, abbreviated); `id` → null (its own) */
function idEntity(name) {
  const named = ID_NAME.exec(name);
  if (named) return pluralize.singular(named[1].toLowerCase());
  const first = ID_FIRST.exec(name);
  return first ? pluralize.singular((first[1] ?? first[2]).toLowerCase()) : null;
}

/** A --params value as the argument's type wants it. @param {ArgumentSchema} schema @param {string} value */
function typedParam(schema, value) {
  if (schema.type === 'integer' || schema.type === 'number') return Number.isNaN(Number(value)) ? value : Number(value);
  if (schema.type === 'boolean') return value === 'true';
  if (schema.type === 'string' || schema.scalar === 'ID' || schema.enum) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/**
 * Variables with each file (FILE) replaced by null, as the GraphQL multipart request's `operations` part sends them,
 * and where each file goes in them (`variables.file`, `variables.input.photos.1`), as its `map` part names them.
 * @param {Record<string, unknown>} variables
 * @returns {{ variables: Record<string, unknown>, files: string[] }}
 */
export function withoutFiles(variables) {
  /** @type {string[]} */
  const files = [];
  /** @param {unknown} value @param {string} path @returns {unknown} */
  const walk = (value, path) => {
    if (value === FILE) {
      files.push(path);
      return null;
    }
    if (Array.isArray(value)) return value.map((item, i) => walk(item, `${path}.${i}`));
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, walk(inner, `${path}.${key}`)]));
    return value;
  };
  return { variables: /** @type {Record<string, unknown>} */ (walk(variables, 'variables')), files };
}
