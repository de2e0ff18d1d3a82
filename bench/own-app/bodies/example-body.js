// @ts-check
// A valid body from a route's schema (body-schema.js): every declared field filled within its rules, and free text
// made unique per request (UNIQUE_PLACEHOLDER), so a write of an email, a username or a title that becomes a slug
// does not collide with the one before.
import { SHORTEST_UNIQUE_VALUE, UNIQUE_PLACEHOLDER, UNIQUE_VALUE_LENGTH } from '../../run/unique-values.js';

/** Dates are fixed, so a body differs between requests only where it must. */
const EXAMPLE_DATE = '2026-01-02T03:04:05.000Z';
const EXAMPLE_UUID = '6f1c2a1e-6b1d-4c57-9a55-0d0b4f1e8c3a';
const PAD = 'x';

/** @typedef {import('./body-schema.js').BodySchema} BodySchema */

/**
 * @param {BodySchema} schema
 * @param {string} [name] the property it fills: free text starts with it (`title…`, `username…`)
 * @returns {unknown}
 */
export function exampleValue(schema, name = 'value') {
  if (schema.enum?.length) return schema.enum[0];
  switch (schema.type ?? (schema.properties ? 'object' : 'string')) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([property, value]) => [property, exampleValue(value, property)]),
      );
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () =>
        exampleValue(schema.items ?? { type: 'string' }, name),
      );
    case 'integer':
      return withinBounds(schema, 1);
    case 'number':
      return withinBounds(schema, 1);
    case 'boolean':
      return true;
    default:
      return exampleString(schema, name);
  }
}

/** @param {BodySchema} schema @param {number} preferred */
function withinBounds({ minimum, maximum }, preferred) {
  const low = minimum ?? -Infinity;
  const high = maximum ?? Infinity;
  return Math.min(Math.max(preferred, low), high);
}

/** Text fields whose name says what they hold, where the DTO declares no format (`@IsNotEmpty() email`). */
const FORMAT_BY_NAME = [
  { name: /e-?mail$/i, format: 'email' },
  { name: /(url|uri|link)$/i, format: 'uri' },
];

/**
 * What a placeholder may become, for a pattern to be tested against: letters only, digits only, the longest.
 * A value the pattern takes for each of these does not depend on the run's tag.
 */
const UNIQUE_SAMPLES = [
  'a'.repeat(SHORTEST_UNIQUE_VALUE),
  '0'.repeat(SHORTEST_UNIQUE_VALUE),
  'z'.repeat(UNIQUE_VALUE_LENGTH),
];

/**
 * Prefixes that give a string what a password rule's lookaheads ask for (`@Matches(/^(?=.*[A-Z])(?=.*\d)…/)`): an
 * upper and a lower case letter, a digit and one of the specials such rules list.
 */
const PATTERN_PREFIXES = ['Aa1!', 'Aa1@', 'Aa1#', 'Aa1-'];

/**
 * A string of the schema that its pattern (`@Matches`) takes: the plain one where it does, else the first with a
 * prefix; where none does, the plain one (the route then answers 400 and the report asks for --body).
 * @param {BodySchema} schema @param {string} name
 */
function exampleString(schema, name) {
  const plain = plainString(schema, name);
  if (schema.pattern === undefined || typeof plain !== 'string') return plain;
  let pattern;
  try {
    pattern = new RegExp(schema.pattern);
  } catch {
    return plain;
  }
  const takes = (/** @type {string} */ value) =>
    UNIQUE_SAMPLES.every((sample) => pattern.test(value.replaceAll(UNIQUE_PLACEHOLDER, sample)));
  const fits = (/** @type {string} */ value) =>
    value.replaceAll(UNIQUE_PLACEHOLDER, UNIQUE_SAMPLES[2]).length <= (schema.maxLength ?? Infinity);
  const candidates = [plain, ...PATTERN_PREFIXES.map((prefix) => `${prefix}${plain}`)];
  return candidates.find((value) => fits(value) && takes(value)) ?? plain;
}

/** @param {BodySchema} schema @param {string} name */
function plainString({ format, example, minLength = 0, maxLength = Infinity }, name) {
  if (example !== undefined) return example;
  switch (format ?? FORMAT_BY_NAME.find((rule) => rule.name.test(name))?.format) {
    case 'email':
      return `b${UNIQUE_PLACEHOLDER}@example.com`;
    case 'uri':
      return `https://example.com/${UNIQUE_PLACEHOLDER}`;
    case 'uuid':
      return EXAMPLE_UUID;
    case 'date-time':
      return EXAMPLE_DATE;
    case 'date':
      return EXAMPLE_DATE.slice(0, 10);
  }
  const prefix = name.replace(/[^a-zA-Z]/g, '').toLowerCase() || 'value';
  if (maxLength < UNIQUE_VALUE_LENGTH + 1) return PAD.repeat(Math.min(maxLength, Math.max(minLength, 1)));
  const kept = prefix.slice(0, maxLength - UNIQUE_VALUE_LENGTH);
  return `${kept}${UNIQUE_PLACEHOLDER}${PAD.repeat(Math.max(0, minLength - kept.length - SHORTEST_UNIQUE_VALUE))}`;
}

/**
 * The body to send, as JSON with its placeholders.
 * @param {BodySchema} schema
 */
export function exampleBody(schema) {
  return JSON.stringify(exampleValue(schema));
}
