// @ts-check
// The GraphQL API a user's module serves, read inside its process by the launcher (as body-schema.js reads DTOs):
// the endpoint's path, its driver and whether that driver's Fastify integration is installed, and each root field of
// the schema as an operation the bench can send. The app's own `graphql` package does the reading.
import { readFileSync } from 'node:fs';
import { apolloFastifyPackage } from '../launch/app-packages.js';

/**
 * An argument of a root field.
 * @typedef {{ name: string, type: string, required: boolean, input: boolean, schema: ArgumentSchema }}
 *   GraphqlArgument type as the schema prints it (`ID!`, `[String!]`); input: an input object type, which a value
 *   from --params cannot fill; schema: what a value of it must look like, to derive one (example-body.js)
 *
 * A body schema (body-schema.js) of a GraphQL value, with the scalar it names where the schema says more than its
 * JSON type: an `ID`, or a scalar no value can be made up for (`Upload`, `JSON`).
 * @typedef {import('../bodies/body-schema.js').BodySchema & { scalar?: string, properties?: Record<string, ArgumentSchema>,
 *   items?: ArgumentSchema }} ArgumentSchema
 *
 * A root field of the schema.
 * @typedef {object} GraphqlField
 * @property {'query' | 'mutation' | 'subscription'} kind
 * @property {string} name
 * @property {GraphqlArgument[]} args
 * @property {string} selection what to ask of its result: `{ id title author { id name } }`, '' for a scalar
 * @property {string | null} lists the object type of the items it answers, where it answers a list, a page or a
 *   connection (`myTeams: [Team!]!`, `teams: TeamConnection` with `edges { node }`): the entity it lists
 *
 * @typedef {object} GraphqlApi
 * @property {string} path where it answers, e.g. /graphql (the app's global prefix does not apply)
 * @property {string} driver ApolloDriver, MercuriusDriver, ...
 * @property {{ package: string, installed: boolean } | null} fastifyIntegration what the driver needs on Fastify
 * @property {GraphqlField[]} fields
 */

/** The drivers that need a package of Apollo's to serve on Fastify (apolloFastifyPackage). Mercurius is Fastify's own. */
const APOLLO_DRIVERS = ['ApolloDriver', 'ApolloFederationDriver', 'ApolloGatewayDriver'];
const DEFAULT_PATH = '/graphql';
/** Deep enough for the fields of a result and of the objects it holds; past it only leaves are asked. */
const SELECTION_DEPTH = 2;
/** Fields that hold a page's or a connection's items: asked without counting a level, so the items' ids are. */
const ITEM_WRAPPERS = ['edges', 'node', 'nodes', 'items', 'data', 'results', 'rows', 'records', 'content', 'list'];
/** How many wrappers in a row are not counted (a connection's edges, then its node). */
const MOST_WRAPPERS = 2;

/**
 * The root fields of a schema. Types are told apart by their class names, not graphql's `instanceof` helpers: the
 * copy of graphql the bench loads may not be the one the app built its schema with.
 * @param {any} schema a GraphQLSchema
 * @returns {GraphqlField[]}
 */
export function rootFields(schema) {
  const roots = /** @type {const} */ ([
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ]);
  return roots.flatMap(([kind, type]) =>
    type
      ? Object.values(type.getFields()).map((/** @type {any} */ field) => ({
          kind,
          name: field.name,
          args: field.args.map((/** @type {any} */ arg) => ({
            name: arg.name,
            type: String(arg.type),
            required: isNonNull(arg.type) && arg.defaultValue === undefined,
            input: kindOf(arg.type) === 'GraphQLInputObjectType',
            schema: argumentSchema(arg.type),
          })),
          selection: selectionOf(field.type, SELECTION_DEPTH),
          lists: listedType(field.type, MOST_WRAPPERS)?.name ?? null,
        }))
      : [],
  );
}

/** @param {any} type */
function namedType(type) {
  let named = type;
  while (named.ofType) named = named.ofType;
  return named;
}

/** @param {any} type */
const isNonNull = (type) => type.constructor?.name === 'GraphQLNonNull';
/** @param {any} type */
const kindOf = (type) => namedType(type).constructor?.name ?? '';
/** @param {any} type */
const isLeaf = (type) => ['GraphQLScalarType', 'GraphQLEnumType'].includes(kindOf(type));

