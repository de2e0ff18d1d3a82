// @ts-check
// The setup `npm run bench` measures without --config: this repository's Nest app on both adapters, the bare
// frameworks it is built over and node:http, on the routes the claim is tested on. Written in the config format and
// validated like any --config file, so the run has one code path.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { APP_ENTRIES, ensureBuilt } from './build.js';
import { validateConfig } from './config.js';
import { PROJECT_ROOT } from './project-root.js';

/** The token must outlive the longest run anyone would start. */
const TOKEN_TTL_SECONDS = 24 * 3600;
const TOKEN_MODULE = join(PROJECT_ROOT, 'dist', 'auth', 'token.js');
const RAW_SCENARIOS = ['hello', 'json'];
const PRODUCT_COUNT = 20;
const QUERY_COUNT = 20;
const ORDER = { productId: 1, quantity: 2 };
const TEXT = /^text\/(plain|html)(;|$)/;
const JSON_TYPE = /^application\/json(;|$)/;

/** @param {string} body */
function parseJson(body) {
  try {
    return { value: JSON.parse(body) };
  } catch {
    return { error: `body is not JSON: ${JSON.stringify(body.slice(0, 80))}` };
  }
}

/**
 * @param {(value: any) => string | null} check
 * @returns {(body: string) => string | null}
 */
function json(check) {
  return (body) => {
    const parsed = parseJson(body);
    return 'error' in parsed ? /** @type {string} */ (parsed.error) : check(parsed.value);
  };
}

/** @param {any} value @param {string[]} keys @param {string} what */
function missingKeys(value, keys, what) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `${what} is not an object`;
  const missing = keys.filter((key) => !(key in value));
  return missing.length ? `${what} has no ${missing.join(', ')}` : null;
}

/** @param {number} length @param {string[]} keys */
function arrayOf(length, keys) {
  return json((value) => {
    if (!Array.isArray(value)) return 'body is not a JSON array';
    if (value.length !== length) return `expected ${length} items, got ${value.length}`;
    return value.map((item, i) => missingKeys(item, keys, `item ${i}`)).find((reason) => reason !== null) ?? null;
  });
}

/** The columns every product row has whatever else the app adds. */
const PRODUCT_KEYS = ['id', 'name'];
const products = arrayOf(PRODUCT_COUNT, PRODUCT_KEYS);

/** @param {string} entry relative to the project root */
const nodeTarget = (entry) => ({ command: ['node', entry], cwd: PROJECT_ROOT });

export const BUILTIN_CONFIG = validateConfig(
  {
    targets: [
      { name: 'nest-express', group: 'nest', ...nodeTarget(APP_ENTRIES.express) },
      { name: 'nest-fastify', group: 'nest', ...nodeTarget(APP_ENTRIES.fastify) },
      { name: 'raw-node', group: 'node', ...nodeTarget('bench/run/servers/raw-node.js'), scenarios: RAW_SCENARIOS },
      {
        name: 'raw-express',
        group: 'raw',
        ...nodeTarget('bench/run/servers/raw-express.js'),
        scenarios: RAW_SCENARIOS,
      },
      {
        name: 'raw-fastify',
        group: 'raw',
        ...nodeTarget('bench/run/servers/raw-fastify.js'),
        scenarios: RAW_SCENARIOS,
      },
      { name: 'raw-hono', group: 'hono', ...nodeTarget('bench/run/servers/raw-hono.js'), scenarios: RAW_SCENARIOS },
    ],
    scenarios: [
      {
        name: 'hello',
        description: 'GET / → "Hello World!" as text',
        path: '/',
        expect: { status: 200, contentType: TEXT, body: 'Hello World!' },
      },
      {
        name: 'json',
        description: 'GET /json → a small JSON object',
        path: '/json',
        expect: { status: 200, contentType: JSON_TYPE, body: '{"message":"Hello, World!"}' },
      },
      {
        name: 'products',
        description: 'GET /products → 20 rows through TypeORM',
        path: '/products',
        expect: { status: 200, contentType: JSON_TYPE, body: products },
      },
      {
        name: 'products-raw',
        description: 'GET /products/raw → the same 20 rows through the driver, no ORM',
        path: '/products/raw',
        expect: { status: 200, contentType: JSON_TYPE, body: products },
      },
      {
        name: 'product-by-id',
        description: 'GET /products/1 → one row',
        path: '/products/1',
        expect: {
          status: 200,
          contentType: JSON_TYPE,
          body: json(
            (value) =>
              missingKeys(value, PRODUCT_KEYS, 'the product') ??
              (value.id === 1 ? null : `expected id 1, got ${value.id}`),
          ),
        },
      },
      {
        name: 'queries',
        description: `GET /queries?count=${QUERY_COUNT} → ${QUERY_COUNT} single-row lookups`,
        path: `/queries?count=${QUERY_COUNT}`,
        expect: { status: 200, contentType: JSON_TYPE, body: arrayOf(QUERY_COUNT, ['id', 'randomNumber']) },
      },
      {
        name: 'secure',
        description: 'GET /secure/products with a valid JWT → the 20 rows',
        path: '/secure/products',
        needsToken: true,
        expect: { status: 200, contentType: JSON_TYPE, body: products },
      },
      {
        name: 'orders',
        description: 'POST /orders with a valid JSON body → 201',
        method: 'POST',
        path: '/orders',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ORDER),
        expect: {
          status: 201,
          contentType: JSON_TYPE,
          body: json(
            (value) =>
              missingKeys(value, Object.keys(ORDER), 'the order') ??
              (value.productId === ORDER.productId && value.quantity === ORDER.quantity
                ? null
                : 'the order does not echo productId and quantity'),
          ),
        },
      },
    ],
    compare: ['nest-fastify', 'nest-express'],
    // the bare frameworks show how much of the gap is the frameworks themselves
    alsoCompare: [['raw-fastify', 'raw-express']],
    overhead: [
      ['nest-express', 'raw-express'],
      ['nest-fastify', 'raw-fastify'],
    ],
    baseline: 'raw-node',
    prepare: prepareApp,
  },
  { source: 'built-in', baseDir: PROJECT_ROOT },
);

/**
 * Build the app when a Nest target runs; give every target this run's JWT secret and the secure scenario a token.
 * @type {import('./config.js').PrepareStep}
 */
async function prepareApp({ targets, scenarios, log }) {
  if (targets.some((name) => name.startsWith('nest-'))) ensureBuilt(log);
  const secret = randomBytes(32).toString('hex');
  const needsToken = BUILTIN_CONFIG.scenarios.some((s) => s.needsToken && scenarios.includes(s.name));
  return { env: { JWT_SECRET: secret }, token: needsToken ? await mintToken(secret, log) : null };
}

/**
 * A bearer token for the secure scenario, signed with this run's secret by the app's own helper.
 * @param {string} secret
 * @param {(line: string) => void} log
 * @returns {Promise<string | null>} null when the compiled helper is missing (the secure pairs then fail verification)
 */
async function mintToken(secret, log) {
  if (!existsSync(TOKEN_MODULE)) {
    log(`note: ${TOKEN_MODULE} not found, so no token for the secure scenario`);
    return null;
  }
  try {
    const { signToken } = await import(pathToFileURL(TOKEN_MODULE).href);
    return signToken(secret, TOKEN_TTL_SECONDS);
  } catch (error) {
    log(`note: could not mint a token for the secure scenario: ${/** @type {Error} */ (error).message}`);
    return null;
  }
}
