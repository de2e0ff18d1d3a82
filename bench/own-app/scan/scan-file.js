// @ts-check
// The scan of one file (scan.js walks the app's files): Express's response and request API on the objects a handler,
// guard, filter or middleware holds, the packages it imports or gives to app.use, multer's interceptors, and through
// scan-bootstrap.js what main.ts and the setup do. Each finding carries its line and the handler it sits in.
import {
  APP_METHODS,
  APP_USE,
  BODY_PARSERS,
  BODY_PARSER_IN_APP_USE,
  PACKAGES,
  SERVE_STATIC,
  TYPES_ONLY,
  routeFastifyRefuses,
} from './app-differences.js';
import {
  EXPRESS_RESPONSE_ONLY,
  FILE_INTERCEPTOR,
  FILTER_JSON,
  FILE_INTERCEPTORS,
  MIDDLEWARE,
  MIDDLEWARE_COOKIE,
  REDIRECT_AFTER_STATUS,
  REQUEST_MEMBERS,
  RESPONSE_MEMBERS,
  redirectStatusFirst,
} from './fastify-differences.js';
import { APP_NAMES, bootstrapCall, conditionOf } from './scan-bootstrap.js';
import { calleeName, contextRole, injectedRequest, parameterRoles, roleHints, roleOf } from './scan-roles.js';
import {
  chainRoot,
  inFilterCatch,
  isAssignmentTarget,
  isStatusEnum,
  readsIpsSafely,
  statusCallRoot,
} from './scan-members.js';
import { fileTypeTests, interceptedFiles } from './scan-uploads.js';
import { sharedRegistrations } from './scan-shared.js';
import { graphqlContextFindings } from './scan-graphql-context.js';
import { fileLimiters } from './scan-limiters.js';
import {
  REQUEST_FREE,
  boundNames,
  findImport,
  importedNames,
  isCreateRequire,
  packageName,
  packageOf,
  requestFree,
  requiredPackage,
  valueReferences,
} from './scan-imports.js';

/**
 * @typedef {import('./scan.js').CodeFinding} CodeFinding
 * @typedef {import('./scan-roles.js').Role} Role
 * @typedef {{ cookies: Set<string>, throttler: { used: boolean, forRoot: string[] }, middleware: Set<string>,
 *   fileTypes: import('../bodies/upload-form.js').FileTypePattern[],
 *   shared: import('./scan-shared.js').SharedCause[], limiters: import('./scan-limiters.js').LimiterFound[],
 *   esm: boolean } & import('./scan-bootstrap.js').BootstrapContext}
 *   ScanContext cookies: the cookie names read or set are added here; throttler: whether Nest's throttler package is
 *   imported, and where ThrottlerModule.forRoot is called (file:line); middleware: the functions whose bodies were
 *   read as middleware, by name; fileTypes: what fileFilters and file type validators test; shared: the classes
 *   registered for many routes at once (a global filter); limiters: the other rate limiters (scan-limiters.js); esm:
 *   whether the app runs as ES modules
 */

/** Route decorators whose path Fastify's router registers. */
const ROUTE_DECORATORS = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete', 'All', 'Options', 'Head', 'Search']);

/** Packages of Express's whose types an app imports (`Request`, `Express.Multer.File`'s module, `NestExpressApplication`). */
const EXPRESS_PLATFORM_PACKAGES = new Set(['express', 'multer', '@nestjs/platform-express']);
const THROTTLER_PACKAGE = '@nestjs/throttler';
const CODE_CHARS = 120;

/**
 * @typedef {object} FileScan what the visitors of one file share
 * @property {typeof import('typescript')} ts
 * @property {import('typescript').SourceFile} tree
 * @property {string} name the file, as findings name it
 * @property {ScanContext} context
 * @property {CodeFinding[]} findings
 * @property {Map<string, { pkg: string, typeOnly: boolean }>} packageNames local name → package, for Express's
 *   packages imported here
 * @property {Set<string>} usedInAppUse packages given to app.use here: their import line is not a place of its own
 * @property {ReturnType<typeof roleHints>} hints
 * @property {Set<string>} loaders the names that load a package: require, and what createRequire() made (a setup
 *   module outside the app)
 * @property {(node: import('typescript').Node, rule: string, difference: import('./fastify-differences.js').Difference,
 *   extra?: Partial<CodeFinding>) => void} add
 */

