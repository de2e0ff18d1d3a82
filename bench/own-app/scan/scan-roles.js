// @ts-check
// What a name holds in the scanned code (scan-file.js): Fastify's request or reply (a handler's @Req()/@Res(), a guard's
// getRequest(), a filter's getResponse(), a throttler's getTracker(req)), or in middleware Node's raw request and
// response; read from decorators in TypeScript and from tsc's __param calls in compiled code, and a request-scoped
// class's injected request.
import { RES_WITHOUT_PASSTHROUGH } from './fastify-differences.js';

/**
 * @typedef {'request' | 'response' | 'raw-request' | 'raw-response'} Role what a name holds on Fastify: Fastify's request
 *   or reply, or (in middleware) Node's raw ones
 */

const REQUEST_DECORATORS = new Set(['Req', 'Request']);
const RESPONSE_DECORATORS = new Set(['Res', 'Response']);

/** @param {Map<string, Role>} roles @param {import('typescript').Identifier} id */
export function roleOf(roles, id) {
  return roles.get(id.text) ?? null;
}

/**
 * What a file tells about its functions before they are visited: tsc's parameter decorators, the names it imports
 * Express's types as, and the functions it gives to app.use.
 * @typedef {object} RoleHints
 * @property {Map<import('typescript').Node, string>} compiledRoles a compiled method's parameter → its decorator
 * @property {Map<string, string>} expressTypes local name → the type imported from express (`*` for a namespace)
 * @property {Set<import('typescript').Node>} appUseFunctions functions given to app.use, or named …Middleware with
 *   (req, res, next): middleware on raw req/res
 * @property {Set<string>} functionNames the functions the file declares by name: given to app.use, their bodies are read
 * @property {Set<string>} middlewareNames those of them read as middleware, which another file may give to app.use
 */

/**
 * @param {typeof import('typescript')} ts @param {import('typescript').SourceFile} tree
 * @param {RegExp} appNames the names an app is held in
 * @returns {RoleHints}
 */
export function roleHints(ts, tree, appNames) {
  /** @type {Map<string, string>} */
  const expressTypes = new Map();
  /** @type {Map<string, import('typescript').Node>} */
  const functions = new Map();
  /** @type {import('typescript').Expression[]} */
  const given = [];
  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      node.moduleSpecifier.text === 'express'
    ) {
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) expressTypes.set(bindings.name.text, '*');
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements)
          expressTypes.set(element.name.text, (element.propertyName ?? element.name).getText());
    }
    if (ts.isFunctionDeclaration(node) && node.name) functions.set(node.name.text, node);
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      isFunction(ts, node.initializer)
    )
      functions.set(node.name.text, node.initializer);
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'use' &&
      ts.isIdentifier(node.expression.expression) &&
      appNames.test(node.expression.expression.text)
    )
      given.push(...node.arguments);
    ts.forEachChild(node, visit);
  };
  visit(tree);
  /** @type {Set<import('typescript').Node>} */
  const appUseFunctions = new Set();
  // a functional middleware exported for another file's app.use: `RequestIdMiddleware = (req, res, next) => …`
  for (const [name, fn] of functions)
    if (name.endsWith('Middleware') && ts.isFunctionLike(fn) && fn.parameters.length >= 3) appUseFunctions.add(fn);
  for (const argument of given) {
    if (isFunction(ts, argument)) appUseFunctions.add(argument);
    const named = ts.isIdentifier(argument) ? functions.get(argument.text) : undefined;
    if (named) appUseFunctions.add(named);
  }
  return {
    compiledRoles: compiledParameterRoles(ts, tree),
    expressTypes,
    appUseFunctions,
    functionNames: new Set(functions.keys()),
    middlewareNames: new Set([...functions].flatMap(([name, fn]) => (appUseFunctions.has(fn) ? [name] : []))),
  };
}

/** @param {typeof import('typescript')} ts @param {import('typescript').Node} node */
function isFunction(ts, node) {
  return ts.isArrowFunction(node) || ts.isFunctionExpression(node);
}

/**
 * The roles a function's parameters take: a handler's @Req()/@Res() (a passthrough-less @Res() is a finding of its
 * own), a middleware's use(req, res, next) or a function given to app.use, a parameter typed with Express's Request or
 * Response (a helper a guard hands its request to), and in compiled code the same read from __param(i, Res()).
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').SignatureDeclaration} fn
 * @param {RoleHints} hints
 * @param {(node: import('typescript').Node, rule: string, difference: import('./fastify-differences.js').Difference) => void} add
 * @returns {[string, Role][]}
 */
