// @ts-check
// Rate limiters besides @nestjs/throttler's ThrottlerModule, found in one file (scan-file.js asks): where the app makes
// an express-rate-limit middleware, registers @fastify/rate-limit or makes a rate-limiter-flexible limiter, and its own
// guards and middleware that refuse with 429. Each is named at its line with its limits as written, and with what the
// bench's timed servers do with it (launch/throttle.js lifts it), or why they cannot and the fix.
import { TOO_MANY_REQUESTS } from '../launch/throttle.js';
import { importedNames, isCreateRequire, packageName, requiredPackage } from './scan-imports.js';

/**
 * A rate limiter of the app's besides @nestjs/throttler's guard.
 * @typedef {object} LimiterFound
 * @property {'express-rate-limit' | '@fastify/rate-limit' | 'rate-limiter-flexible' | 'guard' | 'answer'} kind a
 *   package's limiter where the app makes it; guard: a guard of the app's that throws 429; answer: a middleware or
 *   interceptor of the app's that answers 429 in its own code
 * @property {string} name what is made (`rateLimit()`, `RateLimiterMemory`), or the class
 * @property {string} at file:line: where it is made, or the class's 429
 * @property {string | null} limits as written (`100 per 900 s`); null where the code does not say in literals
 * @property {boolean} liftable whether the timed servers can let the bench through it (launch/throttle.js), as they do
 *   unless --keep-throttle
 * @property {string} note how it is lifted, or why it is kept and the fix
 */

const EXPRESS_RATE_LIMIT = 'express-rate-limit';
const FASTIFY_RATE_LIMIT = '@fastify/rate-limit';
const RATE_LIMITER_FLEXIBLE = 'rate-limiter-flexible';
const LIMITER_PACKAGES = new Set([EXPRESS_RATE_LIMIT, FASTIFY_RATE_LIMIT, RATE_LIMITER_FLEXIBLE]);
/** A limit's options and defaults, by package: how many requests (count) per how long (window, in ms or seconds). */
const OPTIONS = {
  [EXPRESS_RATE_LIMIT]: { count: ['limit', 'max'], window: 'windowMs', perMs: true },
  [FASTIFY_RATE_LIMIT]: { count: ['max'], window: 'timeWindow', perMs: true },
  [RATE_LIMITER_FLEXIBLE]: { count: ['points'], window: 'duration', perMs: false },
};
const MS_PER_SECOND = 1000;

const LIFTED = {
  [EXPRESS_RATE_LIMIT]:
    'lifted while timing (unless --keep-throttle): the middleware the app makes skips every request (its skip() answers true), so it counts none and refuses none; the check before timing ran it with its refusals let through',
  [FASTIFY_RATE_LIMIT]:
    "lifted while timing (unless --keep-throttle): the plugin is registered with an allowList that takes every request; a route's own config.rateLimit still applies",
  [RATE_LIMITER_FLEXIBLE]:
    'lifted while timing (unless --keep-throttle): its consume() resolves at once, so the code that answers 429 on a rejection is never reached; the check before timing ran it with its rejections resolved',
  guard:
    'lifted while timing (unless --keep-throttle): the guard still runs on every request (what it checks besides the rate still refuses), and the 429 it throws lets the request through instead',
};
const KEEP_FIX =
  'or time it as it is with --keep-throttle (a route it refuses then has no ratio, and the refusal is its finding)';

/**
 * @param {typeof import('typescript')} ts @param {import('typescript').SourceFile} tree
 * @param {string} file as findings name it
 * @param {{ esm: boolean }} context whether node runs the file as an ES module: an import of express-rate-limit
 *   there loads its ESM build, which the bench's servers cannot reach
 * @returns {LimiterFound[]}
 */
