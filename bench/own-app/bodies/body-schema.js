// @ts-check
// What a route's body must look like, from what the app already declares: class-validator's rules on its DTO
// classes and the OpenAPI document @nestjs/swagger builds, as one JSON-Schema subset. Pure: the launcher reads the
// metadata inside the app's process and hands it here as plain objects.
import { validatorExample } from './validator-examples.js';

/**
 * The JSON-Schema subset a body is derived from.
 * @typedef {object} BodySchema
 * @property {'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean'} [type]
 * @property {Record<string, BodySchema>} [properties]
 * @property {string[]} [required]
 * @property {BodySchema} [items]
 * @property {number} [minItems]
 * @property {string} [format] email, uri, uuid, date-time, date
 * @property {number} [minLength]
 * @property {number} [maxLength]
 * @property {string} [pattern]
 * @property {unknown[]} [enum]
 * @property {number} [minimum]
 * @property {number} [maximum]
 * @property {string} [example] a value the app's validator accepts where no rule above says it (a phone number for
 *   @IsPhoneNumber('RU'), a postal code): sent as it is
 *
 * One class-validator decorator on one property, as its metadata storage keeps it.
 * @typedef {object} ValidationRule
 * @property {string} property
 * @property {string} name the validator: isEmail, minLength, isOptional, nestedValidation, ...
 * @property {unknown[]} constraints
 * @property {boolean} each applies to each item of an array
 *
 * A DTO class as the launcher read it.
 * @typedef {object} ClassShape
 * @property {string} name
 * @property {ValidationRule[]} rules
 * @property {Record<string, string>} designTypes a property's TypeScript type as emitted: String, Number, Array, ...
 * @property {Record<string, ClassShape>} nested a nested DTO's shape, by property
 */

/** @type {Record<string, BodySchema>} */
const TYPE_OF_VALIDATOR = {
  isString: { type: 'string' },
  isNotEmpty: {},
  isEmail: { type: 'string', format: 'email' },
  isUrl: { type: 'string', format: 'uri' },
  isUUID: { type: 'string', format: 'uuid' },
  isDateString: { type: 'string', format: 'date-time' },
  isISO8601: { type: 'string', format: 'date-time' },
  isDate: { type: 'string', format: 'date-time' },
  isAlphanumeric: { type: 'string', pattern: '^[a-zA-Z0-9]+$' },
  isInt: { type: 'integer' },
  isNumber: { type: 'number' },
  isPositive: { minimum: 1 },
  isNegative: { maximum: -1 },
  isBoolean: { type: 'boolean' },
  isArray: { type: 'array' },
  arrayNotEmpty: { type: 'array', minItems: 1 },
  isObject: { type: 'object' },
};
const DESIGN_TYPES = /** @type {Record<string, BodySchema>} */ ({
  String: { type: 'string' },
  Number: { type: 'number' },
  Boolean: { type: 'boolean' },
  Array: { type: 'array' },
  Date: { type: 'string', format: 'date-time' },
});

/**
 * A DTO's schema from its class-validator rules (and the emitted types of the properties they decorate).
 * @param {ClassShape} shape
 * @returns {BodySchema}
 */
export function schemaFromValidation(shape) {
  /** @type {Record<string, BodySchema>} */
  const properties = {};
  const optional = new Set();
  for (const rule of shape.rules) {
    if (skipsWhenMissing(rule)) {
      optional.add(rule.property);
      continue;
    }
    const own = ruleSchema(rule, shape.nested[rule.property]);
    const current = properties[rule.property] ?? { ...DESIGN_TYPES[shape.designTypes[rule.property] ?? ''] };
    properties[rule.property] = rule.each
      ? { ...current, type: 'array', items: { ...current.items, ...own } }
      : { ...current, ...own, ...(current.items ? { items: current.items } : {}) };
  }
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((property) => !optional.has(property)),
  };
}

/**
 * Whether a rule lets its property be left out: `@IsOptional()`, which class-validator before 0.14.1 records without
 * a name, as a condition false for a missing or null property (RealWorld's DTOs on 0.14.0); a `@ValidateIf()` on
 * anything else is not.
 * @param {ValidationRule} rule
 */
function skipsWhenMissing({ name, property, constraints }) {
  if (name === 'isOptional') return true;
  const [condition] = constraints;
  if (name !== 'conditionalValidation' || typeof condition !== 'function') return false;
  const holds = (/** @type {unknown} */ value) => {
    try {
      return Boolean(condition({ [property]: value }, value));
    } catch {
      return null;
    }
  };
  return holds(undefined) === false && holds(null) === false && holds('x') === true;
}

/**
 * @param {ValidationRule} rule @param {ClassShape | undefined} nested
 * @returns {BodySchema}
 */
function ruleSchema({ name, constraints }, nested) {
  const [first, second] = constraints;
  switch (name) {
    case 'nestedValidation':
      return nested ? schemaFromValidation(nested) : { type: 'object' };
    case 'minLength':
      return { type: 'string', minLength: Number(first) };
    case 'maxLength':
      return { type: 'string', maxLength: Number(first) };
    case 'length':
      return {
        type: 'string',
        minLength: Number(first),
        ...(second === undefined ? {} : { maxLength: Number(second) }),
      };
    case 'min':
      return { minimum: Number(first) };
    case 'max':
      return { maximum: Number(first) };
    case 'arrayMinSize':
      return { type: 'array', minItems: Number(first) };
    case 'isIn':
      return { enum: Array.isArray(first) ? first : [] };
    case 'isEnum':
      return { enum: enumValues(first, second) };
    case 'matches':
      return { type: 'string', pattern: first instanceof RegExp ? first.source : String(first) };
    default: {
      const example = validatorExample(name, constraints);
      return example === null ? (TYPE_OF_VALIDATOR[name] ?? {}) : { type: 'string', example };
    }
  }
}

