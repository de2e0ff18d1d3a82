// @ts-check
// GraphQL is an API like the others: its endpoint is listed with the routes, and each operation the app serves is a
// scenario of its own (a POST of the operation, with authenticate()'s headers), checked to answer without `errors` on
// both adapters before it is timed. Operations come from a file the user gives (--graphql-queries), and else from
// the schema's root queries whose arguments --params or authenticate() fill; the log's operation names weigh them.
import { graphqlErrors } from './graphql-answers.js';
import { schemaOperations } from './graphql-operations.js';
import { FILE, QUERIES_FLAG, avoidedIds, derivedVariables, listQueries, withoutFiles } from './graphql-values.js';
import { mutationPrincipalChange } from '../sign-in/principal-writes.js';
import { severalFiles, graphqlUpload, graphqlUploadBody } from '../bodies/upload-form.js';

/** @typedef {import('./graphql-schema.js').GraphqlApi} GraphqlApi */
/** The header Apollo Server's CSRF prevention lets a multipart request through with. */
const PREFLIGHT_HEADER = 'apollo-require-preflight';
/** @typedef {import('../routes/app-config.js').RouteEntry} RouteEntry */

/** @typedef {import('./graphql-operations.js').GraphqlOperation} GraphqlOperation */

/**
 * The variables an operation is sent with, from --params and authenticate()'s params by name, typed as declared.
 * @param {GraphqlOperation} operation @param {Record<string, string>} params
 * @returns {{ variables: Record<string, unknown> } | { missing: string[] }}
 */
export function operationVariables(operation, params) {
  const missing = operation.variables.filter((v) => v.required && params[v.name] === undefined && !isUpload(v.type));
  if (missing.length) return { missing: missing.map((v) => `$${v.name} (${v.type})`) };
  return {
    variables: Object.fromEntries(
      operation.variables.flatMap((v) => {
        if (params[v.name] !== undefined) return [[v.name, typed(v.type, params[v.name])]];
        // a file, as the schema's own Upload arguments are sent (several for a list)
        if (!v.required || !isUpload(v.type)) return [];
        return [[v.name, v.type.startsWith('[') ? Array.from({ length: severalFiles(null) }, () => FILE) : FILE]];
      }),
    ),
  };
}

/** @param {string} type a variable's type as declared: `Upload!`, `[Upload!]!` */
const isUpload = (type) => type.replace(/[[\]!]/g, '') === 'Upload';

/** @param {string} type e.g. `Int!`, `[ID!]` @param {string} value */
function typed(type, value) {
  const list = type.startsWith('[');
  const named = type.replace(/[[\]!]/g, '');
  /** @type {unknown} */
  let single = value;
  if (named === 'Int' || named === 'Float') single = Number(value);
  else if (named === 'Boolean') single = value === 'true';
  else if (!['ID', 'String'].includes(named)) {
    try {
      single = JSON.parse(value);
    } catch {
      single = value;
    }
  }
  return list && !Array.isArray(single) ? [single] : single;
}

/**
 * The GraphQL endpoint and its operations as routes and scenarios.
 * @param {object} input
 * @param {GraphqlApi} input.api
 * @param {GraphqlOperation[]} input.fileOperations --graphql-queries
 * @param {Record<string, string>} input.params --params and authenticate()'s
 * @param {Record<string, string>} input.headers sent with every request
 * @param {Map<string, number>} input.logged requests per operation name in the traffic log ('': those without one)
 * @param {Map<string, unknown>} [input.lists] the answers of the list queries (graphqlListRequests), by field
 * @param {import('./graphql-values.js').PrincipalGuard} [input.guard] what names the signed-in principal: no id
 *   taken from a list is one of its own, and a derived mutation that names it or changes its name, role or rights is
 *   listed, not sent, as a REST write is
 * @param {import('../sign-in/authenticate.js').SignInRequest[]} [input.signInRequests] what authenticate() sent: its sign-in
 *   operation is sent as it was, where no file gives one
 * @param {{ rule: string, where: string } | null} [input.uploadParser] what parses a multipart request on Express, where
 *   the scan found it (graphqlUploadExpress in app.use)
 * @returns {{ routes: RouteEntry[], scenarios: Record<string, unknown>[] }}
 */