export function fileLimiters(ts, tree, file, { esm }) {
  const packages = limiterImports(ts, tree);
  /** @type {LimiterFound[]} */
  const found = [];
  const at = (/** @type {import('typescript').Node} */ node) =>
    `${file}:${tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1}`;
  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    const made = madeLimiter(ts, node, packages);
    if (made)
      found.push({
        ...packageLimiter(made.pkg, esm && made.imported),
        name: made.name,
        at: at(node),
        limits: limitsOf(ts, made),
      });
    const own = ts.isClassLike(node) && node.name ? ownRefusal(ts, node, packages) : null;
    if (own && ts.isClassLike(node) && node.name)
      found.push({ ...own.limiter, name: node.name.text, at: at(own.refusal), limits: null });
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

/**
 * What the timed servers do with a package's limiter.
 * @param {string} pkg @param {boolean} esmBuild whether an ES module imports it (not require, not createRequire)
 * @returns {Pick<LimiterFound, 'kind' | 'liftable' | 'note'>}
 */
function packageLimiter(pkg, esmBuild) {
  const kind = /** @type {LimiterFound['kind']} */ (pkg);
  if (pkg === EXPRESS_RATE_LIMIT && esmBuild)
    return {
      kind,
      liftable: false,
      note: `kept while timing: an ES module of the app imports express-rate-limit, which loads its ESM build, which the bench cannot change without editing the app; give it a skip() that lets the bench's address (127.0.0.1) through while you measure, ${KEEP_FIX}`,
    };
  return { kind, liftable: true, note: LIFTED[/** @type {keyof typeof LIFTED} */ (pkg)] };
}

/**
 * The local names a file binds to the limiter packages: imports, and requires in compiled code.
 * @param {typeof import('typescript')} ts @param {import('typescript').SourceFile} tree
 * @returns {Map<string, { pkg: string, imported: boolean }>} local name → package, and whether an import binds it
 */
function limiterImports(ts, tree) {
  /** @type {Map<string, { pkg: string, imported: boolean }>} */
  const names = new Map();
  const loaders = new Set(['require']);
  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.importClause) {
      const pkg = packageName(node.moduleSpecifier.text);
      if (LIMITER_PACKAGES.has(pkg))
        for (const { local } of importedNames(ts, node.importClause)) names.set(local, { pkg, imported: true });
    }
    if (ts.isVariableDeclaration(node) && node.initializer) {
      if (ts.isIdentifier(node.name) && isCreateRequire(ts, node.initializer)) loaders.add(node.name.text);
      const required = requiredPackage(ts, node.initializer, loaders);
      const pkg = required ? packageName(required) : null;
      if (pkg && LIMITER_PACKAGES.has(pkg)) {
        if (ts.isIdentifier(node.name)) names.set(node.name.text, { pkg, imported: false });
        else if (ts.isObjectBindingPattern(node.name))
          for (const element of node.name.elements)
            if (ts.isIdentifier(element.name)) names.set(element.name.text, { pkg, imported: false });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return names;
}

/**
 * A limiter the node makes with a package: `rateLimit({…})` and tsc's `(0, express_rate_limit_1.default)({…})`,
 * `new RateLimiterMemory({…})`, `app.register(fastifyRateLimit, {…})`.
 * @param {typeof import('typescript')} ts @param {import('typescript').Node} node
 * @param {Map<string, { pkg: string, imported: boolean }>} packages
 * @returns {Made | null}
 *
 * @typedef {{ pkg: string, imported: boolean, name: string, options: import('typescript').Expression | undefined }} Made
 */
function madeLimiter(ts, node, packages) {
  /** @param {import('typescript').Expression} expression */
  const bound = (expression) => packages.get(rootName(ts, expression) ?? '');
  if (ts.isNewExpression(node)) {
    const found = bound(node.expression);
    return found?.pkg === RATE_LIMITER_FLEXIBLE
      ? { ...found, name: lastName(ts, node.expression), options: node.arguments?.[0] }
      : null;
  }
  if (!ts.isCallExpression(node)) return null;
  const callee = unwrapped(ts, node.expression);
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'register') {
    const [plugin, options] = node.arguments;
    const found = plugin ? bound(plugin) : undefined;
    return found?.pkg === FASTIFY_RATE_LIMIT ? { ...found, name: `register(${plugin.getText()})`, options } : null;
  }
  const found = bound(callee);
  const name = lastName(ts, callee);
  return found?.pkg === EXPRESS_RATE_LIMIT
    ? { ...found, name: `${name === 'default' ? 'rateLimit' : name}()`, options: node.arguments[0] }
    : null;
}

/**
 * A class of the app's that refuses with 429 itself: a guard (canActivate) is lifted by letting its 429 through; a
 * middleware or interceptor answers it in its own code, which the bench cannot reach. A subclass of ThrottlerGuard is
 * @nestjs/throttler's (lifted as that), and a middleware that limits through a limiter package is that package's.
 * @param {typeof import('typescript')} ts @param {import('typescript').ClassLikeDeclaration} node
 * @param {Map<string, { pkg: string, imported: boolean }>} packages
 * @returns {{ limiter: Pick<LimiterFound, 'kind' | 'liftable' | 'note'>, refusal: import('typescript').Node } | null}
 */
function ownRefusal(ts, node, packages) {
  const heritage = (node.heritageClauses ?? []).map((clause) => clause.getText()).join(' ');
  if (/\bThrottlerGuard\b/.test(heritage)) return null;
  const members = new Set(node.members.flatMap((member) => (member.name ? [member.name.getText()] : [])));
  const guard = members.has('canActivate');
  if (!guard && !members.has('use') && !members.has('intercept')) return null;
  const refusal = firstRefusal(ts, node);
  if (!refusal) return null;
  if (guard) return { limiter: { kind: 'guard', liftable: true, note: LIFTED.guard }, refusal };
  if (usesLimiterPackage(ts, node, packages)) return null;
  const note = `kept while timing: it answers 429 in its own code, which the bench cannot let through without editing the app; let the bench's address (127.0.0.1) through it while you measure, or limit with @nestjs/throttler (lifted while timing), ${KEEP_FIX}`;
  return { limiter: { kind: 'answer', liftable: false, note }, refusal };
}

/** The first node in a class that names a 429. @param {typeof import('typescript')} ts @param {import('typescript').Node} node */
function firstRefusal(ts, node) {
  /** @type {import('typescript').Node | null} */
  let found = null;
  /** @param {import('typescript').Node} child */
  const visit = (child) => {
    if (found) return;
    if ((ts.isIdentifier(child) || ts.isNumericLiteral(child)) && TOO_MANY_REQUESTS.test(child.text)) found = child;
    else ts.forEachChild(child, visit);
  };
  ts.forEachChild(node, visit);
  return found;
}

/** @param {typeof import('typescript')} ts @param {import('typescript').Node} node @param {Map<string, unknown>} packages */
function usesLimiterPackage(ts, node, packages) {
  let uses = false;
  /** @param {import('typescript').Node} child */
  const visit = (child) => {
    if (ts.isIdentifier(child) && packages.has(child.text)) uses = true;
    else if (!uses) ts.forEachChild(child, visit);
  };
  visit(node);
  return uses;
}

/**
 * What a limiter's options literal says it allows: `100 per 900 s`; a part not given is its package's default, and the
 * whole is null where the options are not a literal the scan can read.
 * @param {typeof import('typescript')} ts @param {Made} made
 * @returns {string | null}
 */
function limitsOf(ts, { pkg, options }) {
  const shape = OPTIONS[/** @type {keyof typeof OPTIONS} */ (pkg)];
  if (!options || !ts.isObjectLiteralExpression(options)) return null;
  /** @param {string} name */
  const value = (name) => {
    for (const property of options.properties)
      if (ts.isPropertyAssignment(property) && property.name.getText() === name) return property.initializer;
    return undefined;
  };
  const countNode = shape.count.map(value).find(Boolean);
  const windowNode = value(shape.window);
  const count = countNode ? numberOf(ts, countNode) : null;
  const window = windowNode ? numberOf(ts, windowNode) : null;
  const counted = count !== null ? String(count) : countNode ? countNode.getText() : 'its default';
  const seconds = window === null ? null : shape.perMs ? window / MS_PER_SECOND : window;
  const per = seconds !== null ? `${seconds} s` : windowNode ? windowNode.getText() : 'its default window';
  return `${counted} per ${per}`;
}

/**
 * A number written as a literal or arithmetic of literals: `15 * 60 * 1000`. @param {typeof import('typescript')} ts
 * @param {import('typescript').Expression} node @returns {number | null}
 */
function numberOf(ts, node) {
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isParenthesizedExpression(node)) return numberOf(ts, node.expression);
  if (!ts.isBinaryExpression(node)) return null;
  const left = numberOf(ts, node.left);
  const right = numberOf(ts, node.right);
  if (left === null || right === null) return null;
  const operations = /** @type {Record<number, number>} */ ({
    [ts.SyntaxKind.AsteriskToken]: left * right,
    [ts.SyntaxKind.PlusToken]: left + right,
    [ts.SyntaxKind.MinusToken]: left - right,
    [ts.SyntaxKind.SlashToken]: left / right,
  });
  return operations[node.operatorToken.kind] ?? null;
}

/** `(0, x.default)` → `x.default`. @param {typeof import('typescript')} ts @param {import('typescript').Expression} node */
function unwrapped(ts, node) {
  let inner = node;
  while (ts.isParenthesizedExpression(inner))
    inner =
      ts.isBinaryExpression(inner.expression) && inner.expression.operatorToken.kind === ts.SyntaxKind.CommaToken
        ? inner.expression.right
        : inner.expression;
  return inner;
}

/** The name an access chain starts from: `x` of `x.default.y`. @param {typeof import('typescript')} ts @param {import('typescript').Expression} node */
function rootName(ts, node) {
  let inner = unwrapped(ts, node);
  while (ts.isPropertyAccessExpression(inner)) inner = unwrapped(ts, inner.expression);
  return ts.isIdentifier(inner) ? inner.text : null;
}

/** `RateLimiterMemory` of `flexible_1.RateLimiterMemory`. @param {typeof import('typescript')} ts @param {import('typescript').Expression} node */
function lastName(ts, node) {
  const inner = unwrapped(ts, node);
  return ts.isPropertyAccessExpression(inner) ? inner.name.text : inner.getText();
}
