// @ts-check
// Where a member of a request or reply is read (scan-file.js asks for each access and call): the name it is read on
// through a chain (`res.status(201).json`), a redirect's status call, req.ips read so that an absent list throws
// nothing, an exception filter's catch(), and an assignment's target.

/**
 * The first member off a name: `res.status(201).json(…)` has the root `res` and member `status`; reported only when
 * the first member is Express's, else its next link is looked at through its own access node.
 * @param {typeof import('typescript')} ts @param {import('typescript').PropertyAccessExpression} access
 */
export function chainRoot(ts, access) {
  const named = holderName(ts, access.expression);
  if (named) return { object: named, member: access.name.text, access };
  // res.status(201).json(…): status and type chain on both; what follows them is looked up on the same object
  let inner = access.expression;
  while (ts.isCallExpression(inner) && ts.isPropertyAccessExpression(inner.expression)) {
    const link = inner.expression;
    if (!['status', 'code', 'type', 'header'].includes(link.name.text)) return null;
    const holder = holderName(ts, link.expression);
    if (holder) return { object: holder, member: access.name.text, access };
    inner = link.expression;
  }
  return null;
}

/**
 * The name an object is held under, as roles are kept: `req`, or `this.request` for a class's injected request.
 * @param {typeof import('typescript')} ts @param {import('typescript').Expression} expression
 */
function holderName(ts, expression) {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression) && expression.expression.kind === ts.SyntaxKind.ThisKeyword)
    return `this.${expression.name.text}`;
  return null;
}

/**
 * The object `res` of `res.status(301)` or `res.code(301)`, as redirect's receiver.
 * @param {typeof import('typescript')} ts @param {import('typescript').Expression} receiver
 */
export function statusCallRoot(ts, receiver) {
  if (!ts.isCallExpression(receiver) || !ts.isPropertyAccessExpression(receiver.expression)) return null;
  const { name, expression } = receiver.expression;
  return ['status', 'code'].includes(name.text) && ts.isIdentifier(expression) ? expression : null;
}

/**
 * `req.ips?.length ? req.ips[0] : req.ip`: with optional chaining an absent ips throws nothing, and falls to req.ip as
 * Express's empty list does without a proxy, so the key is the same on both adapters.
 * @param {typeof import('typescript')} ts @param {import('typescript').PropertyAccessExpression} access
 * @param {string} member
 */
export function readsIpsSafely(ts, access, member) {
  if (member !== 'ips') return false;
  const parent = access.parent;
  const chained =
    (ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) &&
    parent.expression === access &&
    parent.questionDotToken !== undefined;
  const defaulted =
    ts.isBinaryExpression(parent) &&
    parent.left === access &&
    parent.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken;
  return chained || defaulted || guardedByChain(ts, access);
}

/**
 * Whether an access sits in the branch a condition reading ips?.… guards: `req.ips?.length ? req.ips[0] : req.ip`.
 * @param {typeof import('typescript')} ts @param {import('typescript').Node} node
 */
function guardedByChain(ts, node) {
  for (let inner = node, current = node.parent; current; inner = current, current = current.parent) {
    if (ts.isConditionalExpression(current) && current.whenTrue === inner)
      return /\bips\?\./.test(current.condition.getText());
    if (ts.isIfStatement(current) && current.thenStatement === inner)
      return /\bips\?\./.test(current.expression.getText());
    if (ts.isFunctionLike(current)) return false;
  }
  return false;
}

/**
 * Whether a node sits in an exception filter's catch(exception, host) method.
 * @param {typeof import('typescript')} ts @param {import('typescript').Node} node
 */
export function inFilterCatch(ts, node) {
  for (let current = node.parent; current; current = current.parent)
    if (ts.isMethodDeclaration(current) && ts.isClassLike(current.parent))
      return current.name.getText() === 'catch' && current.parameters.length === 2;
  return false;
}

/** @param {typeof import('typescript')} ts @param {import('typescript').Node} node */
export function isAssignmentTarget(ts, node) {
  const parent = node.parent;
  return (
    ts.isBinaryExpression(parent) &&
    parent.left === node &&
    parent.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
    parent.operatorToken.kind <= ts.SyntaxKind.LastAssignment
  );
}

/** `HttpStatus.FOUND` as redirect's first argument. @param {typeof import('typescript')} ts @param {import('typescript').Node} node */
export function isStatusEnum(ts, node) {
  return ts.isPropertyAccessExpression(node) && node.expression.getText().endsWith('HttpStatus');
}