export function planGraphql({
  api,
  fileOperations,
  params,
  headers,
  logged,
  lists = new Map(),
  guard = { principal: [], claims: [] },
  signInRequests = [],
  uploadParser = null,
}) {
  const { preexisting } = guard;
  const sources = { params, lists, preexisting, listed: listQueries(api.fields), avoidFor: avoidedIds(guard) };
  const mine = [...fileOperations, ...signInOperations(signInRequests, api.path, fileOperations)];
  const covered = new Set(mine.map((op) => op.field));
  const operations = [...mine, ...schemaOperations(api.fields).filter((op) => !covered.has(op.field))];
  /** @type {Record<string, unknown>[]} */
  const scenarios = [];
  const used = new Set();
  const counted = new Set();
  const countFor = (/** @type {GraphqlOperation} */ op) => {
    const name = [...logged.keys()].find((n) => n !== '' && !counted.has(n) && sameOperation(n, op));
    if (name === undefined) return 0;
    counted.add(name);
    return logged.get(name) ?? 0;
  };
  const routes = operations.map((op) => {
    const entry = {
      method: 'POST',
      path: api.path,
      handler: `GraphQL ${op.kind} ${op.name}`,
      scenario: /** @type {string | null} */ (null),
      request: /** @type {string | null} */ (null),
      notMeasured: /** @type {string | null} */ (null),
      logged: countFor(op),
      graphql: op.kind,
    };
    if (op.unfillable) return { ...entry, notMeasured: op.unfillable };
    const filled = op.given
      ? { variables: op.given }
      : op.args
        ? derivedVariables({ name: op.name, kind: op.kind, args: op.args }, sources)
        : operationVariables(op, params);
    if ('missing' in filled) return { ...entry, notMeasured: missingVariables(op, filled.missing, params) };
    // the schema's own mutations are derived by the bench: a file's, or the sign-in's, are the user's as given
    const changes =
      op.args && op.kind === 'mutation' ? mutationPrincipalChange(op.name, filled.variables, guard.principal) : null;
    if (changes) return { ...entry, notMeasured: protectedMutationReason(changes) };
    const name = uniqueName(`graphql-${kebab(op.name)}`, used);
    const named = op.operationName && fileOperations.length > 1 ? op.operationName : null;
    const { request, upload } = operationRequest(op.document, named, filled.variables, { headers, uploadParser });
    scenarios.push({ name, description: `GraphQL ${op.kind} ${op.name}`, method: 'POST', path: api.path, ...request });
    return {
      ...entry,
      scenario: name,
      request: `POST ${api.path} ${op.kind} ${op.name}`,
      ...(upload ? { upload } : {}),
    };
  });
  const strays = [...logged].filter(([name]) => name !== '' && !counted.has(name));
  return {
    routes: [
      endpointRow(api, logged.get('') ?? 0),
      ...routes,
      ...strays.map(([name, count]) => ({
        method: 'POST',
        path: api.path,
        handler: `GraphQL operation ${name}`,
        scenario: null,
        request: null,
        notMeasured: `in the log, and neither a root field nor in ${QUERIES_FLAG}: give its document there`,
        logged: count,
        graphql: /** @type {const} */ ('query'),
      })),
    ],
    scenarios,
  };
}

/**
 * An operation's headers and body: JSON, or with files (`Upload` variables) a GraphQL multipart request. A header a
 * browser's simple request cannot send goes with the latter: Apollo Server's CSRF prevention refuses a multipart POST
 * without one (400), whatever the adapter.
 * @param {string} query @param {string | null} operationName sent where the document holds several
 * @param {Record<string, unknown>} filled the variables, FILE where a file goes
 * @param {{ headers: Record<string, string>, uploadParser: { rule: string, where: string } | null }} sent
 * @returns {{ request: { headers?: Record<string, string>, body: unknown },
 *   upload: import('../bodies/upload-form.js').UploadSent | null }}
 */
function operationRequest(query, operationName, filled, { headers, uploadParser }) {
  const { variables, files } = withoutFiles(filled);
  const operation = {
    query,
    ...(operationName ? { operationName } : {}),
    ...(Object.keys(variables).length ? { variables } : {}),
  };
  if (!files.length)
    return { request: { ...(Object.keys(headers).length ? { headers } : {}), body: operation }, upload: null };
  const upload = graphqlUpload(files, uploadParser);
  const form = graphqlUploadBody(upload, { variables, ...operation });
  return {
    request: { headers: { ...headers, 'content-type': form.contentType, [PREFLIGHT_HEADER]: 'true' }, body: form.body },
    upload,
  };
}

/**
 * Why an operation has no variables to be sent with: the derived value's own line, or the flags that give them.
 * @param {GraphqlOperation} op @param {string | string[]} missing @param {Record<string, string>} params
 */
function missingVariables(op, missing, params) {
  if (typeof missing === 'string') return missing;
  const flags = op.variables
    .filter((v) => v.required && params[v.name] === undefined)
    .map((v) => `${v.name}=VALUE`)
    .join(',');
  return `no value for ${missing.join(', ')}: give --params ${flags}, or return it as params from authenticate()`;
}

/**
 * The one line a derived mutation that would change the signed-in principal gets in the routes table.
 * @param {string} why mutationPrincipalChange()
 */
function protectedMutationReason(why) {
  return `${why}, so timing it could lose the sign-in, or what it may do, for every other route; to time it anyway (on an account you can lose), give it as a named operation in ${QUERIES_FLAG} FILE`;
}

/**
 * The endpoint's own row: what serves it, and the package a driver lacks on Fastify.
 * @param {GraphqlApi} api @param {number} logged requests to it that named no operation
 * @returns {RouteEntry}
 */
