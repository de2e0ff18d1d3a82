// @ts-check
// The scan of one file (scan.js walks the app's files): Express's response and request API on the objects a handler,
// guard, filter or middleware holds, the packages it imports or gives to app.use, multer's interceptors, and through
// scan-bootstrap.js what main.ts and the setup do. Each finding carries its line and the handler it sits in.
import { APP_METHODS, APP_USE, BODY_PARSERS, BODY_PARSER_IN_APP_USE, PACKAGES, TYPES_ONLY } from './app-differences.js';
import {
  FILE_INTERCEPTOR,
  FILE_INTERCEPTORS,
  MIDDLEWARE,
  REDIRECT_AFTER_STATUS,
  REDIRECT_STATUS_FIRST,
  REQUEST_MEMBERS,
  RESPONSE_MEMBERS,
  RES_WITHOUT_PASSTHROUGH,
} from './fastify-differences.js';
import { APP_NAMES, bootstrapCall } from './scan-bootstrap.js';

/**
 * @typedef {import('./scan.js').CodeFinding} CodeFinding
 * @typedef {'request' | 'response' | 'raw-request' | 'raw-response'} Role what a name holds on Fastify: Fastify's request
 *   or reply, or (in middleware) Node's raw ones
 * @typedef {{ cookies: Set<string> } & import('./scan-bootstrap.js').BootstrapContext} ScanContext cookies: the cookie
 *   names read or set are added here
 */

const REQUEST_DECORATORS = new Set(['Req', 'Request']);
const RESPONSE_DECORATORS = new Set(['Res', 'Response']);
/** Packages of Express's whose types an app imports (`Request`, `Express.Multer.File`'s module, `NestExpressApplication`). */
const EXPRESS_PLATFORM_PACKAGES = new Set(['express', 'multer', '@nestjs/platform-express']);
const CODE_CHARS = 120;

/**
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').SourceFile} tree
 * @param {string} name
 * @param {ScanContext} context
 * @returns {CodeFinding[]}
 */
