// @ts-check
// Nothing lost: the signed-in principal outlives the run. A write that would remove or change the account
// authenticate() signed in with, or what decides what it may do (its role, its organisation), is not timed (the plan
// says why and how to time it anyway). After each write's check the sign-in is tried again and its /me read compared
// with what it answered before, so a change the plan did not foresee becomes a finding before anything repeats it.

/** The flag that times such a write anyway. */
export const TIME_WRITE_FLAG = '--time-write';

/** A last path segment that stands for the signed-in account itself. */
const SELF_SEGMENTS = new Set(['me', 'self', 'whoami']);
/** The same, for writes that replace or remove it (a POST there usually creates something else). */
const ACCOUNT_SEGMENTS = new Set(['profile', 'account', 'current-user', 'current', 'user']);
/** A last path segment that stands for the signed-in account's own organisation (a collection's name is plural). */
const OWN_ORGANISATION = /^(organi[sz]ation|org|tenant|company|workspace)$/i;
/** What follows an account in a path and changes what it signs in with or may do. */
const IDENTITY_SEGMENT =
  /^(password|e-?mail|username|roles?|status|permissions?|credentials?|(de)?activate|disable|enable|suspend|lock|ban|block|tokens?)$/i;
/** A path segment that names a password or e-mail change (`change-password`, `/me/email`). */
const CREDENTIAL_SEGMENT = /password|e-?mail/i;
/** A last path segment that ends the session the sign-in's token names: every later request would be refused. */
const SIGN_OUT_SEGMENT = /^(log-?out|sign-?out)$/i;
/** Paths that use credentials without changing the signed-in account: a sign-in, a sign-up. */
const SIGN_IN_SEGMENT = /^(log-?in|sign-?in|register|sign-?up|token|refresh)$/i;
/** A body field that proves the account's own password: only a change of the signed-in account sends it. */
const CURRENT_PASSWORD_FIELD = /^(old|current|previous)[-_]?password$/i;
/** A body field that sets a password: the signed-in account's, unless the request names another. */
const NEW_PASSWORD_FIELD = /^new[-_]?password$/i;
/** A body field that names the account a request is about by an id or a one-time secret sent to it. */
const ACCOUNT_KEY_FIELD =
  /^((user|account|member|customer)[-_]?id|(access|reset|verification|confirm(ation)?|password)?[-_]?token|otp([-_]?code)?|code|hash)$/i;
/** A body field that names an account by what it signs in with. */
const ACCOUNT_NAME_FIELD = /^(e-?mail|username|phone([-_]?number)?|mobile)$/i;
/** Path words of a request about an account one is not signed in as: recovering, confirming or setting it up. */
const OTHER_ACCOUNT_WORD = /forgot|reset|recover|verif|confirm|resend|setup|set-up|otp|invit|activat/i;
/** authenticate()'s params that name the signed-in account. */
const IDENTITY_PARAM = /^(user|account|me|principal|profile|member|self)[-_]?(id|uuid|name)?$/i;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Collections of accounts: a short value (an int id) names the signed-in account only under one of these. */
const ACCOUNT_COLLECTION =
  /^(users?|accounts?|members?|profiles?|people|persons?|customers?|admins?|employees?|principals?)$/i;
/** A value this long (a uuid, an e-mail, a token) names the account wherever it stands. */
const DISTINCT_VALUE_LENGTH = 8;

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
const KINDS = {
  account: {
    entity: /^(users?|accounts?|admins?|members?|principals?|profiles?|self|me|customers?|employees?)$/i,
    collection: ACCOUNT_COLLECTION,
    names: 'the account authenticate() signed in',
  },
  role: { entity: /^roles?$/i, collection: /^roles?$/i, names: "the signed-in account's role" },
  organisation: { entity: ORGANISATION, collection: ORGANISATION, names: "the signed-in account's organisation" },
};
/** A field that holds its own object's id. */
const OWN_ID = /^(id|_id|uuid|sub)$/i;
/** A field that holds another entity's id (roleId, tenant_id, roleIds). */
const ENTITY_ID = /^(.+?)[-_]?(id|uuid)s?$/i;
/** Fields an answer or a token wraps the account in. */
const WRAPPER = /^(data|result|payload|attributes)$/i;
/** The account's own fields that sign it in. */
const ACCOUNT_FIELD = /^(email|username)$/i;
/** How deep a token or a /me answer is read: the account, its role, the role's organisation. */
const MOST_DEPTH = 4;

