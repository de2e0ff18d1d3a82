// @ts-check
// What a list route's answer holds (id-sources.js reads it for ids): its items, whether the list itself or under a
// usual key, and the value each item holds under an id's keys.

/** The properties a list answer keeps its items under, when it is not the list itself. */
const LIST_KEYS = ['data', 'items', 'results', 'rows', 'records', 'content', 'list', 'nodes', 'edges'];

/**
 * The items of a list answer: the answer itself, or the first list of objects under a usual key (`data`, `items`,
 * `data.items`); GraphQL-style edges give their nodes.
 * @param {unknown} body
 * @returns {Record<string, unknown>[]}
 */
export function listItems(body) {
  const objects = (/** @type {unknown} */ value) =>
    Array.isArray(value) && value.length > 0 && value.every((item) => item && typeof item === 'object');
  if (objects(body))
    return /** @type {Record<string, unknown>[]} */ (body).map((item) =>
      item.node && typeof item.node === 'object' ? /** @type {Record<string, unknown>} */ (item.node) : item,
    );
  if (!body || typeof body !== 'object') return [];
  const record = /** @type {Record<string, unknown>} */ (body);
  for (const key of [...LIST_KEYS, ...Object.keys(record)]) {
    const value = record[key];
    if (objects(value)) return listItems(value);
    if (LIST_KEYS.includes(key) && value && typeof value === 'object' && !Array.isArray(value)) {
      const inner = listItems(value);
      if (inner.length) return inner;
    }
  }
  return [];
}

/**
 * The first value a list answer holds under one of the keys, skipping values that name the signed-in account; a
 * read may still take the account's own when the list holds nothing else, a write (strict) never does.
 * @param {unknown} body @param {string[]} keys @param {string[]} avoid @param {boolean} [strict]
 * @returns {string | number | null}
 */
export function valueFromList(body, keys, avoid = [], strict = false) {
  const values = listedValues(body, keys);
  return values.find((value) => !avoid.includes(String(value))) ?? (strict ? null : (values[0] ?? null));
}

/**
 * Each list item's value under the first of the keys it holds.
 * @param {unknown} body a list answer @param {string[]} keys
 * @returns {(string | number)[]}
 */
export function listedValues(body, keys) {
  return listItems(body).flatMap((item) => {
    const key = keys.find((k) => typeof item[k] === 'string' || typeof item[k] === 'number');
    return key === undefined ? [] : [/** @type {string | number} */ (item[key])];
  });
}