export function scanFile(ts, tree, name, context) {
  const { cookies } = context;
  /** @type {CodeFinding[]} */
  const findings = [];
  /** @type {Map<string, { pkg: string, typeOnly: boolean }>} local name → package, for Express's packages imported here */
  const packageNames = new Map();
  /** @type {Set<string>} packages given to app.use here: their import line is not a place of its own */
  const usedInAppUse = new Set();
  /** @type {Map<import('typescript').Node, string>} a compiled method's parameter index → role, from __param calls */
  const compiledRoles = compiledParameterRoles(ts, tree);

  /**
   * @param {import('typescript').Node} node @param {string} rule
   * @param {import('./fastify-differences.js').Difference} difference @param {Partial<CodeFinding>} [extra]
   */
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

  /** @param {import('typescript').Node} node @param {Map<string, Role>} roles names in scope and what they hold */
  const visit = (node, roles) => {
    let scope = roles;
    if (ts.isFunctionLike(node)) scope = new Map([...roles, ...parameterRoles(ts, node, compiledRoles, add)]);
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const role = contextRole(ts, node.initializer);
      if (role) roles.set(node.name.text, role);
    }
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const pkg = node.moduleSpecifier.text;
      const clause = node.importClause;
      if (PACKAGES[pkg] && clause)
        for (const { local, typeOnly } of importedNames(ts, clause)) packageNames.set(local, { pkg, typeOnly });
    }
    if (ts.isVariableDeclaration(node) && node.initializer && isRequireOf(ts, node.initializer)) {
      const pkg = /** @type {import('typescript').StringLiteral} */ (
        /** @type {import('typescript').CallExpression} */ (node.initializer).arguments[0]
      ).text;
      if (PACKAGES[pkg] && ts.isIdentifier(node.name)) packageNames.set(node.name.text, { pkg, typeOnly: false });
    }
    if (ts.isCallExpression(node)) visitCall(node, scope);
    if (ts.isPropertyAccessExpression(node)) visitMember(node, scope);
    ts.forEachChild(node, (child) => visit(child, scope));
  };

  /** @param {import('typescript').CallExpression} call @param {Map<string, Role>} roles */
  const visitCall = (call, roles) => {
    const callee = calleeName(ts, call.expression);
    if (callee && FILE_INTERCEPTORS.has(callee)) {
      const field = call.arguments[0] && ts.isStringLiteral(call.arguments[0]) ? call.arguments[0].text : undefined;
      add(call, `${callee}(${field ? `'${field}'` : ''})`, FILE_INTERCEPTOR, field ? { field } : {});
    }
    for (const found of bootstrapCall(ts, call, context)) add(found.node, found.rule, found.difference);
    if (!ts.isPropertyAccessExpression(call.expression)) return;
    const member = call.expression.name.text;
    const receiver = call.expression.expression;
    if (ts.isIdentifier(receiver) && APP_NAMES.test(receiver.text)) {
      if (member === 'use') for (const argument of call.arguments) visitAppUse(argument);
      else if (APP_METHODS[member] && !isTrustProxy(ts, call)) add(call, `app.${member}()`, APP_METHODS[member]);
    }
    if (member === 'cookie' && call.arguments[0] && ts.isStringLiteral(call.arguments[0]))
      cookies.add(call.arguments[0].text);
    if (member === 'redirect' && ts.isIdentifier(receiver) && roleOf(roles, receiver) === 'response') {
      const first = call.arguments[0];
      if (call.arguments.length >= 2 && first && (ts.isNumericLiteral(first) || isStatusEnum(ts, first)))
        add(call, `${receiver.text}.redirect(status, url)`, REDIRECT_STATUS_FIRST);
    }
    const statusSet = member === 'redirect' && call.arguments.length === 1 ? statusCallRoot(ts, receiver) : null;
    if (statusSet && roleOf(roles, statusSet) === 'response')
      add(call, `${statusSet.text}.status(…).redirect(url)`, REDIRECT_AFTER_STATUS);
  };

  /** @param {import('typescript').Expression} argument given to app.use */
  const visitAppUse = (argument) => {
    const found = packageOf(ts, argument, packageNames);
    const pkg = found?.pkg ?? null;
    if (pkg) usedInAppUse.add(pkg);
    const parser =
      ts.isCallExpression(argument) &&
      (pkg === 'express' || pkg === 'body-parser') &&
      BODY_PARSERS.has(calleeName(ts, argument.expression) ?? '');
    if (parser) add(argument, `app.use(${argument.getText(tree).slice(0, 40)})`, BODY_PARSER_IN_APP_USE);
    else if (pkg) add(argument, `app.use(${pkg})`, PACKAGES[pkg], { middleware: pkg });
    else add(argument, `app.use(${argument.getText(tree).slice(0, 40)})`, APP_USE);
  };

  /** @param {import('typescript').PropertyAccessExpression} access @param {Map<string, Role>} roles */
  const visitMember = (access, roles) => {
    const root = chainRoot(ts, access);
    if (!root) return;
    const role = roleOf(roles, root.object);
    const member = root.member;
    const label = `${root.object.text}.${member}`;
    const assigned = isAssignmentTarget(ts, root.access);
    if (role === 'response' && Object.hasOwn(RESPONSE_MEMBERS, member)) add(access, label, RESPONSE_MEMBERS[member]);
    else if (role === 'request' && Object.hasOwn(REQUEST_MEMBERS, member)) add(access, label, REQUEST_MEMBERS[member]);
    if (member === 'cookies' && ts.isPropertyAccessExpression(access.parent) && access.parent.expression === access)
      cookies.add(access.parent.name.text);
    else if (role === 'raw-request' && assigned) add(access, `${label} = … in middleware`, MIDDLEWARE.write);
    else if (role === 'raw-request' && member === 'body') add(access, `${label} in middleware`, MIDDLEWARE.body);
    else if (role === 'raw-request' && Object.hasOwn(REQUEST_MEMBERS, member))
      add(access, label, REQUEST_MEMBERS[member]);
    else if (
      role === 'raw-response' &&
      (Object.hasOwn(RESPONSE_MEMBERS, member) || member === 'status' || member === 'send')
    )
      add(access, `${label} in middleware`, MIDDLEWARE.response);
  };

  ts.forEachChild(tree, (child) => visit(child, new Map()));
  const valueUses = valueReferences(ts, tree);
  for (const [local, { pkg, typeOnly }] of packageNames) {
    if (usedInAppUse.has(pkg)) continue;
    const declaration = findImport(ts, tree, local);
    const asValue = !typeOnly && valueUses.has(local);
    if (!declaration || (!asValue && !EXPRESS_PLATFORM_PACKAGES.has(pkg))) continue;
    add(declaration, asValue ? `import ${pkg}` : `import ${pkg} (types)`, asValue ? PACKAGES[pkg] : TYPES_ONLY);
  }
  return findings;
}