/** @param {string} name @returns {PrincipalKind | null} */
function kindOf(name) {
  const kinds = /** @type {PrincipalKind[]} */ (Object.keys(KINDS));
  return kinds.find((kind) => KINDS[kind].entity.test(name)) ?? null;
}

/** @param {unknown} value */
const scalar = (value) => (typeof value === 'string' && value !== '') || typeof value === 'number';

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
 * @param {SignInWitness | null} [witness] its answer is read when it asks who is signed in (a /me)
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
  if (witness && SELF_READ.test(witness.path))
    values.push(...idsIn(witness.body, 'account', [], `GET ${witness.path}'s `));
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
const signedClaims = (token) => ({ ...jwtPayload(token), jti: undefined });

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
 * Why a write would remove or change the signed-in account, or what it may do (its role, its organisation), or null
 * when it would not.
 * @param {{ method: string, path: string }} route as registered
 * @param {string} url the request it is measured with, path parameters filled
 * @param {unknown} body what it sends
 * @param {PrincipalValue[]} principal principalValues()
 * @returns {string | null}
 */
export function principalChange(route, url, body, principal) {
  if (READ_METHODS.has(route.method)) return null;
  const registered = route.path.split('/').filter(Boolean);
  const last = registered.at(-1)?.toLowerCase() ?? '';
  if (SELF_SEGMENTS.has(last)) return `its path ends in /${last}: it ${verb(route.method)} the signed-in account`;
  if (SIGN_OUT_SEGMENT.test(last)) return `its path ends in /${last}: it ends the session the sign-in's token names`;
  if (ACCOUNT_SEGMENTS.has(last) && route.method !== 'POST')
    return `its path ends in /${last}: it ${verb(route.method)} the signed-in account`;
  if (OWN_ORGANISATION.test(last) && route.method !== 'POST')
    return `its path ends in /${last}, naming no other: it ${verb(route.method)} ${KINDS.organisation.names}`;
  const named = pathNamesPrincipal(route, url, principal);
  if (named) return named;
  const fields = fieldNames(body);
  const current = fields.find((name) => CURRENT_PASSWORD_FIELD.test(name));
  if (current) return `a password change (its body has ${current})`;
  if (namesAnotherAccount(registered, body, principal)) return null;
  if (!registered.some((segment) => SIGN_IN_SEGMENT.test(segment))) {
    const credential = registered.find((segment) => !segment.startsWith(':') && CREDENTIAL_SEGMENT.test(segment));
    if (credential) return `${/password/i.test(credential) ? 'a password' : 'an e-mail'} change (/${credential})`;
  }
  const setsPassword = fields.find((name) => NEW_PASSWORD_FIELD.test(name));
  if (setsPassword) return `a password change (its body has ${setsPassword})`;
  if (registered.some((segment) => SIGN_IN_SEGMENT.test(segment))) return null;
  const inBody = bodyNamesPrincipal(route, body, principal);
  if (inBody) return inBody;
  const identity = identityChange(registered);
  return identity && !namesAnotherAccount(registered, body, principal)
    ? `a ${identity} change (/${registered.join('/')}), and nothing it sends names another account: it changes the signed-in account's`
    : null;
}

/** A body field that names an account by its id: userId, account_id, memberIds. */
const ACCOUNT_ID_FIELD =
  /^(user|account|member|customer|owner|admin|principal|profile|employee|person)[-_]?(id|uuid)s?$/i;
/** A segment that changes how an account is named, what it may do, or what signs it in, as a verb and its object. */
const IDENTITY_VERB =
  /^(change|update|set|edit|rename|assign|grant|revoke|add|remove|reset)[-_]?(user-?name|nick-?name|display-?name|name|roles?|permissions?|privileges?|scopes?|credentials?)$/i;
/** The same as a bare word, after the account it is of (`/me/username`, `/user/roles`). */
const IDENTITY_WORD = /^(user-?name|nick-?name|display-?name|roles?|permissions?|privileges?|scopes?|credentials?)$/i;
/** What a role or permission route does to an account (`/role/assign`, `/permissions/grant`). */
const GRANT_WORD = /^(assign|unassign|grant|revoke|promote|demote)$/i;
const ACCOUNT_OWNER = /^(users?|me|self|profiles?|accounts?|auth|admins?|members?)$/i;