/**
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').SourceFile} tree
 * @param {string} name
 * @param {ScanContext} context
 * @returns {CodeFinding[]}
 */
export function scanFile(ts, tree, name, context) {
  /** @type {CodeFinding[]} */
  const findings = [];
  const hints = roleHints(ts, tree, APP_NAMES);
  for (const middleware of hints.middlewareNames) context.middleware.add(middleware);
  /** @type {FileScan['add']} */
  const add = (node, rule, difference, extra = {}) => {
    const { line } = tree.getLineAndCharacterOfPosition(node.getStart(tree));
    const code = tree.text.split('\n')[line].trim();
    findings.push({
      rule,
      ...difference,
      file: name,
      line: line + 1,
      code: code.length > CODE_CHARS ? `${code.slice(0, CODE_CHARS)}…` : code,
      handler: handlerOf(ts, node, tree),
      ...extra,
    });
  };
  /** @type {FileScan} */
  const scan = {
    ts,
    tree,
    name,
    context,
    findings,
    packageNames: new Map(),
    usedInAppUse: new Set(),
    hints,
    loaders: new Set(['require']),
    add,
  };
  ts.forEachChild(tree, (child) => visit(scan, child, new Map()));
  addImports(scan);
  context.limiters.push(...fileLimiters(ts, tree, name, context));
  return findings;
}

/**
 * @param {FileScan} scan @param {import('typescript').Node} node
 * @param {Map<string, Role>} roles names in scope and what they hold
 */
function visit(scan, node, roles) {
  const { ts, hints, add } = scan;
  let scope = roles;
  if (ts.isClassLike(node)) scope = new Map([...roles, ...injectedRequest(ts, node)]);
  if (ts.isFunctionLike(node)) scope = new Map([...roles, ...parameterRoles(ts, node, hints, add)]);
  if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
    const role = contextRole(ts, node.initializer);
    if (role) roles.set(node.name.text, role);
  }
  visitLoad(scan, node);
  for (const cause of sharedRegistrations(ts, node))
    scan.context.shared.push({ ...cause, registered: `${scan.name}:${lineOf(scan.tree, node)}` });
  for (const test of fileTypeTests(ts, node))
    scan.context.fileTypes.push({ ...test, handler: handlerOf(ts, node, scan.tree) });
  for (const found of graphqlContextFindings(ts, node)) add(found.node, found.rule, found.difference);
  if (ts.isCallExpression(node)) visitCall(scan, node, scope);
  if (ts.isPropertyAccessExpression(node)) visitMember(scan, node, scope);
  ts.forEachChild(node, (child) => visit(scan, child, scope));
}

/**
 * An import or a require of a package: Express's are remembered by their local names, the throttler's use is noted.
 * @param {FileScan} scan @param {import('typescript').Node} node
 */
function visitLoad(scan, node) {
  const { ts, packageNames, loaders } = scan;
  const { throttler } = scan.context;
  if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
    const pkg = packageName(node.moduleSpecifier.text);
    const clause = node.importClause;
    if (pkg === THROTTLER_PACKAGE) throttler.used = true;
    if (PACKAGES[pkg] && clause)
      for (const { local, typeOnly } of importedNames(ts, clause)) packageNames.set(local, { pkg, typeOnly });
  }
  if (!ts.isVariableDeclaration(node) || !node.initializer) return;
  if (ts.isIdentifier(node.name) && isCreateRequire(ts, node.initializer)) loaders.add(node.name.text);
  const required = requiredPackage(ts, node.initializer, loaders);
  if (!required) return;
  const pkg = packageName(required);
  if (pkg === THROTTLER_PACKAGE) throttler.used = true;
  if (PACKAGES[pkg]) for (const local of boundNames(ts, node.name)) packageNames.set(local, { pkg, typeOnly: false });
}

