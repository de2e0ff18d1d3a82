// @ts-check
// The scan's rules for an app's bootstrap (main.ts, the setup module and what they call): NestFactory.create's options,
// listen() without a host, enableCors() without methods, trust proxy, useStaticAssets, setViewEngine, Swagger and
// GraphQL drivers.
// Each call is judged with what is installed beside the app (app-packages.js).
import {
  CORS_ORIGIN_FROM_VALUE,
  CREATE_OPTIONS,
  corsWithoutMethods,
  graphqlDriver,
  listenWithoutHost,
  staticAssets,
  swaggerStatic,
  trustProxy,
  viewEngine,
} from './app-differences.js';

/**
 * @typedef {import('./fastify-differences.js').Difference} Difference
 * @typedef {{ node: import('typescript').Node, rule: string, difference: Difference }} BootstrapFinding
 * @typedef {object} BootstrapContext
 * @property {import('../launch/app-packages.js').AppPackages} installed
 * @property {Set<string>} corsOrigins the literal origins enableCors or the cors option names are added here
 */

/** What Express's own app methods become on Fastify's instance, and the change there. */
const INSTANCE_METHODS = /** @type {Record<string, Omit<Difference, 'onFastify'>>} */ ({
  set: { kind: 'breaks', fix: 'the matching FastifyAdapter option (new FastifyAdapter({ … }))' },
  enable: { kind: 'breaks', fix: 'the matching FastifyAdapter option (new FastifyAdapter({ … }))' },
  disable: { kind: 'breaks', fix: 'drop it (Fastify sends no x-powered-by), or the matching FastifyAdapter option' },
  engine: { kind: 'plugin', fix: '@fastify/view: app.setViewEngine({ engine: { name: require(name) }, templates })' },
});

/** @param {string} member @returns {{ onFastify: string }} */
const INSTANCE_ON_FASTIFY = (member) => ({
  onFastify: `getHttpAdapter().getInstance() is Fastify's instance on Fastify, which has no ${member}(): TypeError while booting`,
});

/** The names an app is held in, in main.ts and setup modules. */
export const APP_NAMES = /^(app|application|nestApp|server)$/;

/**
 * What a call in the bootstrap does on Fastify, when it is one of the calls this module knows.
 * @param {typeof import('typescript')} ts @param {import('typescript').CallExpression} call
 * @param {BootstrapContext} context
 * @returns {BootstrapFinding[]}
 */
export function bootstrapCall(ts, call, context) {
  if (!ts.isPropertyAccessExpression(call.expression)) return [];
  const member = call.expression.name.text;
  const receiver = lastName(ts, call.expression.expression);
  if (receiver === 'NestFactory' && member === 'create') return createOptions(ts, call, context);
  if (receiver === 'SwaggerModule' && member === 'setup') {
    const difference = swaggerStatic(context.installed);
    return difference ? [{ node: call, rule: 'SwaggerModule.setup()', difference }] : [];
  }
  if (receiver === 'GraphQLModule' && /^forRoot(Async)?$/.test(member)) return graphql(ts, call, context);
  // held under an app's name (`const server = …getInstance()`), it is judged as the app below
  const appNamed = ts.isIdentifier(call.expression.expression) && APP_NAMES.test(call.expression.expression.text);
  if (!appNamed && Object.hasOwn(INSTANCE_METHODS, member) && holdsHttpInstance(ts, call.expression.expression))
    return [{ node: call, rule: `getInstance().${member}()`, difference: instanceCall(ts, call, member) }];
  if (!ts.isIdentifier(call.expression.expression) || !receiver || !APP_NAMES.test(receiver)) return [];
  return appCall(ts, call, member, context);
}

/**
 * What a bootstrap call runs under within its function, as written: the `if` around it (negated in its `else`), an
 * early `if (…) return;` before it, a `? :` or the left of `&&`; null where it runs whenever its function does. A
 * Swagger setup kept to development (`NODE_ENV !== 'production'`) does not run in the bench's production servers.
 * @param {typeof import('typescript')} ts @param {import('typescript').Node} node
 * @returns {string | null}
 */
export function conditionOf(ts, node) {
  /** @type {string[]} */
  const conditions = [];
  const written = (/** @type {import('typescript').Node} */ expression) => expression.getText().replace(/\s+/g, ' ');
  let child = node;
  for (let parent = node.parent; parent && !ts.isFunctionLike(parent) && !ts.isSourceFile(parent);) {
    if (ts.isIfStatement(parent) && child !== parent.expression)
      conditions.unshift(
        child === parent.thenStatement ? written(parent.expression) : `!(${written(parent.expression)})`,
      );
    else if (ts.isConditionalExpression(parent) && child !== parent.condition)
      conditions.unshift(child === parent.whenTrue ? written(parent.condition) : `!(${written(parent.condition)})`);
    else if (
      ts.isBinaryExpression(parent) &&
      parent.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken &&
      child === parent.right
    )
      conditions.unshift(written(parent.left));
    else if (ts.isBlock(parent))
      for (const statement of parent.statements.slice(0, parent.statements.indexOf(/** @type {any} */ (child))))
        if (ts.isIfStatement(statement) && !statement.elseStatement && returns(ts, statement.thenStatement))
          conditions.unshift(`!(${written(statement.expression)})`);
    child = parent;
    parent = parent.parent;
  }
  return conditions.length ? conditions.join(' && ') : null;
}

