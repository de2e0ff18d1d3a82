// @ts-check
// Which writes would remove or change the signed-in account, or what it may do (its role, its organisation): those
// are not timed, and the plan says why and how to time them anyway.
import { ACCOUNT_COLLECTION, DISTINCT_VALUE_LENGTH, KINDS, isRecord, scalar } from './principal-values.js';

/** @typedef {import('./principal-values.js').PrincipalValue} PrincipalValue */

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
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

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
  // `/users/:userId/profile` is the profile its parameter names: the principal's only where that is its id (below)
  const ofNamed = registered.at(-2)?.startsWith(':') ?? false;
  if (ACCOUNT_SEGMENTS.has(last) && route.method !== 'POST' && !ofNamed)
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
  const named = accountNamedIn(body, principal);
  return named
    ? `its body's ${named.name} is ${KINDS.account.names} (${named.source}): it ${verb(route.method)} it`
    : null;
}

/**
 * The first field of a body (or a mutation's variables) that names the signed-in account: a value as long as a uuid
 * wherever it stands, a short one under a field named for an account's id or sign-in name.
 * @param {unknown} body @param {PrincipalValue[]} principal
 * @returns {{ name: string, source: string } | null}
 */
function accountNamedIn(body, principal) {
  const accounts = principal.filter((p) => p.kind === 'account');
  for (const { name, value } of fieldValues(body)) {
    const own = accounts.find(
      (p) =>
        p.value === value &&
        (value.length >= DISTINCT_VALUE_LENGTH || ACCOUNT_ID_FIELD.test(name) || ACCOUNT_NAME_FIELD.test(name)),
    );
    if (own) return { name, source: own.source };
  }
  return null;
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
    !(
      named === sent.length - 1 ||
      (named === sent.length - 2 &&
        (IDENTITY_SEGMENT.test(sent[named + 1]) || ACCOUNT_SEGMENTS.has(sent[named + 1].toLowerCase())))
    )
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

/** A mutation's first word that makes something new, or removes what it names. */
const CREATE_WORD = /^(create|add|insert|register)$/i;
const DESTRUCTIVE_WORD = /^(delete|remove|destroy|purge|drop|erase)$/i;
/** A mutation's argument (or its filter's field) that names the entity it is for. */
const OWN_ID_NAME = /^(id|_id|uuid)$/i;
/** A mutation's argument that picks the entity it is for by its fields (TypeORM's where). */
const FILTER_NAME = /^(where|filter)$/;
/** A mutation that signs in or up with credentials, changing no account: login, signUp, refreshToken. */
const SIGN_IN_WORDS = /(^|-)(log-?in|sign-?in|sign-?up|register|token|refresh)(-|$)/;
/** Words around the account in a mutation's name that say it is the signed-in one's own: updateMyProfile, updateMe. */
const OWN_WORD = /^(me|my|self|myself|profile|account|current)$/i;
/**
 * The words of a mutation's name, a compound account word kept whole: updateUserName → update, username.
 * @param {string} name
 */
function nameWords(name) {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .split(/[-_\s]+/)
    .filter(Boolean);
  return words.flatMap((word, i) =>
    word === 'name' && /^(user|nick|display)$/.test(words[i - 1] ?? '')
      ? []
      : /^(user|nick|display)$/.test(word) && words[i + 1] === 'name'
        ? [`${word}name`]
        : [word],
  );
}

/**
 * What a mutation's name says it changes of an account: a username or name (changeUsername, updateMyName, renameUser),
 * a role or a permission (assignRole, grantUserPermission, updateUserRoles); null when it says none of these.
 * @param {string[]} words nameWords()
 */
function mutationIdentityChange(words) {
  const [first = '', ...rest] = words;
  const verb = IDENTITY_VERB.exec(words.join('-'));
  if (verb) return wordOf(verb[2]);
  if (first === 'rename' && rest.every((word) => ACCOUNT_OWNER.test(word) || OWN_WORD.test(word))) return 'name';
  const right = rest.find((word) => /^(roles?|permissions?|privileges?|scopes?)$/.test(word));
  if (right && GRANT_WORD.test(first)) return wordOf(right);
  // after the account it is of: updateUserRoles, updateMyName (createRole makes a role, of no account)
  const at = rest.findIndex((word) => IDENTITY_WORD.test(word) || word === 'name');
  const owner = rest.slice(0, at);
  const ofAccount = owner.length > 0 && owner.every((word) => ACCOUNT_OWNER.test(word) || OWN_WORD.test(word));
  return at !== -1 && ofAccount ? wordOf(rest[at]) : null;
}

/**
 * Why a GraphQL mutation would change the signed-in account or what it may do, judged as a REST write is: its own id
 * names the principal (updateUser with its id, updateRole with its role's), it is the account's own (updateMe,
 * updateMyProfile), its variables name the account (its id under userId, its username, e-mail or token) or prove or
 * set its password, or its name changes an account's name, role or rights and nothing it sends names another account;
 * null when it would not.
 * @param {string} name the root field @param {Record<string, unknown>} variables as they would be sent
 * @param {PrincipalValue[]} principal
 * @returns {string | null}
 */
export function mutationPrincipalChange(name, variables, principal) {
  const words = nameWords(name);
  const [first = '', ...rest] = words;
  if (SIGN_IN_WORDS.test(words.join('-'))) return null;
  const create = CREATE_WORD.test(first);
  const changes = DESTRUCTIVE_WORD.test(first) ? 'removes' : 'changes';
  const entity = rest.find((word) => !OWN_WORD.test(word)) ?? '';
  const ownId = Object.entries(variables).flatMap(([key, value]) =>
    OWN_ID_NAME.test(key) ? [String(value)] : isRecord(value) && FILTER_NAME.test(key) ? ownIds(value) : [],
  );
  const self = rest.some((word) => OWN_WORD.test(word)) && rest.every((word) => OWN_WORD.test(word) || word === 'user');
  if (self && !create && !ownId.length) return `mutation ${name} is the signed-in account's own: it ${changes} it`;
  const of = principal.find(
    ({ value, kind }) =>
      ownId.includes(value) && (value.length >= DISTINCT_VALUE_LENGTH || KINDS[kind].collection.test(entity)),
  );
  if (of && !create) return `its ${entity} id is ${KINDS[of.kind].names} (${of.source}): it ${changes} it`;
  const fields = fieldNames(variables);
  const current = fields.find((field) => CURRENT_PASSWORD_FIELD.test(field));
  if (current) return `a password change (its variables have ${current})`;
  if (namesAnotherAccount(words, variables, principal)) return null;
  const setsPassword = fields.find((field) => NEW_PASSWORD_FIELD.test(field));
  if (setsPassword) return `a password change (its variables have ${setsPassword})`;
  const said = mutationIdentityChange(words);
  // updateRole(id) changes the role its id names, judged by that id above; assignRole(userId) changes an account's
  const identity = ownId.length && said === wordOf(entity) ? null : said;
  if (!create || identity || ACCOUNT_COLLECTION.test(entity)) {
    const named = accountNamedIn(variables, principal);
    if (named) return `its variables' ${named.name} is ${KINDS.account.names} (${named.source}): it ${changes} it`;
  }
  return identity
    ? `a ${identity} change (mutation ${name}), and nothing it sends names another account: it changes the signed-in account's`
    : null;
}

/** The own ids a filter picks (`where: { id }`). @param {Record<string, unknown>} filter @returns {string[]} */
function ownIds(filter) {
  return Object.entries(filter).flatMap(([key, value]) => (OWN_ID_NAME.test(key) ? [String(value)] : []));
}