function endpointRow(api, logged) {
  const missing = api.fastifyIntegration && !api.fastifyIntegration.installed ? api.fastifyIntegration.package : null;
  return {
    method: 'POST',
    path: api.path,
    handler: `GraphQL endpoint (${api.driver})`,
    scenario: null,
    request: null,
    graphql: 'endpoint',
    notMeasured: missing
      ? `${api.driver} serves GraphQL on Fastify through ${missing}, which is not installed beside the app: Fastify cannot serve it; run npm i ${missing} in the app's folder`
      : 'each operation below is a scenario of its own',
    logged,
  };
}

/** A logged operation name and an operation: the same name, or a root field called as the name says (GetBooks). */
function sameOperation(/** @type {string} */ logged, /** @type {GraphqlOperation} */ op) {
  const plain = (/** @type {string} */ name) => name.toLowerCase().replace(/^(get|fetch|query|bench)/, '');
  return logged === op.operationName || logged === op.name || plain(logged) === plain(op.name);
}

/** @param {string} name */
function kebab(name) {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[^\w-]+/g, '-')
    .toLowerCase();
}

/** @param {string} name @param {Set<string>} used */
function uniqueName(name, used) {
  let candidate = name;
  for (let n = 2; used.has(candidate); n++) candidate = `${name}-${n}`;
  used.add(candidate);
  return candidate;
}

/**
 * The requests of a traffic log to the GraphQL endpoint, by operation name ('' for those that name none).
 * @param {import('../routes/traffic.js').TrafficLog | null} traffic @param {string} path
 * @returns {Map<string, number>}
 */
export function graphqlTraffic(traffic, path) {
  const counts = new Map();
  for (const request of traffic?.requests ?? []) {
    if (request.url.split('?')[0].replace(/\/$/, '') !== path) continue;
    const name = request.operation ?? '';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

/**
 * A plan with the GraphQL endpoint's routes and scenarios added; the log's requests to it count as matched.
 * @param {import('../routes/app-config.js').OwnAppPlan} plan
 * @param {{ routes: RouteEntry[], scenarios: Record<string, unknown>[] }} graphql planGraphql()
 * @returns {import('../routes/app-config.js').OwnAppPlan}
 */
export function withGraphql(plan, graphql) {
  const matched = graphql.routes.reduce((sum, r) => sum + r.logged, 0);
  return {
    ...plan,
    routes: [...plan.routes, ...graphql.routes],
    scenarios: [...plan.scenarios, ...graphql.scenarios],
    traffic: plan.traffic && {
      ...plan.traffic,
      matched: plan.traffic.matched + matched,
      unmatched: plan.traffic.unmatched - matched,
    },
  };
}

/**
 * The answers of the schema's list queries (root queries without required arguments), each sent once to the running
 * app, signed in: the ids the derived variables take. An answer with errors, or not a 2xx, is left out.
 * @param {import('../sign-in/authenticate.js').AppClient} client @param {GraphqlApi} api
 * @param {Record<string, string>} headers
 * @returns {Promise<Map<string, unknown>>} by query field
 */
export async function fetchGraphqlLists(client, api, headers) {
  const answers = new Map();
  const operations = schemaOperations(api.fields);
  for (const { field } of listQueries(api.fields)) {
    const document = operations.find((op) => op.field === field)?.document;
    const answer = await client.request('POST', api.path, { query: document }, headers).catch(() => null);
    if (answer && answer.status >= 200 && answer.status < 300 && graphqlErrors(answer.body) === null)
      answers.set(field, answer.body);
  }
  return answers;
}

/**
 * The operations authenticate() sent to the endpoint (its sign-in), each as it was sent: a root field the file does
 * not give is measured with the document and variables the app accepted.
 * @param {import('../sign-in/authenticate.js').SignInRequest[]} requests @param {string} path the endpoint
 * @param {GraphqlOperation[]} fileOperations
 * @returns {GraphqlOperation[]}
 */
export function signInOperations(requests, path, fileOperations) {
  const given = new Set(fileOperations.map((op) => op.field));
  return requests.flatMap(({ method, url, value }) => {
    const body = /** @type {{ query?: unknown, variables?: unknown, operationName?: unknown }} */ (value ?? {});
    if (method !== 'POST' || url.split('?')[0] !== path || typeof body.query !== 'string') return [];
    const field = /^[^{]*\{\s*(\w+)/.exec(body.query)?.[1];
    if (!field || given.has(field)) return [];
    given.add(field);
    return [
      {
        name: field,
        kind: /^\s*mutation\b/.test(body.query) ? /** @type {const} */ ('mutation') : /** @type {const} */ ('query'),
        document: body.query,
        operationName: typeof body.operationName === 'string' ? body.operationName : null,
        variables: [],
        field,
        unfillable: null,
        given: /** @type {Record<string, unknown>} */ (body.variables ?? {}),
      },
    ];
  });
}
