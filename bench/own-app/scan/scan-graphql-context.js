// @ts-check
// The GraphQL context on Fastify (scan-file.js asks it of each node): Apollo's Express middleware calls the context
// function with `{ req, res }`, Apollo's Fastify integration and Mercurius with `(request, reply)`. A context that
// destructures `{ req, res }` gets no reply there (Nest puts the request back as `req`), and what reads the reply from
// the context (GqlExecutionContext's getContext().res, @Context('res'), a whole @Context()'s .res) gets undefined.
import { decoratorsOf } from './scan-roles.js';

/** @typedef {import('./fastify-differences.js').Difference} Difference */

/** The keys a context names the reply under. */
const REPLY_KEYS = new Set(['res', 'reply', 'response']);
/** The root options a GraphQL module is given its context in. */
const GRAPHQL_MODULE = /^GraphQLModule$/;

/** A context function destructuring the reply out of its first argument. */
export const CONTEXT_REPLY = {
  kind: /** @type {const} */ ('differs'),
  onFastify:
    'Apollo’s Fastify integration and Mercurius call the context function with (request, reply), not { req, res }: destructured from Fastify’s request, the reply is undefined (Nest sets req to the request itself), so whatever reads it from the context (cookies set, headers written by a resolver or guard) throws; nothing breaks while nothing reads it',
  fix: 'take both shapes: context: (arg, reply) => (reply ? { req: arg, res: reply } : { req: arg.req, res: arg.res })',
};

/** A read of the reply from the GraphQL context. */
export const CONTEXT_REPLY_READ = {
  kind: /** @type {const} */ ('breaks'),
  onFastify:
    'the reply in the GraphQL context is what the context function returned for it: undefined where it destructures { req, res } (Fastify calls it with (request, reply)); else Fastify’s reply, which has no Express methods (cookie(), setHeader() through @fastify/cookie and header())',
  fix: 'make the context give the reply on both adapters (context: (arg, reply) => (reply ? { req: arg, res: reply } : { req: arg.req, res: arg.res })), and write to it with what both replies have (header(), status()); cookies through @fastify/cookie’s reply.setCookie on Fastify',
};

/**
 * What a node of the GraphQL context shows on Fastify: a context function destructuring the reply, a read of the
 * reply from GqlExecutionContext's getContext() or through @Context('res').
 * @param {typeof import('typescript')} ts @param {import('typescript').Node} node
 * @returns {{ node: import('typescript').Node, rule: string, difference: Difference }[]}
 */