/**
 * The names used as values somewhere in the file (not in a type, not in the import itself): an import used only in
 * types is erased by tsc and never runs.
 * @param {typeof import('typescript')} ts @param {import('typescript').SourceFile} tree
 */
function valueReferences(ts, tree) {
  /** @type {Set<string>} */
  const names = new Set();
  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || (ts.isTypeNode(node) && !isClassExtends(ts, node))) return;
    if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
    if (ts.isIdentifier(node)) names.add(node.text);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(tree, visit);
  return names;
}

/**
 * `class X extends Base` holds Base as a value (an ExpressionWithTypeArguments, which TypeScript counts as a type node).
 * @param {typeof import('typescript')} ts @param {import('typescript').Node} node
 */
function isClassExtends(ts, node) {
  return (
    ts.isExpressionWithTypeArguments(node) &&
    ts.isHeritageClause(node.parent) &&
    node.parent.token === ts.SyntaxKind.ExtendsKeyword &&
    ts.isClassLike(node.parent.parent)
  );
}

/**
 * `app.set('trust proxy', …)` and `app.enable('trust proxy')`: scan-bootstrap.js names them with their own fix.
 * @param {typeof import('typescript')} ts @param {import('typescript').CallExpression} call
 */
function isTrustProxy(ts, call) {
  const [first] = call.arguments;
  return first !== undefined && ts.isStringLiteral(first) && first.text === 'trust proxy';
}

/**
 * The object `res` of `res.status(301)` or `res.code(301)`, as redirect's receiver.
 * @param {typeof import('typescript')} ts @param {import('typescript').Expression} receiver
 */
function statusCallRoot(ts, receiver) {
  if (!ts.isCallExpression(receiver) || !ts.isPropertyAccessExpression(receiver.expression)) return null;
  const { name, expression } = receiver.expression;
  return ['status', 'code'].includes(name.text) && ts.isIdentifier(expression) ? expression : null;
}

/** @param {Map<string, Role>} roles @param {import('typescript').Identifier} id */
function roleOf(roles, id) {
  return roles.get(id.text) ?? null;
}

/**
 * The roles a function's parameters take: a handler's @Req()/@Res() (a passthrough-less @Res() is a finding of its
 * own), a middleware's use(req, res, next), and in compiled code the same read from __param(i, Res()).
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').SignatureDeclaration} fn
 * @param {Map<import('typescript').Node, string>} compiledRoles
 * @param {(node: import('typescript').Node, rule: string, difference: import('./fastify-differences.js').Difference) => void} add
 * @returns {[string, Role][]}
 */
function parameterRoles(ts, fn, compiledRoles, add) {
  /** @type {[string, Role][]} */
  const roles = [];
  const middleware = isMiddlewareUse(ts, fn);
  fn.parameters.forEach((parameter, index) => {
    if (!ts.isIdentifier(parameter.name)) return;
    const name = parameter.name.text;
    if (middleware) {
      if (index === 0) roles.push([name, 'raw-request']);
      if (index === 1) roles.push([name, 'raw-response']);
      return;
    }
    // a throttler guard's getTracker(req) gets the request its guard took from getRequest(): Fastify's on Fastify
    if (index === 0 && isTrackerMethod(ts, fn)) {
      roles.push([name, 'request']);
      return;
    }
    const decorator = (ts.canHaveDecorators(parameter) ? (ts.getDecorators(parameter) ?? []) : [])
      .map((d) => d.expression)
      .find(
        (e) =>
          ts.isCallExpression(e) && ['Req', 'Request', 'Res', 'Response'].includes(calleeName(ts, e.expression) ?? ''),
      );
    const compiled = compiledRoles.get(parameter);
    const decoratorName = decorator
      ? calleeName(ts, /** @type {import('typescript').CallExpression} */ (decorator).expression)
      : compiled;
    if (!decoratorName) return;
    if (REQUEST_DECORATORS.has(decoratorName)) roles.push([name, 'request']);
    if (RESPONSE_DECORATORS.has(decoratorName)) {
      roles.push([name, 'response']);
      const options = decorator ? /** @type {import('typescript').CallExpression} */ (decorator).arguments[0] : null;
      if (!options || !/passthrough\s*:\s*true/.test(options.getText()))
        add(decorator ?? parameter, `@${decoratorName}() without passthrough`, RES_WITHOUT_PASSTHROUGH);
    }
  });
  return roles;
}

