// @ts-check
// A body schema with the values taken from the app pinned in (ids from a list answer, --params by field path) and the
// optional fields no value was found for left out, so the body derived from it (example-body.js) carries them.

/** @typedef {import('./body-schema.js').BodySchema} BodySchema */

/**
 * The schema with each filled field pinned to its value, so the derived body carries it.
 * @param {BodySchema} schema @param {Record<string, unknown>} fields by field path (`role.id`, `tags[].id`)
 * @param {string[]} [omit] optional fields to leave out, by path
 * @returns {BodySchema}
 */
export function withValues(schema, fields, omit = []) {
  let result = omit.reduce(withoutProperty, schema);
  for (const [path, value] of Object.entries(fields)) result = pinned(result, path.split('.'), value);
  return result;
}

/** @param {BodySchema} schema @param {string} path a property's path (`photo`, `address.photoId`) */
function withoutProperty(schema, path) {
  const [head, ...rest] = path.split('.');
  const properties = { ...schema.properties };
  if (rest.length === 0) delete properties[head];
  else if (properties[head]) properties[head] = withoutProperty(properties[head], rest.join('.'));
  return { ...schema, properties };
}

/** @param {BodySchema} schema @param {string[]} path @param {unknown} value @returns {BodySchema} */
function pinned(schema, path, value) {
  const [head, ...rest] = path;
  const many = head.endsWith('[]');
  const name = many ? head.slice(0, -2) : head;
  const property = schema.properties?.[name] ?? {};
  const inner = many || property.type === 'array' ? (property.items ?? {}) : property;
  const next = rest.length ? pinned(inner, rest, value) : { ...inner, enum: [typed(inner, value)] };
  return {
    ...schema,
    properties: {
      ...schema.properties,
      [name]: many || property.type === 'array' ? { ...property, type: 'array', items: next } : next,
    },
  };
}

/** A value as the field's type wants it: an int id from a query string as a number, a number as text for a string. */
function typed(/** @type {BodySchema} */ schema, /** @type {unknown} */ value) {
  if ((schema.type === 'integer' || schema.type === 'number') && typeof value === 'string' && value.trim() !== '')
    return Number.isNaN(Number(value)) ? value : Number(value);
  if (schema.type === 'string' && typeof value === 'number') return String(value);
  return value;
}