/** `return;`, or a block holding only one. @param {typeof import('typescript')} ts @param {import('typescript').Statement} statement */
function returns(ts, statement) {
  if (ts.isReturnStatement(statement)) return true;
  return ts.isBlock(statement) && statement.statements.length === 1 && ts.isReturnStatement(statement.statements[0]);
}

/**
 * `app.getHttpAdapter().getInstance()`, or a name main.ts keeps it in (`const expressApp = …getInstance()`): the
 * Express app on Express, Fastify's instance on Fastify.
 * @param {typeof import('typescript')} ts @param {import('typescript').Expression} expression
 */
function holdsHttpInstance(ts, expression) {
  const inner = unwrapped(ts, expression);
  if (ts.isCallExpression(inner)) return lastName(ts, inner.expression) === 'getInstance';
  if (!ts.isIdentifier(inner)) return false;
  let held = false;
  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === inner.text &&
      node.initializer &&
      ts.isCallExpression(unwrapped(ts, node.initializer))
    )
      held ||= holdsHttpInstance(ts, node.initializer);
    if (!held) ts.forEachChild(node, visit);
  };
  visit(expression.getSourceFile());
  return held;
}

/** `await x`, `(x)`, `x as Express`, `<Express>x` → x. @param {typeof import('typescript')} ts @param {import('typescript').Expression} expression */
function unwrapped(ts, expression) {
  let inner = expression;
  while (
    ts.isAwaitExpression(inner) ||
    ts.isParenthesizedExpression(inner) ||
    ts.isAsExpression(inner) ||
    ts.isTypeAssertionExpression(inner) ||
    ts.isNonNullExpression(inner)
  )
    inner = inner.expression;
  return inner;
}

/**
 * A setting made on the Express app itself, which Fastify's instance does not have.
 * @param {typeof import('typescript')} ts @param {import('typescript').CallExpression} call @param {string} member
 * @returns {Difference}
 */
function instanceCall(ts, call, member) {
  const [first, second] = call.arguments;
  const setting = first && ts.isStringLiteralLike(first) ? first.text : null;
  if (setting === 'trust proxy' && (member === 'set' || member === 'enable'))
    return {
      ...trustProxy(member, member === 'set' && second ? second.getText() : 'true'),
      ...INSTANCE_ON_FASTIFY(member),
    };
  return { ...INSTANCE_METHODS[member], ...INSTANCE_ON_FASTIFY(member) };
}

/**
 * @param {typeof import('typescript')} ts @param {import('typescript').CallExpression} call @param {string} member
 * @param {BootstrapContext} context
 * @returns {BootstrapFinding[]}
 */
function appCall(ts, call, member, { installed, corsOrigins }) {
  const [first, second] = call.arguments;
  if (member === 'listen' && listensWithoutHost(ts, call))
    return [{ node: call, rule: 'app.listen() without a host', difference: listenWithoutHost(installed) }];
  if (member === 'enableCors') return cors(ts, call, first, installed, corsOrigins, 'app.enableCors()');
  if ((member === 'set' || member === 'enable') && first && ts.isStringLiteral(first) && first.text === 'trust proxy')
    return [
      {
        node: call,
        rule: `app.${member}('trust proxy')`,
        difference: trustProxy(member, member === 'set' && second ? second.getText() : 'true'),
      },
    ];
  if (member === 'setViewEngine' && first && ts.isStringLiteralLike(first))
    return [{ node: call, rule: `app.setViewEngine('${first.text}')`, difference: viewEngine(installed, first.text) }];
  if (member === 'useStaticAssets')
    return [
      {
        node: call,
        rule: 'app.useStaticAssets()',
        difference: staticAssets(
          installed,
          first !== undefined && !ts.isObjectLiteralExpression(first)
            ? { path: first.getText(), prefix: staticPrefix(ts, second) }
            : null,
        ),
      },
    ];
  return [];
}

/**
 * The prefix of Express's static options, `{ prefix: '/static' }`, as written.
 * @param {typeof import('typescript')} ts @param {import('typescript').Expression | undefined} options
 */
function staticPrefix(ts, options) {
  const prefix = options && ts.isObjectLiteralExpression(options) ? property(ts, options, 'prefix') : undefined;
  return prefix ? prefix.getText() : null;
}

/**
 * listen(port), listen(port, callback), listen({ port }): no host given.
 * @param {typeof import('typescript')} ts @param {import('typescript').CallExpression} call
 */
function listensWithoutHost(ts, call) {
  const [first, second] = call.arguments;
  if (!first) return false;
  if (ts.isObjectLiteralExpression(first)) return !property(ts, first, 'host') && !property(ts, first, 'path');
  return second === undefined || ts.isArrowFunction(second) || ts.isFunctionExpression(second);
}

