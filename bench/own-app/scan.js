// @ts-check
// A static scan of a user's Nest app for code only Express understands: the compiled module and the files it imports,
// each read as its TypeScript source where a source map leads to one (or the sources themselves, given as the entry),
// parsed with TypeScript's compiler API. Each
// finding names its file and line, what happens on Fastify and the fix (fastify-differences.js), and the handler it
// sits in, which ties it to a route.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import {
  APP_METHODS,
  APP_USE,
  FILE_INTERCEPTOR,
  FILE_INTERCEPTORS,
  MIDDLEWARE,
  PACKAGES,
  REDIRECT_STATUS_FIRST,
  REQUEST_MEMBERS,
  RESPONSE_MEMBERS,
  RES_WITHOUT_PASSTHROUGH,
} from './fastify-differences.js';

/**
 * @typedef {object} CodeFinding
 * @property {string} rule what was found, e.g. `res.json`, `@Res() without passthrough`, `import cookie-parser`
 * @property {import('./fastify-differences.js').FindingKind} kind
 * @property {string} file relative to the working directory
 * @property {number} line 1-based
 * @property {string} code the line, trimmed
 * @property {string | null} handler Controller.method when it sits in one: ties it to a route
 * @property {string} onFastify
 * @property {string} fix
 * @property {string} [field] a file interceptor's form field
 *
 * @typedef {object} ScanRecord
 * @property {string[]} files what was read, relative to the working directory
 * @property {number} fromSourceMaps how many of them were TypeScript sources found through source maps
 * @property {CodeFinding[]} findings
 * @property {string[]} [cookies] the names of the cookies the code reads (req.cookies.NAME) or sets (res.cookie)
 * @property {string | null} skipped why nothing was scanned
 */

const REQUEST_DECORATORS = new Set(['Req', 'Request']);
const RESPONSE_DECORATORS = new Set(['Res', 'Response']);
const APP_NAMES = /^(app|application|nestApp|server)$/;
const JS_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts'];
const CODE_CHARS = 120;

/**
 * @param {{ moduleFile: string, setupFile: string | null, appDir: string }} app
 * @returns {Promise<ScanRecord>}
 */
export async function scanApp({ moduleFile, setupFile, appDir }) {
  const ts = await loadTypeScript(appDir);
  if (!ts)
    return {
      files: [],
      fromSourceMaps: 0,
      findings: [],
      skipped: 'typescript is installed neither for the bench nor for the app: npm i -D typescript to scan the code',
    };
  /** @type {CodeFinding[]} */
  const findings = [];
  const files = [];
  let fromSourceMaps = 0;
  /** @type {Set<string>} */
  const cookies = new Set();
  for (const compiled of importedFiles(ts, [moduleFile, ...(setupFile ? [setupFile] : [])])) {
    const source = sourceOf(compiled);
    if (source.fromMap) fromSourceMaps++;
    const name = relative(process.cwd(), source.file) || source.file;
    files.push(name);
    const tree = ts.createSourceFile(
      source.file,
      source.text,
      ts.ScriptTarget.Latest,
      true,
      scriptKind(ts, source.file),
    );
    findings.push(...scanFile(ts, tree, name, cookies));
  }
  return { files, fromSourceMaps, findings: dedupe(findings), cookies: [...cookies], skipped: null };
}

/** @param {string} appDir @returns {Promise<typeof import('typescript') | null>} */
async function loadTypeScript(appDir) {
  for (const from of [import.meta.url, join(appDir, 'package.json')]) {
    try {
      return createRequire(from)('typescript');
    } catch {
      // the next place
    }
  }
  return null;
}

/** @param {typeof import('typescript')} ts @param {string} file */
function scriptKind(ts, file) {
  if (file.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (/\.[cm]?ts$/.test(file)) return ts.ScriptKind.TS;
  return ts.ScriptKind.JS;
}

/**
 * The compiled files the entry files import, transitively: relative imports only (packages are not the app's code).
 * @param {typeof import('typescript')} ts @param {string[]} entries
 */
function importedFiles(ts, entries) {
  const seen = new Set();
  const queue = entries.map((file) => resolve(file));
  while (queue.length) {
    const file = /** @type {string} */ (queue.shift());
    if (seen.has(file) || !isFile(file)) continue;
    seen.add(file);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const base = resolve(dirname(file), fileName);
      // TypeScript sources given as they are import './users.js' for users.ts
      const source = base.replace(/\.([cm]?)js$/, '.$1ts');
      const found = [base, source, ...JS_EXTENSIONS.map((ext) => `${base}${ext}`), join(base, 'index.js')].find(isFile);
      if (found) queue.push(found);
    }
  }
  return [...seen];
}

/** @param {string} path */
function isFile(path) {
  return existsSync(path) && statSync(path).isFile();
}

