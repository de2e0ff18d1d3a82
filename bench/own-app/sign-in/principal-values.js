// @ts-check
// What names the signed-in principal: the token and what it says, authenticate()'s params, a /me read's ids; the
// writes judge (principal-writes.js) and the witness (principal.js) both read it.

/** authenticate()'s params that name the signed-in account. */
const IDENTITY_PARAM = /^(user|account|me|principal|profile|member|self)[-_]?(id|uuid|name)?$/i;
/** Collections of accounts: a short value (an int id) names the signed-in account only under one of these. */
export const ACCOUNT_COLLECTION =
  /^(users?|accounts?|members?|profiles?|people|persons?|customers?|admins?|employees?|principals?)$/i;
/** A value this long (a uuid, an e-mail, a token) names the account wherever it stands. */
export const DISTINCT_VALUE_LENGTH = 8;

/**
 * What a value from the sign-in names: the account itself, or what decides what it may do.
 * @typedef {'account' | 'role' | 'organisation'} PrincipalKind
 *
 * @typedef {object} PrincipalValue
 * @property {string} value
 * @property {PrincipalKind} kind
 * @property {string} source where the bench read it: the token's roleId, GET /me's data.role.id, ...
 */

const ORGANISATION = /^(organi[sz]ations?|orgs?|tenants?|compan(y|ies)|workspaces?|teams?)$/i;
/**
 * What names each kind: entity, a field or an object's key; collection, the path segment a short id stands under.
 * @type {Record<PrincipalKind, { entity: RegExp, collection: RegExp, names: string }>}
 */
export const KINDS = {
  account: {
    entity: /^(users?|accounts?|admins?|members?|principals?|profiles?|self|me|customers?|employees?)$/i,
    collection: ACCOUNT_COLLECTION,
    names: 'the account authenticate() signed in',
  },
  role: { entity: /^roles?$/i, collection: /^roles?$/i, names: "the signed-in account's role" },
  organisation: { entity: ORGANISATION, collection: ORGANISATION, names: "the signed-in account's organisation" },
};
/** A field that holds its own object's id. */
export const OWN_ID = /^(id|_id|uuid|sub)$/i;
/** A field that holds another entity's id (roleId, tenant_id, roleIds). */
const ENTITY_ID = /^(.+?)[-_]?(id|uuid)s?$/i;
/** Fields an answer or a token wraps the account in. */
const WRAPPER = /^(data|result|payload|attributes)$/i;
/** The account's own fields that sign it in. */
export const ACCOUNT_FIELD = /^(email|username)$/i;
/** How deep a token or a /me answer is read: the account, its role, the role's organisation. */
const MOST_DEPTH = 4;

/** @param {string} name @returns {PrincipalKind | null} */
function kindOf(name) {
  const kinds = /** @type {PrincipalKind[]} */ (Object.keys(KINDS));
  return kinds.find((kind) => KINDS[kind].entity.test(name)) ?? null;
}

/** @param {unknown} value */
export const scalar = (value) => (typeof value === 'string' && value !== '') || typeof value === 'number';

/**
 * The ids a token's claims or a /me answer hold for the account, its role and its organisation: its own id, roleId,
 * role.id, roles[].id, tenantId, organisation.id; other objects (its posts, its avatar) are not read.
 * @param {unknown} node @param {PrincipalKind | null} kind what node is @param {string[]} at its path
 * @param {string} source e.g. the token's @returns {PrincipalValue[]}
 */
function idsIn(node, kind, at, source, depth = 0) {
  if (!node || typeof node !== 'object' || Array.isArray(node) || depth > MOST_DEPTH) return [];
  /** @param {unknown} value @param {PrincipalKind} of @param {string} path */
  const found = (value, of, path) =>
    scalar(value) ? [{ value: String(value), kind: of, source: `${source}${path}` }] : [];
  return Object.entries(node).flatMap(([key, value]) => {
    const path = [...at, key].join('.');
    if (OWN_ID.test(key)) return kind ? found(value, kind, path) : [];
    if (kind === 'account' && ACCOUNT_FIELD.test(key)) return found(value, kind, path);
    if (WRAPPER.test(key)) return idsIn(value, kind, [...at, key], source, depth + 1);
    const named = kindOf(key);
    const referenced = named ? null : ENTITY_ID.exec(key);
    const of = named ?? (referenced ? kindOf(referenced[1]) : null);
    if (!of) return [];
    const items = Array.isArray(value) ? value : [value];
    return items.flatMap((item, i) => {
      const itemPath = Array.isArray(value) ? `${path}[${i}]` : path;
      if (scalar(item)) return found(item, of, itemPath);
      return referenced ? [] : idsIn(item, of, itemPath.split('.'), source, depth + 1);
    });
  });
}