/** @param {FileScan} scan @param {import('typescript').CallExpression} call @param {Map<string, Role>} roles */
function visitCall(scan, call, roles) {
  const { ts, tree, name, context, add } = scan;
  const callee = calleeName(ts, call.expression);
  if (callee && FILE_INTERCEPTORS.has(callee)) {
    const field = call.arguments[0] && ts.isStringLiteral(call.arguments[0]) ? call.arguments[0].text : undefined;
    const files = interceptedFiles(ts, callee, call.arguments);
    add(call, `${callee}(${field ? `'${field}'` : ''})`, FILE_INTERCEPTOR, files ? { files } : {});
  }
  if (callee && ROUTE_DECORATORS.has(callee))
    for (const refused of refusedRoutes(ts, call, callee)) add(call, refused.rule, refused.difference);
  for (const found of bootstrapCall(ts, call, context)) {
    const condition = conditionOf(ts, found.node);
    add(found.node, found.rule, found.difference, condition ? { condition } : {});
  }
  if (!ts.isPropertyAccessExpression(call.expression)) return;
  const member = call.expression.name.text;
  const receiver = call.expression.expression;
  if (/^forRoot(Async)?$/.test(member) && calleeName(ts, receiver) === 'ThrottlerModule')
    context.throttler.forRoot.push(`${name}:${lineOf(tree, call)}`);
  if (ts.isIdentifier(receiver) && APP_NAMES.test(receiver.text)) {
    if (member === 'use') for (const argument of call.arguments) visitAppUse(scan, argument);
    else if (APP_METHODS[member] && !isTrustProxy(ts, call)) add(call, `app.${member}()`, APP_METHODS[member]);
  }
  if (member === 'cookie' && call.arguments[0] && ts.isStringLiteral(call.arguments[0]))
    context.cookies.add(call.arguments[0].text);
  if (member === 'redirect' && ts.isIdentifier(receiver) && roleOf(roles, receiver) === 'response') {
    const first = call.arguments[0];
    if (call.arguments.length >= 2 && first && (ts.isNumericLiteral(first) || isStatusEnum(ts, first)))
      add(call, `${receiver.text}.redirect(status, url)`, redirectStatusFirst(context.installed.fastify));
  }
  const statusSet = member === 'redirect' && call.arguments.length === 1 ? statusCallRoot(ts, receiver) : null;
  if (statusSet && roleOf(roles, statusSet) === 'response')
    add(call, `${statusSet.text}.status(…).redirect(url)`, REDIRECT_AFTER_STATUS);
}

/** @param {FileScan} scan @param {import('typescript').Expression} argument given to app.use */
function visitAppUse(scan, argument) {
  const { ts, tree, hints, add } = scan;
  // app.use('/graphql', …): the path is not middleware
  if (ts.isStringLiteralLike(argument) || ts.isTemplateExpression(argument)) return;
  // a function of this file: its body is read as middleware, and what it does there is the finding
  if (hints.appUseFunctions.has(argument) || (ts.isIdentifier(argument) && hints.functionNames.has(argument.text)))
    return;
  const found = packageOf(ts, argument, scan.packageNames);
  const pkg = found?.pkg ?? null;
  if (pkg) scan.usedInAppUse.add(pkg);
  const called = ts.isCallExpression(argument) ? calleeName(ts, argument.expression) : null;
  const written = `app.use(${argument.getText(tree).slice(0, 40)})`;
  if ((pkg === 'express' || pkg === 'body-parser') && BODY_PARSERS.has(called ?? ''))
    add(argument, written, BODY_PARSER_IN_APP_USE);
  else if (pkg === 'express' && called === 'static') add(argument, written, SERVE_STATIC);
  else if (pkg) add(argument, `app.use(${pkg})`, PACKAGES[pkg], { middleware: pkg });
  else add(argument, written, APP_USE);
}

/** @param {FileScan} scan @param {import('typescript').PropertyAccessExpression} access @param {Map<string, Role>} roles */
function visitMember(scan, access, roles) {
  const { ts, add } = scan;
  const root = chainRoot(ts, access);
  if (!root) return;
  const role = roles.get(root.object) ?? null;
  const member = root.member;
  const label = `${root.object}.${member}`;
  const assigned = isAssignmentTarget(ts, root.access);
  if (role === 'response' && member === 'json' && inFilterCatch(ts, access)) add(access, label, FILTER_JSON);
  else if (role === 'response' && Object.hasOwn(RESPONSE_MEMBERS, member)) add(access, label, RESPONSE_MEMBERS[member]);
  else if (role === 'request' && Object.hasOwn(REQUEST_MEMBERS, member) && !readsIpsSafely(ts, access, member))
    add(access, label, REQUEST_MEMBERS[member]);
  if (member === 'cookies' && ts.isPropertyAccessExpression(access.parent) && access.parent.expression === access)
    scan.context.cookies.add(access.parent.name.text);
  else if (role === 'raw-request' && assigned) add(access, `${label} = … in middleware`, MIDDLEWARE.write);
  else if (role === 'raw-request' && member === 'body') add(access, `${label} in middleware`, MIDDLEWARE.body);
  else if (role === 'raw-request' && Object.hasOwn(REQUEST_MEMBERS, member))
    add(access, label, REQUEST_MEMBERS[member]);
  else if (role === 'raw-response' && (member === 'cookie' || member === 'clearCookie'))
    add(access, `${label} in middleware`, MIDDLEWARE_COOKIE);
  else if (role === 'raw-response' && EXPRESS_RESPONSE_ONLY.has(member))
    add(access, `${label} in middleware`, MIDDLEWARE.response);
}