/** @param {typeof import('typescript')} ts @param {import('typescript').SignatureDeclaration} fn */
function isTrackerMethod(ts, fn) {
  return ts.isMethodDeclaration(fn) && ts.isIdentifier(fn.name) && fn.name.text === 'getTracker';
}

/**
 * `use(req, res, next)` of a class that implements NestMiddleware, or any `use` of three parameters in a class whose
 * name ends in Middleware (compiled code has no implements clause).
 * @param {typeof import('typescript')} ts @param {import('typescript').SignatureDeclaration} fn
 */
function isMiddlewareUse(ts, fn) {
  if (!ts.isMethodDeclaration(fn) || !ts.isIdentifier(fn.name) || fn.name.text !== 'use' || fn.parameters.length < 2)
    return false;
  const owner = fn.parent;
  if (!ts.isClassLike(owner)) return false;
  const implementsMiddleware = owner.heritageClauses?.some((clause) =>
    clause.types.some((type) => type.expression.getText() === 'NestMiddleware'),
  );
  return Boolean(implementsMiddleware || owner.name?.text.endsWith('Middleware'));
}

/**
 * `context.switchToHttp().getRequest()` (guards, interceptors) and `host.switchToHttp().getResponse()` (filters):
 * Fastify's request and reply on Fastify.
 * @param {typeof import('typescript')} ts @param {import('typescript').Expression} expression
 * @returns {Role | null}
 */
function contextRole(ts, expression) {
  let inner = expression;
  while (ts.isAsExpression(inner) || ts.isParenthesizedExpression(inner) || ts.isNonNullExpression(inner))
    inner = inner.expression;
  if (!ts.isCallExpression(inner) || !ts.isPropertyAccessExpression(inner.expression)) return null;
  const name = inner.expression.name.text;
  if (name === 'getRequest') return 'request';
  if (name === 'getResponse') return 'response';
  return null;
}

/**
 * In tsc's output a parameter decorator is `__param(1, Res())` in the method's `__decorate([...], Class.prototype,
 * "name", null)`: the parameter nodes those name, with the decorator's name.
 * @param {typeof import('typescript')} ts @param {import('typescript').SourceFile} tree
 */