/**
 * The TypeScript a compiled file came from, when its source map names it (sourcesContent or the file on disk); else the
 * compiled file itself.
 * @param {string} file
 * @returns {{ file: string, text: string, fromMap: boolean }}
 */
function sourceOf(file) {
  const text = readFileSync(file, 'utf8');
  const reference = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text)?.[1];
  if (reference) {
    try {
      const inline = /^data:application\/json[^,]*;base64,(.*)$/.exec(reference);
      const mapFile = inline ? file : resolve(dirname(file), reference);
      const map = JSON.parse(
        inline ? Buffer.from(inline[1], 'base64').toString('utf8') : readFileSync(mapFile, 'utf8'),
      );
      if (Array.isArray(map.sources) && map.sources.length === 1) {
        const sourceFile = resolve(dirname(mapFile), map.sourceRoot ?? '', map.sources[0]);
        const sourceText =
          map.sourcesContent?.[0] ?? (existsSync(sourceFile) ? readFileSync(sourceFile, 'utf8') : null);
        if (typeof sourceText === 'string') return { file: sourceFile, text: sourceText, fromMap: true };
      }
    } catch {
      // an unreadable map: the compiled file is scanned instead
    }
  }
  return { file, text, fromMap: false };
}

/** @param {CodeFinding[]} findings one per line and difference: `res.status(401).json()` in middleware is one place */
function dedupe(findings) {
  const seen = new Set();
  return findings.filter((f) => {
    const key = `${f.file}:${f.line}:${f.onFastify}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * @typedef {'request' | 'response' | 'raw-request' | 'raw-response'} Role what a name holds on Fastify: Fastify's request
 *   or reply, or (in middleware) Node's raw ones
 */

/**
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').SourceFile} tree
 * @param {string} name
 * @param {Set<string>} cookies the cookie names read or set are added here
 * @returns {CodeFinding[]}
 */
function scanFile(ts, tree, name, cookies) {
  /** @type {CodeFinding[]} */
  const findings = [];
  /** @type {Map<string, string>} local name → package, for the Express packages imported here */
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
      if (PACKAGES[pkg] && clause && !clause.isTypeOnly)
        for (const local of importedNames(ts, clause)) packageNames.set(local, pkg);
    }
    if (ts.isVariableDeclaration(node) && node.initializer && isRequireOf(ts, node.initializer)) {
      const pkg = /** @type {import('typescript').StringLiteral} */ (
        /** @type {import('typescript').CallExpression} */ (node.initializer).arguments[0]
      ).text;
      if (PACKAGES[pkg] && ts.isIdentifier(node.name)) packageNames.set(node.name.text, pkg);
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
    if (!ts.isPropertyAccessExpression(call.expression)) return;
    const member = call.expression.name.text;
    const receiver = call.expression.expression;
    if (ts.isIdentifier(receiver) && APP_NAMES.test(receiver.text)) {
      if (member === 'use')
        for (const argument of call.arguments) {
          const pkg = packageOf(ts, argument, packageNames);
          if (pkg) usedInAppUse.add(pkg);
          add(argument, `app.use(${pkg ?? argument.getText(tree).slice(0, 40)})`, pkg ? PACKAGES[pkg] : APP_USE);
        }
      else if (APP_METHODS[member]) add(call, `app.${member}()`, APP_METHODS[member]);
    }
    if (member === 'cookie' && call.arguments[0] && ts.isStringLiteral(call.arguments[0]))
      cookies.add(call.arguments[0].text);
    if (member === 'redirect' && ts.isIdentifier(receiver) && roleOf(roles, receiver) === 'response') {
      const first = call.arguments[0];
      if (call.arguments.length >= 2 && first && (ts.isNumericLiteral(first) || isStatusEnum(ts, first)))
        add(call, `${receiver.text}.redirect(status, url)`, REDIRECT_STATUS_FIRST);
    }
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
  for (const [local, pkg] of packageNames)
    if (!usedInAppUse.has(pkg)) {
      const declaration = findImport(ts, tree, local);
      if (declaration) add(declaration, `import ${pkg}`, PACKAGES[pkg]);
    }
  return findings;
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
 * The local names a value import binds (type-only specifiers left out).
 * @param {typeof import('typescript')} ts @param {import('typescript').ImportClause} clause
 */
function importedNames(ts, clause) {
  const names = clause.name ? [clause.name.text] : [];
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) names.push(bindings.name.text);
  if (bindings && ts.isNamedImports(bindings))
    for (const element of bindings.elements) if (!element.isTypeOnly) names.push(element.name.text);
  return names;
}

/**
 * The package an app.use argument comes from: `cookieParser()`, `session({...})`, `passport.initialize()`,
 * `express.json()`, tsc's `(0, cookie_parser_1.default)()`.
 * @param {typeof import('typescript')} ts @param {import('typescript').Expression} argument
 * @param {Map<string, string>} packageNames
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
        importedNames(ts, statement.importClause).includes(local)) ||
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