/**
 * What a route's path says it changes of an account, where no parameter names which: a username (`change-username`,
 * `/me/username`), a role or a permission (`/user/roles`, `/role/assign`); null when it says none of these.
 * @param {string[]} registered the path's segments as registered
 * @returns {string | null}
 */
function identityChange(registered) {
  for (const [i, segment] of registered.entries()) {
    if (segment.startsWith(':')) continue;
    const verb = IDENTITY_VERB.exec(segment);
    if (verb) return wordOf(verb[2]);
    if (segment.toLowerCase() === 'rename') return 'name';
    const before = registered[i - 1] ?? '';
    if (IDENTITY_WORD.test(segment) && ACCOUNT_OWNER.test(before)) return wordOf(segment);
    if (GRANT_WORD.test(segment) && /^(roles?|permissions?|privileges?|scopes?)$/i.test(before)) return wordOf(before);
  }
  return null;
}

/** @param {string} word `roles`, `user-name` → role, username */
function wordOf(word) {
  const plain = word.toLowerCase().replace(/[-_]/g, '');
  return plain.endsWith('s') && plain !== 'credentials' ? plain.slice(0, -1) : plain;
}

/**
 * Why a write's body names the signed-in account (`{ "userId": 1 }` where 1 is its id; its e-mail, username or token),
 * or null: a value as long as a uuid names it wherever it stands, a short one under a field named for an account's id
 * or sign-in name. A create (POST) is held to it only where its path changes an account's name, role or rights, or is
 * of accounts: an order that names its owner changes no account.
 * @param {{ method: string, path: string }} route @param {unknown} body @param {PrincipalValue[]} principal
 * @returns {string | null}
 */