/**
 * Express's packages imported here and not given to app.use: a value import is the package's own finding, a type-only
 * one matters only once the Express platform is removed.
 * @param {FileScan} scan
 */
function addImports(scan) {
  const { ts, tree, add } = scan;
  const valueUses = valueReferences(ts, tree);
  for (const [local, { pkg, typeOnly }] of scan.packageNames) {
    if (scan.usedInAppUse.has(pkg)) continue;
    const declaration = findImport(ts, tree, local);
    if (declaration && requestFree(ts, tree, declaration, local, REQUEST_FREE[pkg])) continue;
    const asValue = !typeOnly && valueUses.has(local);
    if (!declaration || (!asValue && !EXPRESS_PLATFORM_PACKAGES.has(pkg))) continue;
    // what only matters in app.use (middleware that works, an upload parser) is nothing where it is only imported
    if (asValue && (PACKAGES[pkg].kind === 'works' || pkg === 'graphql-upload')) continue;
    add(declaration, asValue ? `import ${pkg}` : `import ${pkg} (types)`, asValue ? PACKAGES[pkg] : TYPES_ONLY);
  }
}

/**
 * A route whose path Fastify's router refuses keeps Fastify from booting, and the error names no route: the decorator's
 * line does. `@All('*path')`, or tsc's `(0, common_1.All)('*path')`.
 * @param {typeof import('typescript')} ts @param {import('typescript').CallExpression} call @param {string} decorator
 * @returns {Array<{ rule: string, difference: import('./fastify-differences.js').Difference }>}
 */
function refusedRoutes(ts, call, decorator) {
  const [first] = call.arguments;
  const paths = first && ts.isArrayLiteralExpression(first) ? [...first.elements] : [first];
  return paths.flatMap((path) => {
    if (!path || !ts.isStringLiteralLike(path)) return [];
    const refused = routeFastifyRefuses(path.text);
    return refused ? [{ rule: `@${decorator}('${path.text}')`, difference: refused }] : [];
  });
}

/**
 * `app.set('trust proxy', …)` and `app.enable('trust proxy')`: scan-bootstrap.js names them with their own fix.
 * @param {typeof import('typescript')} ts @param {import('typescript').CallExpression} call
 */
function isTrustProxy(ts, call) {
  const [first] = call.arguments;
  return first !== undefined && ts.isStringLiteral(first) && first.text === 'trust proxy';
}

/** 1-based. @param {import('typescript').SourceFile} tree @param {import('typescript').Node} node */
function lineOf(tree, node) {
  return tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
}

/**
 * `Class.method` when the node sits in a class method (a handler, once the route list names it); `Class.method` of
 * tsc's `__decorate([...], Class.prototype, "method")` for a decorator in compiled code.
 * @param {typeof import('typescript')} ts @param {import('typescript').Node} node @param {import('typescript').SourceFile} tree
 * @returns {string | null}
 */
function handlerOf(ts, node, tree) {
  for (let current = node; current && current !== tree; current = current.parent) {
    if (ts.isMethodDeclaration(current) && ts.isClassLike(current.parent) && current.parent.name)
      return `${current.parent.name.text}.${current.name.getText(tree)}`;
    if (ts.isCallExpression(current) && calleeName(ts, current.expression) === '__decorate') {
      const [, target, key] = current.arguments;
      if (target && key && ts.isPropertyAccessExpression(target) && ts.isStringLiteral(key))
        return `${target.expression.getText(tree)}.${key.text}`;
    }
  }
  return null;
}