function compiledParameterRoles(ts, tree) {
  /** @type {Map<import('typescript').Node, string>} */
  const roles = new Map();
  /** @type {Map<string, import('typescript').ClassLikeDeclaration>} */
  const classes = new Map();
  /** @param {import('typescript').Node} node */
  const collect = (node) => {
    if (ts.isClassLike(node) && node.name) classes.set(node.name.text, node);
    ts.forEachChild(node, collect);
  };
  collect(tree);
  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    if (ts.isCallExpression(node) && calleeName(ts, node.expression) === '__decorate' && node.arguments.length >= 3) {
      const [list, target, key] = node.arguments;
      const className =
        ts.isPropertyAccessExpression(target) && ts.isIdentifier(target.expression) ? target.expression.text : null;
      const method =
        className && ts.isStringLiteral(key)
          ? classes.get(className)?.members.find((m) => ts.isMethodDeclaration(m) && m.name.getText() === key.text)
          : undefined;
      if (method && ts.isMethodDeclaration(method) && ts.isArrayLiteralExpression(list))
        for (const element of list.elements) {
          if (!ts.isCallExpression(element) || calleeName(ts, element.expression) !== '__param') continue;
          const [index, decorator] = element.arguments;
          if (!index || !ts.isNumericLiteral(index) || !decorator || !ts.isCallExpression(decorator)) continue;
          const name = calleeName(ts, decorator.expression);
          const parameter = method.parameters[Number(index.text)];
          if (name && parameter && (REQUEST_DECORATORS.has(name) || RESPONSE_DECORATORS.has(name)))
            roles.set(parameter, name);
        }
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return roles;
}

/**
 * A callee's name: `Res`, `common.Res`, and tsc's `(0, common_1.Res)`.
 * @param {typeof import('typescript')} ts @param {import('typescript').Expression} expression
 * @returns {string | null}
 */
function calleeName(ts, expression) {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  if (ts.isParenthesizedExpression(expression)) {
    const inner = expression.expression;
    if (ts.isBinaryExpression(inner) && inner.operatorToken.kind === ts.SyntaxKind.CommaToken)
      return calleeName(ts, inner.right);
    return calleeName(ts, inner);
  }
  return null;
}

/**
 * The first member off a name: `res.status(201).json(…)` has the root `res` and member `status`; reported only when
 * the first member is Express's, else its next link is looked at through its own access node.
 * @param {typeof import('typescript')} ts @param {import('typescript').PropertyAccessExpression} access
 */
function chainRoot(ts, access) {
  if (ts.isIdentifier(access.expression)) return { object: access.expression, member: access.name.text, access };
  // res.status(201).json(…): status and type chain on both; what follows them is looked up on the same object
  let inner = access.expression;
  while (ts.isCallExpression(inner) && ts.isPropertyAccessExpression(inner.expression)) {
    const link = inner.expression;
    if (!['status', 'code', 'type', 'header'].includes(link.name.text)) return null;
    if (ts.isIdentifier(link.expression)) return { object: link.expression, member: access.name.text, access };
    inner = link.expression;
  }
  return null;
}

/** @param {typeof import('typescript')} ts @param {import('typescript').Node} node */
function isAssignmentTarget(ts, node) {
  const parent = node.parent;
  return (
    ts.isBinaryExpression(parent) &&
    parent.left === node &&
    parent.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
    parent.operatorToken.kind <= ts.SyntaxKind.LastAssignment
  );
}

/** `HttpStatus.FOUND` as redirect's first argument. @param {typeof import('typescript')} ts @param {import('typescript').Node} node */
function isStatusEnum(ts, node) {
  return ts.isPropertyAccessExpression(node) && node.expression.getText().endsWith('HttpStatus');
}

/** @param {typeof import('typescript')} ts @param {import('typescript').Expression} expression */
function isRequireOf(ts, expression) {
  return (
    ts.isCallExpression(expression) &&
    ts.isIdentifier(expression.expression) &&
    expression.expression.text === 'require' &&
    expression.arguments.length === 1 &&
    ts.isStringLiteral(expression.arguments[0])
  );
}

/**
 * The local names an import binds, each with whether it is written as a type-only import.
 * @param {typeof import('typescript')} ts @param {import('typescript').ImportClause} clause
 */
function importedNames(ts, clause) {
  const typeOnly = clause.isTypeOnly;
  const names = clause.name ? [{ local: clause.name.text, typeOnly }] : [];
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) names.push({ local: bindings.name.text, typeOnly });
  if (bindings && ts.isNamedImports(bindings))
    for (const element of bindings.elements)
      names.push({ local: element.name.text, typeOnly: typeOnly || element.isTypeOnly });
  return names;
}

/**
 * The package an app.use argument comes from: `cookieParser()`, `session({...})`, `passport.initialize()`,
 * `express.json()`, tsc's `(0, cookie_parser_1.default)()`.
 * @param {typeof import('typescript')} ts @param {import('typescript').Expression} argument
 * @param {Map<string, { pkg: string }>} packageNames
 */
function packageOf(ts, argument, packageNames) {
  /** @type {import('typescript').Node} */
  let node = argument;
  for (;;) {
    if (ts.isCallExpression(node)) node = node.expression;
    else if (ts.isPropertyAccessExpression(node)) node = node.expression;
    else if (ts.isParenthesizedExpression(node)) {
      const inner = node.expression;
      node =
        ts.isBinaryExpression(inner) && inner.operatorToken.kind === ts.SyntaxKind.CommaToken ? inner.right : inner;
    } else break;
  }
  return ts.isIdentifier(node) ? (packageNames.get(node.text) ?? null) : null;
}

/**
 * The statement that binds a package's local name: an import, or a `require` in compiled code.
 * @param {typeof import('typescript')} ts @param {import('typescript').SourceFile} tree @param {string} local
 */
function findImport(ts, tree, local) {
  return tree.statements.find(
    (statement) =>
      (ts.isImportDeclaration(statement) &&
        statement.importClause &&
        importedNames(ts, statement.importClause).some((name) => name.local === local)) ||
      (ts.isVariableStatement(statement) &&
        statement.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === local)),
  );
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