function bodyNamesPrincipal(route, body, principal) {
  const registered = route.path.split('/').filter(Boolean);
  const ofAccounts = registered.some((segment) => ACCOUNT_COLLECTION.test(segment));
  if (route.method === 'POST' && !identityChange(registered) && !ofAccounts) return null;
  const accounts = principal.filter((p) => p.kind === 'account');
  for (const { name, value } of fieldValues(body)) {
    const own = accounts.find(
      (p) =>
        p.value === value &&
        (value.length >= DISTINCT_VALUE_LENGTH || ACCOUNT_ID_FIELD.test(name) || ACCOUNT_NAME_FIELD.test(name)),
    );
    if (own) return `its body's ${name} is ${KINDS.account.names} (${own.source}): it ${verb(route.method)} it`;
  }
  return null;
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

/**
 * Why a write's path names the principal (`/users/<its id>`, `…/<its id>/password`), or null.
 * @param {{ method: string, path: string }} route @param {string} url @param {PrincipalValue[]} principal
 */
function pathNamesPrincipal(route, url, principal) {
  const registered = route.path.split('/').filter(Boolean);
  const sent = url.split(/[?#]/)[0].split('/').filter(Boolean).map(safeDecode);
  const nameOf = (/** @type {string} */ segment, /** @type {number} */ i) =>
    principal.find(
      ({ value, kind }) =>
        value === segment &&
        (segment.length >= DISTINCT_VALUE_LENGTH || KINDS[kind].collection.test(registered[i - 1] ?? '')),
    );
  const named = sent.findIndex((segment, i) => nameOf(segment, i) !== undefined);
  if (
    named === -1 ||
    !(named === sent.length - 1 || (named === sent.length - 2 && IDENTITY_SEGMENT.test(sent[named + 1])))
  )
    return null;
  const { kind, source } = /** @type {PrincipalValue} */ (nameOf(sent[named], named));
  return `${registered[named] ?? 'its path'} is ${KINDS[kind].names} (${source}): it ${verb(route.method)} it`;
}

/**
 * A write that can be sent signed out to see whether it is public: its handler reads no body and no segment of its
 * path is one of the principal's values, so, without the sign-in's headers, it names no account of the principal (a
 * password stub under `/forgot-password`, a resend of a confirmation). One that answers 2xx signed out is public, and
 * is timed so.
 * @param {{ method: string, path: string, body?: unknown }} route as discovered: body null when it reads none
 * @param {string} url @param {PrincipalValue[]} principal
 */
export function askableSignedOut(route, url, principal) {
  const sent = url.split(/[?#]/)[0].split('/').filter(Boolean).map(safeDecode);
  const names = sent.some((segment) => principal.some(({ value }) => value === segment));
  return !READ_METHODS.has(route.method) && !route.body && !names;
}

/**
 * Each write that may be public sent once to the app without the sign-in's headers (and with no body): those that
 * answer 2xx are public, and name no account, so they cannot change the signed-in one.
 * @param {import('./authenticate.js').AppClient} client the Express server, while signed in
 * @param {{ route: string, line: string, headers: Record<string, string> }[]} [asks] the plan's signedOutAsks
 * @returns {Promise<Set<string>>} their routes, `METHOD /path` as registered
 */
export async function askSignedOut(client, asks = []) {
  const found = new Set();
  for (const { route, line, headers } of asks) {
    const at = line.indexOf(' ');
    const answer = await client.request(line.slice(0, at), line.slice(at + 1), undefined, headers).catch(() => null);
    if (answer && answer.status >= 200 && answer.status < 300) found.add(route);
  }
  return found;
}

/**
 * A password or e-mail request about another account than the signed-in one: its body names that account by an id or
 * a one-time secret (userId, a reset token, an OTP, a hash), or, on a path that recovers, confirms or sets up an
 * account (forgot-password, register-password-setup), by its e-mail, username or phone; and no value it sends is one
 * of the principal's.
 * @param {string[]} registered the path's segments as registered @param {unknown} body
 * @param {PrincipalValue[]} principal
 */
function namesAnotherAccount(registered, body, principal) {
  const sent = fieldValues(body);
  if (sent.some(({ value }) => principal.some((p) => p.value === value))) return false;
  const flow = registered.some((segment) => !segment.startsWith(':') && OTHER_ACCOUNT_WORD.test(segment));
  return sent.some(
    ({ name }) =>
      ACCOUNT_KEY_FIELD.test(name) || ACCOUNT_ID_FIELD.test(name) || (flow && ACCOUNT_NAME_FIELD.test(name)),
  );
}

/** @param {unknown} body @returns {{ name: string, value: string }[]} every scalar field in it, nested ones too */
function fieldValues(body) {
  if (Array.isArray(body)) return body.flatMap(fieldValues);
  if (!body || typeof body !== 'object') return [];
  return Object.entries(body).flatMap(([name, value]) =>
    scalar(value) ? [{ name, value: String(value) }] : fieldValues(value),
  );
}

/** @param {string} method */
function verb(method) {
  return method === 'DELETE' ? 'removes' : 'changes';
}

/** @param {unknown} body @returns {string[]} every property name in it, nested ones too */
function fieldNames(body) {
  if (Array.isArray(body)) return body.flatMap(fieldNames);
  if (!body || typeof body !== 'object') return [];
  return Object.entries(body).flatMap(([name, value]) => [name, ...fieldNames(value)]);
}

/** @param {string} value */
function safeDecode(value) {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The one line a protected write gets in the routes table.
 * @param {string} why principalChange()
 * @param {{ method: string, path: string }} route
 * @param {string | null} [unsent] why a PATCH or PUT could not be sent its entity's current values (same-values.js)
 */
export function protectedWriteReason(why, route, unsent = null) {
  const same = unsent
    ? `; sending it its own current values, which would change nothing, was not possible: ${unsent}`
    : '';
  return `${why}, so timing it could lose the sign-in, or what it may do, for every other route${same}; to time it anyway (on an account you can lose): ${TIME_WRITE_FLAG} '${route.method} ${route.path}'`;
}

/**
 * A request that shows the sign-in still works and who it is: a signed-in read that answered with the headers and was
 * refused without them. Chosen once, after authenticate(); its answer is what later writes must leave as it was.
 * @typedef {object} SignInWitness
 * @property {string} path
 * @property {number} status
 * @property {unknown} body its answer, signed in
 * @property {string[]} varies the fields that differed between two reads with nothing written between: not compared
 *
 * @typedef {import('../../model/own-app-record.js').SignInChange} SignInChange
 */

/**
 * After each write's check: the witness still answers as before (a /me: with the same answer but for dates and what
 * varies by itself), and authenticate() still signs in. The answer it gives after authenticate() is the next write's baseline,
 * since signing in may change it (a last-login time).
 * @param {object} input
 * @param {((client: import('./authenticate.js').AppClient) => unknown) | null} input.authenticate
 * @param {Record<string, string>} input.headers what every request is sent with
 * @param {SignInWitness | null} input.witness
 * @returns {(client: import('./authenticate.js').AppClient) => Promise<SignInChange | null>} client: the Express
 *   server of the check
 */
export function watchSignIn({ authenticate, headers, witness }) {
  const principal = witness ? principalValues({ headers, params: {} }, witness) : [];
  const recordOf = (/** @type {unknown} */ body) => (witness ? principalRecord(witness.path, body, principal) : null);
  let baseline = recordOf(witness?.body);
  return async (client) => {
    if (witness) {
      const { status, body } = await client.request('GET', witness.path, undefined, headers);
      const was = `with the sign-in's headers, ${witness.status} before`;
      if (status === 401) return { lost: true, why: `GET ${witness.path} answered ${status} ${was}` };
      if (status === 403)
        return { lost: false, why: `GET ${witness.path} answered ${status} ${was}: the principal lost a right` };
      // a refusal of another kind (a 429, a 500) says nothing of the principal: it is not "the same"
      if (status !== witness.status)
        return { lost: false, unread: true, why: `GET ${witness.path} answered ${status} ${was}` };
      const record = recordOf(body);
      // a list's answer changes with every write to its collection: only the principal's own record is compared
      const changed =
        baseline === null
          ? []
          : record === null
            ? [`the principal's record: gone from the list`]
            : answerChanges(baseline, record, witness.varies);
      if (changed.length) {
        // the next write is held to the changed record: this one is what changed it
        baseline = record;
        return { lost: false, why: `GET ${witness.path} answered ${changed.slice(0, MOST_CHANGES_SHOWN).join('; ')}` };
      }
    }
    if (authenticate) {
      try {
        await authenticate(client);
      } catch (error) {
        return {
          lost: true,
          why: `authenticate() failed: ${/** @type {Error} */ (error).message?.split('\n')[0] ?? String(error)}`,
        };
      }
    }
    if (witness) baseline = recordOf((await client.request('GET', witness.path, undefined, headers)).body);
    return null;
  };
}

/** The keys a list answer keeps its items under, when it is not the list itself. */
const LIST_WRAPPERS = ['data', 'items', 'results', 'rows', 'records', 'content', 'list'];

/**
 * The principal's own record in a witness's answer: a read of who is signed in is it whole; in a list (GET /users),
 * the item holding one of the principal's account values (its id, e-mail, username); null where none does.
 * @param {string} path @param {unknown} body @param {PrincipalValue[]} principal
 * @returns {unknown}
 */
export function principalRecord(path, body, principal) {
  if (SELF_READ.test(path)) return body;
  const items = Array.isArray(body)
    ? body
    : isRecord(body)
      ? (LIST_WRAPPERS.map((key) => body[key]).find(Array.isArray) ?? [])
      : [];
  const accounts = principal.filter((p) => p.kind === 'account').map((p) => p.value);
  return (
    items.find(
      (item) =>
        isRecord(item) &&
        Object.entries(item).some(
          ([key, value]) =>
            scalar(value) && (OWN_ID.test(key) || ACCOUNT_FIELD.test(key)) && accounts.includes(String(value)),
        ),
    ) ?? null
  );
}

const MOST_CHANGES_SHOWN = 3;
/** A field named for a time, or a value that is one: it moves by itself (updatedAt, lastLoginAt). */
const TIME_FIELD = /(At|_at|Date|_date|Time|_time)$|^(date|time|timestamp|iat|exp)$/;
const TIME_VALUE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/**
 * Where two answers of one read differ, as `path: before → after`: times and the paths in `ignore` left out.
 * @param {unknown} before @param {unknown} after @param {string[]} [ignore] paths, e.g. data.requestId
 * @returns {string[]}
 */
export function answerChanges(before, after, ignore = []) {
  return differences(before, after, ignore, '').map(({ path, was, now }) => `${path || 'its body'}: ${was} → ${now}`);
}

/**
 * @param {unknown} before @param {unknown} after @param {string[]} ignore @param {string} at
 * @returns {{ path: string, was: string, now: string }[]}
 */
function differences(before, after, ignore, at) {
  if (ignore.includes(at) || TIME_FIELD.test(at.split('.').at(-1) ?? '')) return [];
  // a token signed per read (RealWorld's user.token) is another string each time: compare what it says
  if (typeof before === 'string' && typeof after === 'string' && holdsSignedToken(before) && holdsSignedToken(after))
    return differences(signedClaims(before), signedClaims(after), ignore, at);
  if (Array.isArray(before) && Array.isArray(after)) {
    if (before.length !== after.length) return [{ path: at, was: `${before.length} items`, now: `${after.length}` }];
    return before.flatMap((item, i) => differences(item, after[i], ignore, `${at}[${i}]`));
  }
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => differences(before[key], after[key], ignore, at ? `${at}.${key}` : key));
  }
  if (before === after || (typeof before === 'string' && TIME_VALUE.test(before) && typeof after === 'string'))
    return [];
  return [{ path: at, was: shown(before), now: shown(after) }];
}

/** @param {unknown} value @returns {value is Record<string, unknown>} */
function isRecord(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const MOST_VALUE_CHARS = 40;
/** @param {unknown} value */
function shown(value) {
  if (value === undefined) return 'none';
  const text = JSON.stringify(value);
  return text.length > MOST_VALUE_CHARS ? `${text.slice(0, MOST_VALUE_CHARS)}…` : text;
}

/**
 * The one line a write after which the sign-in stopped working, or answers as another principal, gets.
 * @param {SignInChange} change watchSignIn() @param {string} request e.g. DELETE /api/v1/auth/me
 */
export function lostSignInReason({ lost, why, unread }, request) {
  if (unread)
    return `the signed-in principal's record could not be read after ${request} (${why}), so whether it changed the principal is not known: it is not timed; check the account before the next run`;
  return lost
    ? `signing in stopped working after ${request} (${why}): it changes the signed-in account, so it is not timed; restore the account before the next run`
    : `the signed-in principal's answer changed after ${request} (${why}): it changes the principal or what it may do, so it is not timed, and routes checked after it ran as the changed principal; restore it before the next run`;
}

/** Paths whose name says they answer who is signed in: tried first as the witness. */
const SELF_READ = /\/(me|self|whoami|profile|account|session)$/i;

/**
 * The signed-in reads worth trying as a witness, best first: a /me before a list.
 * @param {string[]} paths GET requests the plan can send, parameters filled
 * @param {number} [most]
 */
export function witnessCandidates(paths, most = 4) {
  return [...paths.filter((p) => SELF_READ.test(p)), ...paths.filter((p) => !SELF_READ.test(p))].slice(0, most);
}

/**
 * The first candidate that answers 2xx with the headers and 401 or 403 without them, with what varies between two of
 * its signed-in answers.
 * @param {import('./authenticate.js').AppClient} client @param {string[]} candidates
 * @param {Record<string, string>} headers
 * @returns {Promise<SignInWitness | null>}
 */
export async function findWitness(client, candidates, headers) {
  for (const path of candidates) {
    const signedIn = await client.request('GET', path, undefined, headers);
    if (signedIn.status < 200 || signedIn.status >= 300) continue;
    const anonymous = await client.request('GET', path);
    if (anonymous.status !== 401 && anonymous.status !== 403) continue;
    const again = await client.request('GET', path, undefined, headers);
    const varies = differences(signedIn.body, again.body, [], '').map((change) => change.path);
    return { path, status: signedIn.status, body: signedIn.body, varies };
  }
  return null;
}

/**
 * A signed-in read that refused the sign-in's headers: it answered 401 with them, as without them.
 * @typedef {{ path: string, status: number, body: unknown }} SignInRefusal
 */

/**
 * Where no witness was found: the first candidate that refuses anonymous requests and answered 401 with the headers
 * too, when none of them let the headers in (a 2xx, or a 403 that knows who asks). A wrong header (`token:` where
 * the app reads `authorization: Bearer …`) is refused everywhere, so it is the setup's mistake, not each route's.
 * @param {import('./authenticate.js').AppClient} client @param {string[]} candidates witnessCandidates()
 * @param {Record<string, string>} headers
 * @returns {Promise<SignInRefusal | null>}
 */
export async function signInRefused(client, candidates, headers) {
  /** @type {SignInRefusal | null} */
  let refused = null;
  for (const path of candidates) {
    const anonymous = await client.request('GET', path);
    if (anonymous.status !== 401 && anonymous.status !== 403) continue;
    const signedIn = await client.request('GET', path, undefined, headers);
    if (signedIn.status !== 401) return null;
    refused ??= { path, status: signedIn.status, body: signedIn.body };
  }
  return refused;
}