/**
 * What names the signed-in principal: the token itself, what it says (sub, id, email, roleId, tenantId, ...; read,
 * not verified), authenticate()'s params named for a user, role or organisation, and the ids a /me read answered.
 * @param {import('./authenticate.js').Credentials} credentials
 * @param {import('./principal.js').SignInWitness | null} [witness] each of its answers is read when it asks who is
 *   signed in (a /me)
 * @returns {PrincipalValue[]}
 */
export function principalValues({ headers, params }, witness = null) {
  /** @type {PrincipalValue[]} */
  const values = Object.entries(params).flatMap(([name, value]) => {
    const referenced = ENTITY_ID.exec(name);
    const kind = IDENTITY_PARAM.test(name) ? 'account' : referenced ? kindOf(referenced[1]) : null;
    return kind && value !== '' ? [{ value, kind, source: `authenticate()'s params.${name}` }] : [];
  });
  for (const header of Object.values(headers)) {
    const token = header.replace(/^(Bearer|Token|JWT)\s+/i, '').trim();
    if (token.length >= 16) values.push({ value: token, kind: 'account', source: 'the token' });
    values.push(...idsIn(jwtPayload(token), 'account', [], "the token's "));
  }
  for (const read of witness ? [witness, ...(witness.others ?? [])] : [])
    if (SELF_READ.test(read.path)) values.push(...idsIn(read.body, 'account', [], `GET ${read.path}'s `));
  // one value may name two things (user 1 and role 1): each kind keeps it
  return values.filter(
    (one, i) => values.findIndex((other) => other.value === one.value && other.kind === one.kind) === i,
  );
}

/**
 * Every value the bearer token carries (roleId, tenantId, organisationId as well as the account's own): a write to
 * the entity one of them names changes what the sign-in may do.
 * @param {Record<string, string>} headers
 * @returns {string[]}
 */
export function tokenClaimValues(headers) {
  return Object.values(headers).flatMap((header) =>
    Object.values(jwtPayload(header.replace(/^(Bearer|Token|JWT)\s+/i, '').trim()) ?? {})
      .filter((value) => typeof value === 'string' || typeof value === 'number')
      .map(String),
  );
}

/**
 * Whether an answer holds a token signed when it was asked for (a JWT with its `iat`): such an answer is another on
 * every request, though two within one second read alike.
 * @param {unknown} value
 * @returns {boolean}
 */
export function holdsSignedToken(value) {
  if (typeof value === 'string') return typeof jwtPayload(value)?.iat === 'number';
  if (Array.isArray(value)) return value.some(holdsSignedToken);
  return isRecord(value) && Object.values(value).some(holdsSignedToken);
}

/** A signed token's claims but its own id (`jti`, another per token); its times are left out as any time is. @param {string} token */
export const signedClaims = (token) => ({ ...jwtPayload(token), jti: undefined });

/** @param {string} token @returns {Record<string, unknown> | null} */
function jwtPayload(token) {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    return payload && typeof payload === 'object' ? payload : null;
  } catch {
    return null;
  }
}

/**
 * The principal's values an id of an entity may be: one as long as a uuid (or an e-mail, a token) wherever it stands;
 * a short one (an int id) only for an entity of its kind, since product 1 and user 1 are two rows.
 * @param {string} entity what the id names, singular: product, user, role
 * @param {PrincipalValue[]} principal @param {string[]} [claims] the token's other values (tokenClaimValues)
 * @returns {string[]}
 */
export function principalValuesFor(entity, principal, claims = []) {
  const ofPrincipal = Object.values(KINDS).some(({ collection }) => collection.test(entity));
  return [
    ...principal
      .filter(({ value, kind }) => value.length >= DISTINCT_VALUE_LENGTH || KINDS[kind].collection.test(entity))
      .map(({ value }) => value),
    ...claims.filter((value) => value.length >= DISTINCT_VALUE_LENGTH || ofPrincipal),
  ];
}

/** @param {unknown} value @returns {value is Record<string, unknown>} */
export function isRecord(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Paths whose name says they answer who is signed in: tried first as the witness. */
export const SELF_READ = /\/(me|self|whoami|profile|account|session)$/i;
