// @ts-check
// What the scan reads of a file's imports (scan-file.js): the package a specifier names, the names an import or a
// require binds and the statement that binds them, which of them are used as values, which uses never touch the HTTP
// request, and the package an app.use argument comes from.
import { calleeName } from './scan-roles.js';

/**
 * A package's functions that take strings, not a request: cookie-parser's signedCookie(value, secret) in a socket.io
 * handshake runs the same whatever the HTTP platform, and is no finding.
 */
export const REQUEST_FREE = /** @type {Record<string, Set<string>>} */ ({
  'cookie-parser': new Set(['signedCookie', 'signedCookies', 'JSONCookie', 'JSONCookies']),
});

/**
 * Whether every use of an imported name is one of the package's request-free functions: `import { signedCookie }`,
 * or `cookieParser.signedCookie(…)` wherever the default or namespace import is used.
 * @param {typeof import('typescript')} ts @param {import('typescript').SourceFile} tree
 * @param {import('typescript').Node} declaration its import @param {string} local
 * @param {Set<string> | undefined} functions the package's request-free functions
 */
export function requestFree(ts, tree, declaration, local, functions) {
  if (!functions) return false;
  if (ts.isImportDeclaration(declaration)) {
    const bindings = declaration.importClause?.namedBindings;
    const named =
      bindings && ts.isNamedImports(bindings) ? bindings.elements.find((e) => e.name.text === local) : undefined;
    if (named) return functions.has((named.propertyName ?? named.name).text);
  }
  let used = false;
  let other = false;
  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    if (node === declaration || ts.isImportDeclaration(node)) return;
    if (ts.isIdentifier(node) && node.text === local) {
      const parent = node.parent;
      const member = ts.isPropertyAccessExpression(parent) && parent.expression === node ? parent.name.text : null;
      if (member !== null && functions.has(member)) used = true;
      else if (!(ts.isVariableDeclaration(parent) && parent.name === node)) other = true;
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(tree, visit);
  return used && !other;
}

/**
 * The names used as values somewhere in the file (not in a type, not in the import itself): an import used only in
 * types is erased by tsc and never runs.
 * @param {typeof import('typescript')} ts @param {import('typescript').SourceFile} tree
 */
export function valueReferences(ts, tree) {
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
 * The statement that binds a package's local name: an import, or a `require` in compiled code.
 * @param {typeof import('typescript')} ts @param {import('typescript').SourceFile} tree @param {string} local
 */
export function findImport(ts, tree, local) {
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
 * The local names an import binds, each with whether it is written as a type-only import.
 * @param {typeof import('typescript')} ts @param {import('typescript').ImportClause} clause
 */
export function importedNames(ts, clause) {
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
 * The package an import specifier names: `graphql-upload/graphqlUploadExpress.mjs` → `graphql-upload`.
 * @param {string} specifier
 */
export function packageName(specifier) {
  if (specifier.startsWith('.')) return specifier;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The package a variable's initializer loads: `require('x')`, tsc's `__importDefault(require('x'))`, a setup module's
 * `fromApp('x').default ?? fromApp('x')` (fromApp made by createRequire), `(await import('x')).default`.
 * @param {typeof import('typescript')} ts @param {import('typescript').Expression} expression
 * @param {Set<string>} loaders the names that load a package
 * @returns {string | null}
 */
export function requiredPackage(ts, expression, loaders) {
  let inner = expression;
  for (;;) {
    if (ts.isAwaitExpression(inner) || ts.isParenthesizedExpression(inner)) inner = inner.expression;
    else if (ts.isPropertyAccessExpression(inner) && inner.name.text === 'default') inner = inner.expression;
    else if (ts.isCallExpression(inner) && /^__import(Default|Star)$/.test(calleeName(ts, inner.expression) ?? ''))
      inner = inner.arguments[0];
    // `a ?? b`, `a || b`: a default export with a fallback
    else if (
      ts.isBinaryExpression(inner) &&
      [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(inner.operatorToken.kind)
    )
      inner = inner.left;
    else break;
  }
  if (!inner || !ts.isCallExpression(inner) || inner.arguments.length !== 1) return null;
  const [given] = inner.arguments;
  // import(fromApp.resolve('graphql-upload/graphqlUploadExpress.mjs'))
  const resolved =
    ts.isCallExpression(given) &&
    ts.isPropertyAccessExpression(given.expression) &&
    given.expression.name.text === 'resolve' &&
    ts.isIdentifier(given.expression.expression) &&
    loaders.has(given.expression.expression.text);
  const specifier = resolved ? given.arguments[0] : given;
  if (!specifier || !ts.isStringLiteralLike(specifier)) return null;
  const callee = inner.expression;
  const loads =
    callee.kind === ts.SyntaxKind.ImportKeyword ||
    (ts.isCallExpression(callee) && isCreateRequire(ts, callee)) ||
    (ts.isIdentifier(callee) && loaders.has(callee.text));
  return loads ? specifier.text : null;
}

/**
 * `createRequire(url)` or `module.createRequire(url)`.
 * @param {typeof import('typescript')} ts @param {import('typescript').Expression} expression
 */
export function isCreateRequire(ts, expression) {
  return ts.isCallExpression(expression) && calleeName(ts, expression.expression) === 'createRequire';
}

/**
 * The names a declaration binds: `helmet`, `{ default: helmet }`, `{ json, urlencoded }`.
 * @param {typeof import('typescript')} ts @param {import('typescript').BindingName} name
 * @returns {string[]}
 */
export function boundNames(ts, name) {
  if (ts.isIdentifier(name)) return [name.text];
  if (!ts.isObjectBindingPattern(name)) return [];
  return name.elements.flatMap((element) => (ts.isIdentifier(element.name) ? [element.name.text] : []));
}

/**
 * The package an app.use argument comes from: `cookieParser()`, `session({...})`, `passport.initialize()`,
 * `express.json()`, tsc's `(0, cookie_parser_1.default)()`.
 * @param {typeof import('typescript')} ts @param {import('typescript').Expression} argument
 * @param {Map<string, { pkg: string }>} packageNames
 */
export function packageOf(ts, argument, packageNames) {
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