/** Scalars whose values have a JSON type of their own; any other scalar (Upload, JSON) is named, not made up. */
const SCALAR_SCHEMAS = /** @type {Record<string, ArgumentSchema>} */ ({
  String: { type: 'string' },
  ID: { type: 'string', scalar: 'ID' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
  Date: { type: 'string', format: 'date' },
  Timestamp: { type: 'string', format: 'date-time' },
  UUID: { type: 'string', format: 'uuid' },
  EmailAddress: { type: 'string', format: 'email' },
  URL: { type: 'string', format: 'uri' },
});

/**
 * What a value of an input type must look like: an input object's fields (the non-null ones without a default
 * required), a list's items, an enum's values, a scalar's JSON type.
 * @param {any} type @param {Set<string>} [seen] input objects being described: one that holds itself stops there
 * @returns {ArgumentSchema}
 */
export function argumentSchema(type, seen = new Set()) {
  let inner = type;
  while (inner.constructor?.name === 'GraphQLNonNull') inner = inner.ofType;
  const kind = inner.constructor?.name;
  if (kind === 'GraphQLList') return { type: 'array', items: argumentSchema(inner.ofType, seen) };
  if (kind === 'GraphQLEnumType') return { enum: inner.getValues().map((/** @type {any} */ value) => value.name) };
  if (kind === 'GraphQLInputObjectType') {
    if (seen.has(inner.name)) return { type: 'object' };
    const fields = Object.values(inner.getFields());
    return {
      type: 'object',
      properties: Object.fromEntries(
        fields.map((/** @type {any} */ f) => [f.name, argumentSchema(f.type, new Set([...seen, inner.name]))]),
      ),
      required: fields
        .filter((/** @type {any} */ f) => isNonNull(f.type) && f.defaultValue === undefined)
        .map((/** @type {any} */ f) => f.name),
    };
  }
  return SCALAR_SCHEMAS[inner.name] ?? { scalar: inner.name };
}

/**
 * The object type of the items a value of this type lists: a list's own, or the items a page or a connection wraps
 * (`{ data: [Team] }`, `{ edges: [{ node: Team }] }`); null for anything else.
 * @param {any} type @param {number} wrappers how many wrappers deep it may look
 * @returns {any} a GraphQLObjectType, or null
 */
function listedType(type, wrappers) {
  let inner = type;
  while (isNonNull(inner)) inner = inner.ofType;
  if (kindOf(inner) !== 'GraphQLObjectType') return null;
  if (inner.constructor?.name === 'GraphQLList') {
    const item = namedType(inner);
    const node = item.getFields().node;
    // a connection's edge holds its item under node
    return node && kindOf(node.type) === 'GraphQLObjectType' ? namedType(node.type) : item;
  }
  if (wrappers === 0) return null;
  const fields = inner.getFields();
  for (const name of ITEM_WRAPPERS) {
    const found = fields[name] && listedType(fields[name].type, wrappers - 1);
    if (found) return found;
  }
  return null;
}

/**
 * What to ask of a value of this type: its leaf fields, and the objects it holds to the depth left; a page's or a
 * connection's wrappers (edges, node, data) do not count as a level.
 * @param {any} type @param {number} depth @param {number} [wrappers] wrappers left not to count
 * @returns {string}
 */
function selectionOf(type, depth, wrappers = MOST_WRAPPERS) {
  if (isLeaf(type)) return '';
  if (kindOf(type) !== 'GraphQLObjectType') return '{ __typename }';
  const parts = Object.values(namedType(type).getFields()).flatMap((/** @type {any} */ field) => {
    if (field.args.some((/** @type {any} */ arg) => isNonNull(arg.type))) return [];
    if (isLeaf(field.type)) return [field.name];
    const wrapper = wrappers > 0 && ITEM_WRAPPERS.includes(field.name);
    if ((depth <= 1 && !wrapper) || kindOf(field.type) !== 'GraphQLObjectType') return [];
    return [
      `${field.name} ${wrapper ? selectionOf(field.type, depth, wrappers - 1) : selectionOf(field.type, depth - 1, wrappers)}`,
    ];
  });
  return parts.length ? `{ ${parts.join(' ')} }` : '{ __typename }';
}

/**
 * The GraphQL API of a booted Nest app, or null when it serves none.
 * @param {any} app the INestApplication, initialised
 * @param {{ load: (name: string) => Promise<any>, resolve: (name: string) => string }} fromApp the app's packages
 * @returns {Promise<GraphqlApi | null>}
 */
export async function describeGraphqlApp(app, fromApp) {
  const { ModulesContainer } = await fromApp.load('@nestjs/core');
  // loading @nestjs/graphql costs an app that does not use it a second of boot: only when its module is there
  const modules = [...app.get(ModulesContainer).values()];
  if (!modules.some((module) => module.metatype?.name === 'GraphQLModule')) return null;
  let nestGraphql;
  try {
    nestGraphql = await fromApp.load('@nestjs/graphql');
  } catch {
    return null;
  }
  let schema;
  let options;
  try {
    schema = app.get(nestGraphql.GraphQLSchemaHost, { strict: false }).schema;
    options = app.get(GRAPHQL_MODULE_OPTIONS, { strict: false });
  } catch {
    return null;
  }
  if (!schema) return null;
  // forRootAsync keeps the driver beside the factory, not in the options it builds: the module holds its instance
  const adapter = app.get(nestGraphql.GraphQLModule, { strict: false })?.graphQlAdapter;
  const driver = options?.driver?.name ?? adapter?.constructor?.name ?? 'unknown';
  const integration = APOLLO_DRIVERS.includes(driver)
    ? apolloFastifyPackage(installedVersion(fromApp, '@nestjs/apollo'))
    : null;
  return {
    path: options?.path ?? DEFAULT_PATH,
    driver,
    fastifyIntegration: integration ? { package: integration, installed: resolvable(fromApp, integration) } : null,
    fields: rootFields(schema),
  };
}

/** @nestjs/graphql's injection token for GraphQLModule.forRoot's options (graphql.constants.js; not exported). */
const GRAPHQL_MODULE_OPTIONS = 'GqlModuleOptions';

/**
 * The version of a package the app loads, or null when its package.json cannot be read.
 * @param {{ resolve: (name: string) => string }} fromApp @param {string} name
 */
function installedVersion(fromApp, name) {
  try {
    return String(JSON.parse(readFileSync(fromApp.resolve(`${name}/package.json`), 'utf8')).version);
  } catch {
    return null;
  }
}

/** @param {{ resolve: (name: string) => string }} fromApp @param {string} name */
function resolvable(fromApp, name) {
  try {
    fromApp.resolve(name);
    return true;
  } catch (error) {
    // installed, with no entry require() may load (an ESM-only package)
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'ERR_PACKAGE_PATH_NOT_EXPORTED';
  }
}