/**
 * NestFactory.create(Module, [adapter,] options): the cors, httpsOptions and bodyParser options.
 * @param {typeof import('typescript')} ts @param {import('typescript').CallExpression} call
 * @param {BootstrapContext} context
 * @returns {BootstrapFinding[]}
 */
function createOptions(ts, call, { installed, corsOrigins }) {
  const options = call.arguments.slice(1).find((a) => ts.isObjectLiteralExpression(a));
  if (!options || !ts.isObjectLiteralExpression(options)) return [];
  /** @type {BootstrapFinding[]} */
  const found = [];
  const corsOption = property(ts, options, 'cors');
  if (corsOption && corsOption.kind !== ts.SyntaxKind.FalseKeyword)
    found.push(...cors(ts, corsOption, corsOption, installed, corsOrigins, 'NestFactory.create({ cors })'));
  const https = property(ts, options, 'httpsOptions');
  if (https)
    found.push({ node: https, rule: 'NestFactory.create({ httpsOptions })', difference: CREATE_OPTIONS.httpsOptions });
  const bodyParser = property(ts, options, 'bodyParser');
  if (bodyParser && bodyParser.kind === ts.SyntaxKind.FalseKeyword)
    found.push({
      node: bodyParser,
      rule: 'NestFactory.create({ bodyParser: false })',
      difference: CREATE_OPTIONS.bodyParser,
    });
  return found;
}

/**
 * enableCors(options) or the cors option: a finding when no `methods` is given (true, nothing, or an object without it);
 * options held in a variable are not read.
 * @param {typeof import('typescript')} ts @param {import('typescript').Node} node
 * @param {import('typescript').Expression | undefined} options @param {import('../launch/app-packages.js').AppPackages} installed
 * @param {Set<string>} corsOrigins @param {string} rule
 * @returns {BootstrapFinding[]}
 */
function cors(ts, node, options, installed, corsOrigins, rule) {
  const literal = options && ts.isObjectLiteralExpression(options) ? options : null;
  if (options && !literal && options.kind !== ts.SyntaxKind.TrueKeyword) return [];
  const origin = literal ? property(ts, literal, 'origin') : undefined;
  if (origin && ts.isStringLiteral(origin)) corsOrigins.add(origin.text);
  if (origin && ts.isArrayLiteralExpression(origin))
    for (const element of origin.elements) if (ts.isStringLiteral(element)) corsOrigins.add(element.text);
  /** @type {BootstrapFinding[]} */
  const found =
    origin && mayBeEmpty(ts, origin)
      ? [{ node: origin, rule: `${rule} origin from a value`, difference: CORS_ORIGIN_FROM_VALUE }]
      : [];
  if (literal && property(ts, literal, 'methods')) return found;
  const difference = corsWithoutMethods(installed);
  return difference ? [...found, { node, rule: `${rule} without methods`, difference }] : found;
}

/**
 * Whether an origin is a value the code does not fix (configService.get('CORS_ORIGIN'), process.env.ORIGIN, a name):
 * it may be empty where the app runs. A literal, a function, or a value with a literal fallback (`x || '*'`) is not.
 * @param {typeof import('typescript')} ts @param {import('typescript').Expression} origin
 * @returns {boolean}
 */
function mayBeEmpty(ts, origin) {
  const inner = unwrapped(ts, origin);
  if (ts.isBinaryExpression(inner)) {
    const fallback = [ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(
      inner.operatorToken.kind,
    );
    return fallback ? mayBeEmpty(ts, inner.right) : false;
  }
  return (
    ts.isIdentifier(inner) ||
    ts.isPropertyAccessExpression(inner) ||
    ts.isElementAccessExpression(inner) ||
    ts.isCallExpression(inner)
  );
}

/**
 * GraphQLModule.forRoot({ driver }) and forRootAsync({ driver, … }).
 * @param {typeof import('typescript')} ts @param {import('typescript').CallExpression} call
 * @param {BootstrapContext} context
 * @returns {BootstrapFinding[]}
 */
function graphql(ts, call, { installed }) {
  const [options] = call.arguments;
  const driver = options && ts.isObjectLiteralExpression(options) ? property(ts, options, 'driver') : undefined;
  const name = driver ? lastName(ts, driver) : null;
  const difference = name ? graphqlDriver(name, installed) : null;
  return difference && driver ? [{ node: driver, rule: `GraphQLModule driver ${name}`, difference }] : [];
}

/**
 * The value of an object literal's property, written `name: value` or shorthand.
 * @param {typeof import('typescript')} ts @param {import('typescript').ObjectLiteralExpression} object @param {string} name
 * @returns {import('typescript').Expression | undefined}
 */
function property(ts, object, name) {
  for (const element of object.properties) {
    if (!element.name || !ts.isIdentifier(element.name) || element.name.text !== name) continue;
    if (ts.isPropertyAssignment(element)) return element.initializer;
    if (ts.isShorthandPropertyAssignment(element)) return element.name;
  }
  return undefined;
}

/**
 * The last name of `NestFactory`, `core_1.NestFactory` (compiled), `(0, x.Y)`.
 * @param {typeof import('typescript')} ts @param {import('typescript').Expression} expression
 * @returns {string | null}
 */
function lastName(ts, expression) {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return null;
}
