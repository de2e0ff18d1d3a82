// @ts-check
// Where a class the scan reads is made to run for many routes at once: a global filter, guard or interceptor
// (app.useGlobalFilters(new X()), { provide: APP_FILTER, useClass: X }), one on a controller (@UseFilters(X)) or
// middleware applied to routes (consumer.apply(X).forRoutes('*')). A finding in such a class is one cause shared by
// those routes (switching.js).

/**
 * @typedef {import('../../model/own-app-record.js').SharedRole} SharedRole
 * @typedef {import('../../model/own-app-record.js').SharedCause} SharedCause
 */

/** The decorators that bind a class to every route of the controller they decorate. */
const CONTROLLER_DECORATORS = /** @type {Record<string, SharedRole>} */ ({
  UseFilters: 'filter',
  UseGuards: 'guard',
  UseInterceptors: 'interceptor',
});
const GLOBAL_METHODS = /** @type {Record<string, SharedRole>} */ ({
  useGlobalFilters: 'filter',
  useGlobalGuards: 'guard',
  useGlobalInterceptors: 'interceptor',
});
const PROVIDER_TOKENS = /** @type {Record<string, SharedRole>} */ ({
  APP_FILTER: 'filter',
  APP_GUARD: 'guard',
  APP_INTERCEPTOR: 'interceptor',
});
/** forRoutes paths that mean every route, in each path syntax Nest has taken. */
const EVERY_PATH = new Set(['*', '/*', '(.*)', '/(.*)', '{*path}', '/{*path}', '*path', '/*path', '*splat']);

/**
 * The shared causes a node registers, without their place (the caller adds it).
 * @param {typeof import('typescript')} ts @param {import('typescript').Node} node
 * @returns {Array<Omit<SharedCause, 'registered'>>}
 */
export function sharedRegistrations(ts, node) {
  if (ts.isObjectLiteralExpression(node)) return provided(ts, node);
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && CONTROLLER_DECORATORS[node.expression.text])
    return onController(ts, node, CONTROLLER_DECORATORS[node.expression.text]);
  if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression)) return [];
  const member = node.expression.name.text;
  const role = GLOBAL_METHODS[member];
  if (role)
    return node.arguments.flatMap((argument) => classOf(ts, argument)).map((name) => ({ role, name, routes: null }));
  if (member === 'forRoutes') return appliedMiddleware(ts, node);
  return [];
}

/**
 * `@UseFilters(JsonErrorFilter)` on a controller class: every route of that controller (on a method it is that route's
 * own, and no shared cause).
 * @param {typeof import('typescript')} ts @param {import('typescript').CallExpression} call @param {SharedRole} role
 * @returns {Array<Omit<SharedCause, 'registered'>>}
 */
function onController(ts, call, role) {
  const decorated = ts.isDecorator(call.parent) ? call.parent.parent : undefined;
  if (!decorated || !ts.isClassDeclaration(decorated) || !decorated.name) return [];
  const controller = decorated.name.text;
  return call.arguments
    .flatMap((argument) => lastName(ts, ts.isNewExpression(argument) ? argument.expression : argument) ?? [])
    .map((name) => ({ role, name, routes: [controller] }));
}

/**
 * `{ provide: APP_FILTER, useClass: X }`, tsc's `{ provide: core_1.APP_FILTER, useClass: x_1.X }`.
 * @param {typeof import('typescript')} ts @param {import('typescript').ObjectLiteralExpression} object
 */
function provided(ts, object) {
  const value = (/** @type {string} */ name) =>
    object.properties.find(
      (p) => ts.isPropertyAssignment(p) && p.name && ts.isIdentifier(p.name) && p.name.text === name,
    );
  const provide = value('provide');
  const useClass = value('useClass');
  if (!provide || !useClass || !ts.isPropertyAssignment(provide) || !ts.isPropertyAssignment(useClass)) return [];
  const role = PROVIDER_TOKENS[lastName(ts, provide.initializer) ?? ''];
  const name = lastName(ts, useClass.initializer);
  return role && name ? [{ role, name, routes: null }] : [];
}

/**
 * `consumer.apply(A, B).forRoutes('*')`: every route; `.forRoutes(UsersController, 'orders')`: those.
 * @param {typeof import('typescript')} ts @param {import('typescript').CallExpression} call forRoutes(…)
 * @returns {Array<Omit<SharedCause, 'registered'>>}
 */
function appliedMiddleware(ts, call) {
  const receiver = /** @type {import('typescript').PropertyAccessExpression} */ (call.expression).expression;
  let apply = receiver;
  // apply(X).exclude(…).forRoutes(…)
  while (ts.isCallExpression(apply) && ts.isPropertyAccessExpression(apply.expression)) {
    if (apply.expression.name.text === 'apply') break;
    apply = apply.expression.expression;
  }
  if (!ts.isCallExpression(apply) || !ts.isPropertyAccessExpression(apply.expression)) return [];
  if (apply.expression.name.text !== 'apply') return [];
  /** @type {string[]} */
  const targets = [];
  let every = false;
  for (const argument of call.arguments) {
    const path = ts.isStringLiteralLike(argument)
      ? argument.text
      : ts.isObjectLiteralExpression(argument)
        ? pathProperty(ts, argument)
        : null;
    if (path !== null && EVERY_PATH.has(path)) every = true;
    else if (path !== null) targets.push(`/${path.replace(/^\/+/, '')}`);
    else {
      const name = lastName(ts, argument);
      if (name) targets.push(name);
    }
  }
  const routes = every ? null : targets;
  return apply.arguments
    .flatMap((argument) => lastName(ts, argument) ?? [])
    .map((name) => ({ role: /** @type {SharedRole} */ ('middleware'), name, routes }));
}

/** @param {typeof import('typescript')} ts @param {import('typescript').ObjectLiteralExpression} object */
function pathProperty(ts, object) {
  for (const p of object.properties)
    if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'path')
      return ts.isStringLiteralLike(p.initializer) ? p.initializer.text : null;
  return null;
}

/**
 * The class an argument makes: `new X(…)`, `app.get(X)`, `new x_1.X()`.
 * @param {typeof import('typescript')} ts @param {import('typescript').Expression} argument
 * @returns {string[]}
 */
function classOf(ts, argument) {
  if (ts.isNewExpression(argument)) return [lastName(ts, argument.expression) ?? []].flat();
  if (ts.isCallExpression(argument) && argument.arguments.length === 1)
    return [lastName(ts, argument.arguments[0]) ?? []].flat();
  return [];
}

/** @param {typeof import('typescript')} ts @param {import('typescript').Expression} expression */
function lastName(ts, expression) {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return null;
}

/**
 * The routes a shared cause reaches, of those the app registered.
 * @param {Pick<SharedCause, 'routes'>} cause
 * @param {Array<{ path: string, handler: string }>} routes
 */
export function routesReached(cause, routes) {
  if (cause.routes === null) return routes;
  const targets = cause.routes;
  return routes.filter((route) =>
    targets.some((target) =>
      target.startsWith('/') ? `${route.path}/`.includes(`${target}/`) : route.handler.startsWith(`${target}.`),
    ),
  );
}