export function graphqlContextFindings(ts, node) {
  if (ts.isPropertyAssignment(node) && propertyName(ts, node.name) === 'context' && inGraphqlModule(ts, node)) {
    const fn = node.initializer;
    const first = (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && fn.parameters[0];
    if (first && ts.isObjectBindingPattern(first.name) && bindsReply(ts, first.name))
      return [{ node, rule: 'GraphQL context ({ req, res })', difference: CONTEXT_REPLY }];
  }
  if (ts.isPropertyAccessExpression(node) && REPLY_KEYS.has(node.name.text) && isGetContext(ts, node.expression))
    return [{ node, rule: `getContext().${node.name.text}`, difference: CONTEXT_REPLY_READ }];
  if (
    ts.isVariableDeclaration(node) &&
    ts.isObjectBindingPattern(node.name) &&
    node.initializer &&
    isGetContext(ts, node.initializer) &&
    bindsReply(ts, node.name)
  )
    return [{ node, rule: 'getContext() { res }', difference: CONTEXT_REPLY_READ }];
  if (ts.isParameter(node) && ts.isIdentifier(node.name) && isWholeContext(ts, node)) {
    const name = node.name.text;
    const body = /** @type {import('typescript').FunctionLikeDeclaration} */ (node.parent).body;
    return body ? replyReads(ts, body, name) : [];
  }
  if (ts.isDecorator(node) && ts.isCallExpression(node.expression)) {
    const [key] = node.expression.arguments;
    const callee = node.expression.expression;
    if (
      ts.isIdentifier(callee) &&
      callee.text === 'Context' &&
      key &&
      ts.isStringLiteral(key) &&
      REPLY_KEYS.has(key.text)
    )
      return [{ node, rule: `@Context('${key.text}')`, difference: CONTEXT_REPLY_READ }];
  }
  return [];
}

/**
 * A resolver's parameter decorated `@Context()` with no key: the whole context, the reply among it.
 * @param {typeof import('typescript')} ts @param {import('typescript').ParameterDeclaration} parameter
 */
function isWholeContext(ts, parameter) {
  return decoratorsOf(ts, parameter).some(
    (d) =>
      ts.isCallExpression(d.expression) &&
      ts.isIdentifier(d.expression.expression) &&
      d.expression.expression.text === 'Context' &&
      d.expression.arguments.length === 0,
  );
}

/**
 * The reads of the reply from a context held in `name` within a function's body: `ctx.res`, `const { res } = ctx`.
 * @param {typeof import('typescript')} ts @param {import('typescript').Node} body @param {string} name
 * @returns {{ node: import('typescript').Node, rule: string, difference: Difference }[]}
 */
function replyReads(ts, body, name) {
  /** @type {{ node: import('typescript').Node, rule: string, difference: Difference }[]} */
  const found = [];
  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    const held = (/** @type {import('typescript').Node} */ e) => ts.isIdentifier(e) && e.text === name;
    if (ts.isPropertyAccessExpression(node) && held(node.expression) && REPLY_KEYS.has(node.name.text))
      found.push({ node, rule: `@Context() ${name}.${node.name.text}`, difference: CONTEXT_REPLY_READ });
    if (
      ts.isVariableDeclaration(node) &&
      ts.isObjectBindingPattern(node.name) &&
      node.initializer &&
      held(node.initializer) &&
      bindsReply(ts, node.name)
    )
      found.push({ node, rule: `@Context() { res }`, difference: CONTEXT_REPLY_READ });
    ts.forEachChild(node, visit);
  };
  visit(body);
  return found;
}

/** @param {typeof import('typescript')} ts @param {import('typescript').ObjectBindingPattern} pattern */
function bindsReply(ts, pattern) {
  return pattern.elements.some((element) => {
    const key = element.propertyName ?? element.name;
    return ts.isIdentifier(key) && REPLY_KEYS.has(key.text);
  });
}

/** @param {typeof import('typescript')} ts @param {import('typescript').PropertyName} name */
function propertyName(ts, name) {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : null;
}

/**
 * `GqlExecutionContext.create(context).getContext()`, or getContext() on a name holding it (`ctx.getContext()`): not a
 * microservice's or a gateway's (switchToRpc(), switchToWs()).
 * @param {typeof import('typescript')} ts @param {import('typescript').Expression} expression
 */
function isGetContext(ts, expression) {
  if (!ts.isCallExpression(expression) || !ts.isPropertyAccessExpression(expression.expression)) return false;
  if (expression.expression.name.text !== 'getContext') return false;
  return !/switchTo(Rpc|Ws)/.test(expression.expression.expression.getText());
}

/**
 * Whether a `context:` property sits in what a GraphQL module is given: GraphQLModule.forRoot's options, or a factory
 * (forRootAsync, a GqlOptionsFactory's createGqlOptions) that returns them, where a driver is named beside it.
 * @param {typeof import('typescript')} ts @param {import('typescript').PropertyAssignment} property
 */
function inGraphqlModule(ts, property) {
  const options = property.parent;
  if (!ts.isObjectLiteralExpression(options)) return false;
  const named = options.properties.some(
    (p) =>
      p.name && ts.isIdentifier(p.name) && ['driver', 'autoSchemaFile', 'typePaths', 'schema'].includes(p.name.text),
  );
  if (named) return true;
  const call = options.parent;
  return (
    ts.isCallExpression(call) &&
    ts.isPropertyAccessExpression(call.expression) &&
    GRAPHQL_MODULE.test(call.expression.expression.getText())
  );
}
