// @ts-check
// The setup `npm run bench` measures without --config: this repository's Nest app on both adapters, the bare
// frameworks it is built over and node:http, on the routes the claim is tested on. Written in the config format and
// validated like any --config file, so the run has one code path.
import {
  BEYOND_SCENARIOS,
  TRANSFER_PAIRS,
  TRANSFER_SCENARIOS,
  TRANSPORT_PAIRS,
  TRANSPORT_SCENARIOS,
  transferTargets,
  transportTargets,
} from './beyond.js';
import { json, missingKeys } from './body-checks.js';
import { validateConfig } from './config.js';
import { PROJECT_ROOT } from './project-root.js';

/** The compiled entrypoints of the app's two adapters, relative to the project root. */
export const APP_ENTRIES = Object.freeze({ express: 'dist/main.js', fastify: 'dist/main.fastify.js' });
const RAW_SCENARIOS = ['hello', 'json'];
const PRODUCT_COUNT = 20;
const QUERY_COUNT = 20;
const ORDER = { productId: 1, quantity: 2 };
const CATALOG_PAGE = 3;
const CATALOG_PAGE_SIZE = 50;
/**
 * The same three-line purchase every time, so every write is alike. Each is a new row and its lines: with the default
 * in-memory SQLite every server starts with no purchases and its table grows only by what this run wrote to it; on
 * MySQL the tables keep what earlier runs wrote (the app's seeding adds, never clears).
 */
const PURCHASE = {
  items: [
    { productId: 1, quantity: 2 },
    { productId: 250, quantity: 1 },
    { productId: 999, quantity: 3 },
  ],
};
/**
 * The mix's shares (percent): reads dominate as in most APIs, the catalogue page most, then single-row reads,
 * authenticated reads, a write and the cheapest route.
 */
const MIX = [
  { scenario: 'catalog', weight: 40 },
  { scenario: 'product-by-id', weight: 25 },
  { scenario: 'secure', weight: 15 },
  { scenario: 'purchases', weight: 10 },
  { scenario: 'hello', weight: 10 },
];
const TEXT = /^text\/(plain|html)(;|$)/;
const JSON_TYPE = /^application\/json(;|$)/;

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

/** The fields every catalogue item has on both stacks. */
const CATALOG_KEYS = ['id', 'name', 'description', 'priceCents', 'category'];

/** @param {any} value */
function checkPurchase(value) {
  const missing = missingKeys(value, ['id', 'items', 'totalCents'], 'the purchase');
  if (missing) return missing;
  if (!Number.isInteger(value.id)) return `the purchase's id is not a number: ${JSON.stringify(value.id)}`;
  if (!Array.isArray(value.items) || value.items.length !== PURCHASE.items.length)
    return `expected ${PURCHASE.items.length} items in the purchase`;
  return Number.isInteger(value.totalCents) ? null : 'the purchase has no whole totalCents';
}

const APP_STACKS = ['bare', 'production'];
const TWINS_ONLY = new Set([...TRANSPORT_SCENARIOS, ...TRANSFER_SCENARIOS].map((scenario) => scenario.name));

/** @param {string} entry relative to the project root */
const nodeTarget = (entry) => ({ command: ['node', entry], cwd: PROJECT_ROOT });

/** The routes the built-in app is measured on; the beyond set's come last (bench/model/beyond.js). */
const SCENARIOS = [
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
          missingKeys(value, PRODUCT_KEYS, 'the product') ?? (value.id === 1 ? null : `expected id 1, got ${value.id}`),
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
  {
    name: 'catalog',
    description: `GET /catalog?page=${CATALOG_PAGE}&pageSize=${CATALOG_PAGE_SIZE} → ${CATALOG_PAGE_SIZE} catalogue items with their category (a 10–30 KB body)`,
    path: `/catalog?page=${CATALOG_PAGE}&pageSize=${CATALOG_PAGE_SIZE}`,
    expect: { status: 200, contentType: JSON_TYPE, body: arrayOf(CATALOG_PAGE_SIZE, CATALOG_KEYS) },
  },
  {
    name: 'purchases',
    description: `POST /purchases with ${PURCHASE.items.length} lines → 201, written in one transaction`,
    method: 'POST',
    path: '/purchases',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(PURCHASE),
    expect: { status: 201, contentType: JSON_TYPE, body: json(checkPurchase) },
  },
  {
    name: 'mix',
    description: `a traffic mix: ${MIX.map((share) => `${share.weight} % ${share.scenario}`).join(', ')}`,
    mix: MIX,
  },
  ...BEYOND_SCENARIOS,
  ...TRANSPORT_SCENARIOS,
];
/**
 * The plain Nest targets, the app as `nest new` makes it, serve every scenario but the ones over TLS or HTTP/2 and
 * the ones that need the transfer routes, which their twins serve.
 */
const PLAIN = SCENARIOS.map((scenario) => scenario.name).filter((name) => !TWINS_ONLY.has(name));
/** Named whatever the shell says, so a server never carries the transfer routes by accident. */
const PLAIN_ENV = { APP_TRANSFER: '0' };

export const BUILTIN_CONFIG = validateConfig(
  {
    targets: [
      {
        name: 'nest-express',
        group: 'nest',
        env: PLAIN_ENV,
        ...nodeTarget(APP_ENTRIES.express),
        stacks: APP_STACKS,
        scenarios: PLAIN,
      },
      {
        name: 'nest-fastify',
        group: 'nest',
        env: PLAIN_ENV,
        ...nodeTarget(APP_ENTRIES.fastify),
        stacks: APP_STACKS,
        scenarios: PLAIN,
      },
      ...transferTargets(nodeTarget, APP_ENTRIES, APP_STACKS),
      ...transportTargets(nodeTarget, APP_ENTRIES),
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
    scenarios: SCENARIOS,
    compare: ['nest-fastify', 'nest-express'],
    // the bare frameworks show how much of the gap is the frameworks themselves; the twins stand in for the compared
    // pair on their profiles (model/compared.js)
    alsoCompare: [['raw-fastify', 'raw-express'], ...TRANSFER_PAIRS, ...TRANSPORT_PAIRS],
    overhead: [
      ['nest-express', 'raw-express'],
      ['nest-fastify', 'raw-fastify'],
    ],
    baseline: 'raw-node',
    // no prepare step here: building the app and writing its files is run/builtin-app.js's
  },
  { source: 'built-in', baseDir: PROJECT_ROOT },
);