export function parameterRoles(ts, fn, hints, add) {
  /** @type {[string, Role][]} */
  const roles = [];
  const { compiledRoles, expressTypes, appUseFunctions } = hints;
  const typed = fn.parameters.map((parameter) => expressType(ts, parameter.type, expressTypes));
  const middleware = isMiddlewareUse(ts, fn) || appUseFunctions.has(fn) || typed.includes('NextFunction');
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
    const decorator = decoratorsOf(ts, parameter)
      .map((d) => d.expression)
      .find(
        (e) =>
          ts.isCallExpression(e) && ['Req', 'Request', 'Res', 'Response'].includes(calleeName(ts, e.expression) ?? ''),
      );
    const compiled = compiledRoles.get(parameter);
    const decoratorName = decorator
      ? calleeName(ts, /** @type {import('typescript').CallExpression} */ (decorator).expression)
      : compiled;
    if (!decoratorName) {
      if (typed[index] === 'Request') roles.push([name, 'request']);
      if (typed[index] === 'Response') roles.push([name, 'response']);
      return;
    }
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

/**
 * The Express type a parameter is annotated with: `Request`, `express.Response`, `Request & { user }`.
 * @param {typeof import('typescript')} ts @param {import('typescript').TypeNode | undefined} type
 * @param {Map<string, string>} expressTypes
 * @returns {string | null}
 */
function expressType(ts, type, expressTypes) {
  if (!type) return null;
  if (ts.isIntersectionTypeNode(type) || ts.isUnionTypeNode(type))
    return type.types.map((member) => expressType(ts, member, expressTypes)).find(Boolean) ?? null;
  if (!ts.isTypeReferenceNode(type)) return null;
  const { typeName } = type;
  if (ts.isIdentifier(typeName)) return expressTypes.get(typeName.text) ?? null;
  return ts.isIdentifier(typeName.left) && expressTypes.get(typeName.left.text) === '*' ? typeName.right.text : null;
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
export function contextRole(ts, expression) {
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
 * A node's decorators, in the app's TypeScript of any version: getDecorators() from 4.8, node.decorators before it
 * (4.7 and older have no getDecorators, and keep decorators out of the modifiers).
 * @param {typeof import('typescript')} ts @param {import('typescript').Node} node
 * @returns {readonly import('typescript').Decorator[]}
 */
export function decoratorsOf(ts, node) {
  if (typeof ts.getDecorators === 'function') return ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : [];
  const { decorators = [], modifiers = [] } = /** @type {{ decorators?: any[], modifiers?: any[] }} */ (node);
  return [...decorators, ...modifiers.filter((modifier) => modifier.kind === ts.SyntaxKind.Decorator)];
}

/**
 * A callee's name: `Res`, `common.Res`, and tsc's `(0, common_1.Res)`.
 * @param {typeof import('typescript')} ts @param {import('typescript').Expression} expression
 * @returns {string | null}
 */
export function calleeName(ts, expression) {
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
 * A request-scoped class's request, `constructor(@Inject(REQUEST) private readonly request: Request)`: Fastify's
 * request on Fastify, read as `this.request` in every method. In tsc's output the decorator is
 * `__param(0, (0, common_1.Inject)(core_1.REQUEST))` in the class's __decorate call, and the constructor assigns
 * `this.request = request`.
 * @param {typeof import('typescript')} ts @param {import('typescript').ClassLikeDeclaration} node
 * @returns {[string, Role][]}
 */
export function injectedRequest(ts, node) {
  const constructor = node.members.find((member) => ts.isConstructorDeclaration(member));
  if (!constructor || !ts.isConstructorDeclaration(constructor)) return [];
  const compiled = compiledRequestParameters(ts, node);
  return constructor.parameters.flatMap((parameter, index) => {
    if (!ts.isIdentifier(parameter.name)) return [];
    if (decoratorsOf(ts, parameter).some(({ expression }) => injectsRequest(ts, expression)))
      return [/** @type {[string, Role]} */ ([`this.${parameter.name.text}`, 'request'])];
    if (!compiled.has(index)) return [];
    const held = assignedTo(ts, constructor, parameter.name.text);
    return held ? [/** @type {[string, Role]} */ ([`this.${held}`, 'request'])] : [];
  });
}

/** `Inject(REQUEST)`, `(0, common_1.Inject)(core_1.REQUEST)`. @param {typeof import('typescript')} ts @param {import('typescript').Expression} expression */
function injectsRequest(ts, expression) {
  return (
    ts.isCallExpression(expression) &&
    calleeName(ts, expression.expression) === 'Inject' &&
    expression.arguments.length === 1 &&
    calleeName(ts, expression.arguments[0]) === 'REQUEST'
  );
}

/**
 * The constructor parameters tsc's `__decorate([…, __param(i, Inject(REQUEST)), …], Class)` injects the request into.
 * @param {typeof import('typescript')} ts @param {import('typescript').ClassLikeDeclaration} node
 * @returns {Set<number>}
 */
function compiledRequestParameters(ts, node) {
  const name = node.name?.text;
  /** @type {Set<number>} */
  const indexes = new Set();
  if (!name) return indexes;
  /** @param {import('typescript').Node} child */
  const visit = (child) => {
    if (ts.isCallExpression(child) && calleeName(ts, child.expression) === '__decorate') {
      const [decorators, target] = child.arguments;
      if (
        target &&
        ts.isIdentifier(target) &&
        target.text === name &&
        decorators &&
        ts.isArrayLiteralExpression(decorators)
      )
        for (const element of decorators.elements) {
          const [index, decorator] =
            ts.isCallExpression(element) && calleeName(ts, element.expression) === '__param' ? element.arguments : [];
          if (index && ts.isNumericLiteral(index) && decorator && injectsRequest(ts, decorator))
            indexes.add(Number(index.text));
        }
    }
    ts.forEachChild(child, visit);
  };
  visit(node.getSourceFile());
  return indexes;
}

/**
 * The property a constructor keeps a parameter in: `this.request = request`.
 * @param {typeof import('typescript')} ts @param {import('typescript').ConstructorDeclaration} constructor
 * @param {string} parameter
 */
function assignedTo(ts, constructor, parameter) {
  for (const statement of constructor.body?.statements ?? []) {
    if (!ts.isExpressionStatement(statement) || !ts.isBinaryExpression(statement.expression)) continue;
    const { left, right, operatorToken } = statement.expression;
    if (
      operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isIdentifier(right) &&
      right.text === parameter &&
      ts.isPropertyAccessExpression(left) &&
      left.expression.kind === ts.SyntaxKind.ThisKeyword
    )
      return left.name.text;
  }
  return null;
}
