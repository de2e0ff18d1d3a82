// @ts-check
// The kinds of route the claim is tested on: what to send, and what a correct answer looks like.

/**
 * @typedef {object} Scenario
 * @property {string} name
 * @property {string} description
 * @property {'GET' | 'POST'} method
 * @property {string} path
 * @property {Record<string, string>} headers
 * @property {string} [body]
 * @property {boolean} needsToken sends `Authorization: Bearer <token>` minted for the run
 * @property {number} status expected status
 * @property {RegExp} contentType expected content-type
 * @property {(body: string) => string | null} checkBody null when the body has the expected shape, else why not
 *
 * The request a driver sends for one scenario.
 * @typedef {{ method: string, path: string, headers: Record<string, string>, body: string | undefined }} ScenarioRequest
 */

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

export const SCENARIOS = Object.freeze(
  /** @type {Scenario[]} */ ([
    {
      name: 'hello',
      description: 'GET / → "Hello World!" as text',
      method: 'GET',
      path: '/',
      headers: {},
      needsToken: false,
      status: 200,
      contentType: TEXT,
      checkBody: (body) =>
        body === 'Hello World!' ? null : `expected "Hello World!", got ${JSON.stringify(body.slice(0, 80))}`,
    },
    {
      name: 'json',
      description: 'GET /json → a small JSON object',
      method: 'GET',
      path: '/json',
      headers: {},
      needsToken: false,
      status: 200,
      contentType: JSON_TYPE,
      checkBody: (body) =>
        body === '{"message":"Hello, World!"}'
          ? null
          : `expected {"message":"Hello, World!"}, got ${JSON.stringify(body.slice(0, 80))}`,
    },
    {
      name: 'products',
      description: 'GET /products → 20 rows through TypeORM',
      method: 'GET',
      path: '/products',
      headers: {},
      needsToken: false,
      status: 200,
      contentType: JSON_TYPE,
      checkBody: products,
    },
    {
      name: 'products-raw',
      description: 'GET /products/raw → the same 20 rows through the driver, no ORM',
      method: 'GET',
      path: '/products/raw',
      headers: {},
      needsToken: false,
      status: 200,
      contentType: JSON_TYPE,
      checkBody: products,
    },
    {
      name: 'product-by-id',
      description: 'GET /products/1 → one row',
      method: 'GET',
      path: '/products/1',
      headers: {},
      needsToken: false,
      status: 200,
      contentType: JSON_TYPE,
      checkBody: json(
        (value) =>
          missingKeys(value, PRODUCT_KEYS, 'the product') ?? (value.id === 1 ? null : `expected id 1, got ${value.id}`),
      ),
    },
    {
      name: 'queries',
      description: `GET /queries?count=${QUERY_COUNT} → ${QUERY_COUNT} single-row lookups`,
      method: 'GET',
      path: `/queries?count=${QUERY_COUNT}`,
      headers: {},
      needsToken: false,
      status: 200,
      contentType: JSON_TYPE,
      checkBody: arrayOf(QUERY_COUNT, ['id', 'randomNumber']),
    },
    {
      name: 'secure',
      description: 'GET /secure/products with a valid JWT → the 20 rows',
      method: 'GET',
      path: '/secure/products',
      headers: {},
      needsToken: true,
      status: 200,
      contentType: JSON_TYPE,
      checkBody: products,
    },
    {
      name: 'orders',
      description: 'POST /orders with a valid JSON body → 201',
      method: 'POST',
      path: '/orders',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ORDER),
      needsToken: false,
      status: 201,
      contentType: JSON_TYPE,
      checkBody: json(
        (value) =>
          missingKeys(value, Object.keys(ORDER), 'the order') ??
          (value.productId === ORDER.productId && value.quantity === ORDER.quantity
            ? null
            : 'the order does not echo productId and quantity'),
      ),
    },
  ]),
);

export const SCENARIO_NAMES = SCENARIOS.map((s) => s.name);

/** @param {string} name */
export function scenarioByName(name) {
  const scenario = SCENARIOS.find((s) => s.name === name);
  if (!scenario) throw new Error(`unknown scenario "${name}"`);
  return scenario;
}

/**
 * The concrete request for a scenario in this run.
 * @param {Scenario} scenario
 * @param {{ token: string | null }} context the token minted for the run (null when it could not be minted)
 * @returns {ScenarioRequest}
 */
export function requestFor(scenario, { token }) {
  const headers = { ...scenario.headers };
  if (scenario.needsToken && token) headers.authorization = `Bearer ${token}`;
  return { method: scenario.method, path: scenario.path, headers, body: scenario.body };
}
