// @ts-check
// Where the operations a GraphQL run sends come from: the named operations of a file the user gives
// (--graphql-queries), parsed with the app's own graphql package, or else the schema's root fields, each as an
// operation of its own.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { UsageError } from '../../errors.js';
import { QUERIES_FLAG, mutationRefusal, sentArgument } from './graphql-values.js';

/**
 * An operation the bench can send.
 * @typedef {object} GraphqlOperation
 * @property {string} name its operation name (from a file), else the root field it asks
 * @property {'query' | 'mutation' | 'subscription'} kind
 * @property {string} document the text sent as `query`
 * @property {string | null} operationName sent as `operationName` when the document holds several
 * @property {{ name: string, type: string, required: boolean }[]} variables
 * @property {string | null} field the root field it asks first, for a schema field it stands in for
 * @property {string | null} unfillable why the schema's own operation is not sent: a subscription, a mutation that
 *   deletes or changes the sign-in
 * @property {import('./graphql-schema.js').GraphqlArgument[]} [args] the schema's own operation: its field's
 *   arguments, whose variables are derived (graphql-values.js)
 * @property {Record<string, unknown>} [given] the variables it is sent with as they are: authenticate()'s own
 */

/**
 * The named operations of a .graphql file, parsed with the app's own `graphql` package; the whole file is sent with
 * each, its operationName picking one.
 * @param {string} file @param {string} moduleFile the app's module: graphql is loaded from its folder
 * @returns {GraphqlOperation[]}
 * @throws {UsageError} unreadable, not GraphQL, an operation without a name, or no operation
 */
export function readOperations(file, moduleFile) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `${QUERIES_FLAG} ${file}: cannot read it (${/** @type {NodeJS.ErrnoException} */ (error).code})`,
    );
  }
  let parse;
  try {
    parse = createRequire(moduleFile)('graphql').parse;
  } catch {
    throw new UsageError(`${QUERIES_FLAG} ${file}: the app has no graphql package beside ${moduleFile}`);
  }
  let document;
  try {
    document = parse(text);
  } catch (error) {
    throw new UsageError(`${QUERIES_FLAG} ${file}: ${/** @type {Error} */ (error).message.split('\n')[0]}`);
  }
  return operationsOf(document, text, file);
}

/**
 * @param {any} document a parsed DocumentNode @param {string} text @param {string} file
 * @returns {GraphqlOperation[]}
 */
export function operationsOf(document, text, file) {
  const operations = document.definitions.filter((/** @type {any} */ d) => d.kind === 'OperationDefinition');
  if (operations.length === 0) throw new UsageError(`${QUERIES_FLAG} ${file}: no query or mutation in it`);
  const unnamed = operations.find((/** @type {any} */ d) => !d.name);
  if (unnamed && operations.length > 1)
    throw new UsageError(`${QUERIES_FLAG} ${file}: name each operation (query Name { ... }) when the file has several`);
  return operations.map((/** @type {any} */ d) => ({
    name: d.name?.value ?? d.selectionSet.selections[0]?.name?.value ?? 'operation',
    kind: d.operation,
    document: text,
    operationName: d.name?.value ?? null,
    variables: (d.variableDefinitions ?? []).map((/** @type {any} */ v) => ({
      name: v.variable.name.value,
      type: typeText(v.type),
      required: v.type.kind === 'NonNullType' && !v.defaultValue,
    })),
    field: d.selectionSet.selections[0]?.name?.value ?? null,
    unfillable: null,
  }));
}

/** @param {any} node a TypeNode @returns {string} */
function typeText(node) {
  if (node.kind === 'NonNullType') return `${typeText(node.type)}!`;
  if (node.kind === 'ListType') return `[${typeText(node.type)}]`;
  return node.name.value;
}

/**
 * The schema's own operations: each root query with its required arguments as variables, each mutation with all of
 * its own (sentArgument), derived from their types when sent. A mutation that deletes or changes the sign-in is left
 * out; subscriptions do not answer a request.
 * @param {import('./graphql-schema.js').GraphqlField[]} fields
 * @returns {GraphqlOperation[]}
 */
export function schemaOperations(fields) {
  return fields.map((field) => {
    const sent = field.args.filter((arg) => sentArgument(field.kind, arg));
    const declared = sent.map((arg) => `$${arg.name}: ${arg.type}`).join(', ');
    const passed = sent.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
    const refused = field.kind === 'mutation' ? mutationRefusal(field.name) : null;
    return {
      name: field.name,
      kind: field.kind,
      document:
        `${field.kind} ${operationNameFor(field.name)}${declared ? `(${declared})` : ''} { ${field.name}${passed ? `(${passed})` : ''} ${field.selection} }`.replace(
          /\s+}$/,
          ' }',
        ),
      operationName: null,
      variables: sent.map(({ name, type, required }) => ({ name, type, required })),
      field: field.name,
      args: field.args,
      unfillable:
        field.kind === 'subscription'
          ? 'a subscription: it answers over a socket, not a request the bench can time'
          : refused && `${refused}; give it as a named operation in ${QUERIES_FLAG} FILE to time it anyway`,
    };
  });
}

/** @param {string} field `books` → BenchBooks: a name the log and the report can show */
function operationNameFor(field) {
  return `Bench${field[0].toUpperCase()}${field.slice(1)}`;
}
