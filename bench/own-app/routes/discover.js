// @ts-check
// The routes of a user's module as Nest itself registered them, global prefix and versioning applied: the launcher boots
// the module on Express with the user's configure(app), reads Nest's own route graph (SerializedGraph) and exits.
import { UsageError, errorLine } from '../../errors.js';
import { REFUSAL_PREFIX } from '../launch/launcher-env.js';
import { runLauncher } from '../launch/launcher-run.js';

/**
 * @typedef {object} Route
 * @property {string} method GET, POST, ... (ALL for an All() route)
 * @property {string} path as registered, e.g. /api/v1/users/:id
 * @property {string} handler Controller.method
 * @property {string | string[] | null} version the route's version when the app uses versioning
 * @property {{ schema: import('../bodies/body-schema.js').BodySchema, sources: string[] } | null} [body] what its handler's
 *   body must look like (launcher.js); null: it reads none
 *
 * @typedef {{ type: 'uri' | 'header' | 'media-type' | 'custom', header: string | null, key: string | null }} Versioning
 * @typedef {{ routes: Route[], versioning: Versioning | null, swaggerError?: string | null,
 *   graphql?: import('../graphql/graphql-schema.js').GraphqlApi | null,
 *   throttlers?: import('../launch/throttle.js').ThrottlerGuardFound[] }} Discovered
 *   swaggerError: why @nestjs/swagger could not build the app's OpenAPI document; graphql: the GraphQL API it serves;
 *   throttlers: its @nestjs/throttler guards (launch/throttle.js)
 */

const DISCOVERY_TIMEOUT_MS = 60_000;

/**
 * @param {import('../launch/packages.js').NestApp} app
 * @returns {Promise<Discovered>}
 * @throws {UsageError} the module cannot be loaded, has no @Module export to use, or does not start
 */
export async function discoverRoutes(app) {
  const { code, stdout, stderr } = await runLauncher(app, 'express', { NEST_APP_ROUTES: '1' }, DISCOVERY_TIMEOUT_MS);
  const refusal = stderr.split('\n').find((line) => line.startsWith(REFUSAL_PREFIX));
  if (refusal) throw new UsageError(`--nest-app: ${refusal.slice(REFUSAL_PREFIX.length)}`);
  if (code !== 0)
    throw new UsageError(
      `${app.mainFile ? '--nest-main: main' : '--nest-app: the module'} did not start on Express: ${errorLine(stderr)}`,
    );
  try {
    return /** @type {Discovered} */ (JSON.parse(stdout.trim().split('\n').at(-1) ?? ''));
  } catch {
    throw new UsageError(`--nest-app: the launcher printed no routes: ${errorLine(stderr)}`);
  }
}

/**
 * One line per route, as --list-routes prints them: `GET /api/users/:id`, with the version when it is not in the path.
 * @param {Discovered} discovered
 */
export function routeLines({ routes, versioning, graphql }) {
  const lines = routes.map(({ method, path, version }) =>
    version !== null && versioning && versioning.type !== 'uri'
      ? `${method} ${path} (version ${[version].flat().join(',')})`
      : `${method} ${path}`,
  );
  if (!graphql) return lines;
  const count = (/** @type {string} */ kind) => graphql.fields.filter((field) => field.kind === kind).length;
  const kinds = ['query', 'mutation', 'subscription'].flatMap((kind) =>
    count(kind) ? [`${count(kind)} ${count(kind) === 1 ? kind : kind === 'query' ? 'queries' : `${kind}s`}`] : [],
  );
  return [...lines, `POST ${graphql.path} (GraphQL, ${graphql.driver}: ${kinds.join(', ') || 'no operations'})`];
}