/**
 * An enum's allowed values: class-validator keeps the enum object; a numeric TypeScript enum maps names to numbers
 * and back, so its numbers are the values.
 * @param {unknown} entity @param {unknown} validEntries
 */
export function enumValues(entity, validEntries) {
  if (Array.isArray(validEntries) && validEntries.length) return validEntries;
  const values = Object.values(/** @type {object} */ (entity ?? {}));
  const numbers = values.filter((value) => typeof value === 'number');
  return numbers.length ? numbers : values;
}

/**
 * A schema from an OpenAPI document, $refs and allOf resolved.
 * @param {{ components?: { schemas?: Record<string, any> } }} document
 * @param {any} schema
 * @param {Set<string>} [seen] refs being resolved: a DTO that contains itself stops there
 * @returns {BodySchema}
 */
export function resolveOpenApi(document, schema, seen = new Set()) {
  if (!schema || typeof schema !== 'object') return {};
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').at(-1);
    if (seen.has(name)) return { type: 'object' };
    return resolveOpenApi(document, document.components?.schemas?.[name], new Set([...seen, name]));
  }
  if (Array.isArray(schema.allOf))
    return schema.allOf.reduce(
      (/** @type {BodySchema} */ merged, /** @type {any} */ part) =>
        mergeSchemas(merged, resolveOpenApi(document, part, seen)),
      {},
    );
  /** @type {BodySchema} */
  const result = {};
  for (const key of /** @type {const} */ ([
    'type',
    'format',
    'minLength',
    'maxLength',
    'pattern',
    'enum',
    'minimum',
    'maximum',
    'minItems',
    'required',
  ]))
    if (schema[key] !== undefined) /** @type {any} */ (result)[key] = schema[key];
  if (schema.exclusiveMinimum !== undefined)
    result.minimum = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : schema.minimum + 1;
  if (schema.properties)
    result.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, value]) => [name, resolveOpenApi(document, value, seen)]),
    );
  if (schema.items) result.items = resolveOpenApi(document, schema.items, seen);
  if (!result.type && result.properties) result.type = 'object';
  return result;
}

/**
 * Two descriptions of one body as one: properties and required fields of both, and where both say something of one
 * property, the second wins (class-validator's rules are what the app enforces; the OpenAPI document describes).
 * @param {BodySchema} first @param {BodySchema} second
 * @param {boolean} [enforced] the second is what the app enforces: a field it describes and does not require is
 *   optional (`@IsOptional()`), whatever the first says. The OpenAPI document names a nested DTO by its class name
 *   only, so RealWorld's three `UserData` classes share the sign-up's, where every field is required.
 * @returns {BodySchema}
 */
export function mergeSchemas(first, second, enforced = false) {
  const merged = { ...first, ...second };
  if (first.properties || second.properties) {
    const names = new Set([...Object.keys(first.properties ?? {}), ...Object.keys(second.properties ?? {})]);
    merged.properties = Object.fromEntries(
      [...names].map((name) => [
        name,
        mergeSchemas(first.properties?.[name] ?? {}, second.properties?.[name] ?? {}, enforced),
      ]),
    );
  }
  if (first.required || second.required) {
    const optional = (/** @type {string} */ name) =>
      enforced && name in (second.properties ?? {}) && !second.required?.includes(name);
    merged.required = [...new Set([...(first.required ?? []), ...(second.required ?? [])])].filter(
      (name) => !optional(name),
    );
  }
  if (first.items || second.items) merged.items = mergeSchemas(first.items ?? {}, second.items ?? {}, enforced);
  return merged;
}

/** The schema a `@Body()` parameter's own declared type gives. */
const DECLARED_TYPES = /** @type {Record<string, BodySchema>} */ ({
  String: { type: 'string' },
  Number: { type: 'number' },
  Boolean: { type: 'boolean' },
  Array: { type: 'array' },
});

/**
 * A `@Body()` parameter's schema: what its DTO describes, else what its declared type says. A class with no decorators
 * (project_5's `User`), an interface or an untyped parameter (emitted as `Object`, or nothing) is an object, sent as
 * JSON, never as a line of text with no content type.
 * @param {string | null} typeName the parameter's emitted type: String, Object, a class's name; null when none
 * @param {BodySchema} [described] from the OpenAPI document and class-validator
 * @returns {BodySchema}
 */
export function declaredSchema(typeName, described = {}) {
  if (described.type || described.properties || described.enum) return described;
  return { ...described, ...(DECLARED_TYPES[typeName ?? ''] ?? { type: 'object' }) };
}

/**
 * The body a handler reads: its whole body (`@Body() dto`) or named fields of it (`@Body('user') dto`), each with its
 * DTO's schema.
 * @param {{ key: string | null, schema: BodySchema }[]} params the handler's @Body parameters
 * @returns {BodySchema}
 */
export function bodySchema(params) {
  const whole = params.find((param) => param.key === null);
  const named = params.filter((param) => param.key !== null);
  const fields = {
    type: /** @type {const} */ ('object'),
    properties: Object.fromEntries(named.map((param) => [param.key, param.schema])),
    required: named.map((param) => /** @type {string} */ (param.key)),
  };
  if (!whole) return fields;
  return named.length ? mergeSchemas(whole.schema, fields) : whole.schema;
}
