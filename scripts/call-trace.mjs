// Follows a stage's input call by call through bench/, with the TypeScript compiler resolving each call to the
// function it reaches (docs/layout.md, "How far a run's input travels"). Two walks:
//   node scripts/call-trace.mjs input FILE FUNCTION [ARG]   the input: the function's ARG-th parameter (0 unless told)
//   node scripts/call-trace.mjs calls FILE FUNCTION         every call, whatever it carries
// A value carries the input when it is the input, or read from it: a property, a destructured name, an element, what
// a built-in method of it returns (`loads.get(key)`, `pairs.filter(…)`), an object or array holding one; a value a
// function of bench/ returns is new data, not the input, unless it has every property of the input's type (a plan
// that grew the input). `input` counts each call site of a function of bench/ that is
// handed a value carrying the input, and follows it into that function with those parameters carrying it; `calls`
// follows every call to a function of bench/. `input --whole` follows the input as one object: a call counts when one
// of its arguments has every property of the input's type (the bag handed on whole, or grown by a plan). Each prints
// the calls, the files, and the calls into each file; --list prints every call.
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const BENCH = resolve('bench');

/** @param {string} dir @returns {string[]} */
const modulesUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modulesUnder(path);
    return /\.m?js$/.test(entry.name) ? [path] : [];
  });

const [mode, file, functionName, argument = '0', ...flags] = process.argv
  .slice(2)
  .filter((a) => a !== '--list' && a !== '--whole');
const list = process.argv.includes('--list');
const whole = process.argv.includes('--whole');
if (!['input', 'calls'].includes(mode) || !file || !functionName) {
  console.error('usage: node scripts/call-trace.mjs input|calls FILE FUNCTION [ARG] [--whole] [--list]');
  process.exit(2);
}
if (flags.length) {
  console.error(`unknown arguments: ${flags.join(' ')}`);
  process.exit(2);
}

const program = ts.createProgram(modulesUnder(BENCH), {
  allowJs: true,
  checkJs: true,
  noEmit: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  skipLibCheck: true,
  types: ['node'],
});
const checker = program.getTypeChecker();

/** @param {ts.Node} node */
const isFunctionWithBody = (node) =>
  (ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node)) &&
  Boolean(node.body);

/** @typedef {ts.SignatureDeclaration & { body: ts.Node }} Callee */

/** The function of bench/ an expression names, or null (a built-in, a package, a callback typed only in JSDoc). */
function functionNamed(/** @type {ts.Expression} */ expression) {
  let symbol = checker.getSymbolAtLocation(expression);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const candidates = [
    ...(symbol?.declarations ?? []),
    ...(checker.getTypeAtLocation(expression).getSymbol()?.declarations ?? []),
  ];
  for (const declaration of candidates) {
    const node =
      ts.isVariableDeclaration(declaration) || ts.isPropertyAssignment(declaration)
        ? declaration.initializer
        : declaration;
    if (node && isFunctionWithBody(node) && node.getSourceFile().fileName.startsWith(BENCH + '/'))
      return /** @type {Callee} */ (node);
  }
  return null;
}

/**
 * The functions of bench/ a call reaches: the one it names, or with `TABLE[key](…)` on an object literal of
 * functions (a dispatch by kind), each function of the table.
 * @param {ts.CallExpression} call @returns {Callee[]}
 */
function calleesOf(call) {
  const named = functionNamed(call.expression);
  if (named) return [named];
  if (!ts.isElementAccessExpression(call.expression)) return [];
  const table = checker.getSymbolAtLocation(call.expression.expression)?.valueDeclaration;
  if (!table || !ts.isVariableDeclaration(table) || !table.initializer) return [];
  if (!ts.isObjectLiteralExpression(table.initializer)) return [];
  const functions = table.initializer.properties.flatMap((property) =>
    ts.isPropertyAssignment(property) ? [functionNamed(property.initializer)] : [],
  );
  return [...new Set(functions.filter((callee) => callee !== null))];
}

/** Whether a call reaches a function of bench/ (else a built-in's or a package's). @param {ts.CallExpression} call */
const reachesBench = (call) => calleesOf(call).length > 0;

/** @param {ts.BindingName} name @returns {ts.Identifier[]} */
const boundNames = (name) =>
  ts.isIdentifier(name)
    ? [name]
    : name.elements.flatMap((element) => (ts.isOmittedExpression(element) ? [] : boundNames(element.name)));

/** @param {ts.Node} node */
const symbolOf = (node) => {
  if (ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node)
    return checker.getShorthandAssignmentValueSymbol(node.parent);
  return checker.getSymbolAtLocation(node);
};

/** Whether an expression carries the input, given the names that do. */
function carries(/** @type {ts.Expression} */ node, /** @type {Set<ts.Symbol>} */ carrying) {
  // the input grown by a plan (planRuntime returns it with more) is still the input
  if ((ts.isIdentifier(node) || ts.isCallExpression(node)) && isWholeInput(node)) return true;
  if (ts.isIdentifier(node)) {
    const symbol = symbolOf(node);
    return Boolean(symbol && carrying.has(symbol));
  }
  if (
    ts.isPropertyAccessExpression(node) ||
    ts.isElementAccessExpression(node) ||
    ts.isParenthesizedExpression(node) ||
    ts.isNonNullExpression(node) ||
    ts.isAwaitExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isSpreadElement(node)
  )
    return carries(node.expression, carrying);
  if (ts.isObjectLiteralExpression(node))
    return node.properties.some((property) =>
      ts.isShorthandPropertyAssignment(property)
        ? carries(property.name, carrying)
        : ts.isPropertyAssignment(property)
          ? carries(property.initializer, carrying)
          : ts.isSpreadAssignment(property) && carries(property.expression, carrying),
    );
  if (ts.isArrayLiteralExpression(node)) return node.elements.some((element) => carries(element, carrying));
  if (ts.isConditionalExpression(node)) return carries(node.whenTrue, carrying) || carries(node.whenFalse, carrying);
  if (ts.isBinaryExpression(node) && ['??', '||', '&&'].includes(node.operatorToken.getText()))
    return carries(node.left, carrying) || carries(node.right, carrying);
  // a built-in method of the input returns a part of it (a Map's get, an array's filter); bench/'s functions new data
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && !reachesBench(node))
    return carries(node.expression.expression, carrying);
  return false;
}

/** The property names of the input's type: `--whole` follows a value that has them all. @type {string[]} */
let inputProperties = [];
/** Whether an argument is the input as one object (or a bigger one holding all of it). @param {ts.Expression} node */
const isWholeInput = (node) => {
  const names = new Set(
    checker
      .getTypeAtLocation(node)
      .getApparentProperties()
      .map((p) => p.getName()),
  );
  return inputProperties.length > 0 && inputProperties.every((name) => names.has(name));
};

/** @param {ts.Node} node */
const where = (node) => {
  const source = node.getSourceFile();
  const { line } = source.getLineAndCharacterOfPosition(node.getStart());
  return `${relative(BENCH, source.fileName)}:${line + 1}`;
};
/** @param {ts.SignatureDeclaration} fn */
const nameOf = (fn) => {
  if (fn.name) return fn.name.getText();
  const parent = fn.parent;
  return ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) ? parent.name.getText() : '(function)';
};

/** @type {Array<{ from: string, to: string, file: string }>} */
const edges = [];
const countedCalls = new Set();
const followed = new Set();
/** @type {Set<string>} */
const files = new Set();

/**
 * Walks one function with the given parameters carrying the input (all of them in `calls` mode).
 * @param {Callee} fn @param {number[]} positions
 */
function follow(fn, positions) {
  const key = `${where(fn)}#${positions.join(',')}`;
  if (followed.has(key)) return;
  followed.add(key);
  files.add(relative(BENCH, fn.getSourceFile().fileName));
  /** @type {Set<ts.Symbol>} */
  const carrying = new Set();
  const mark = (/** @type {ts.BindingName} */ name) => {
    let grew = false;
    for (const id of boundNames(name)) {
      const symbol = checker.getSymbolAtLocation(id);
      if (symbol && !carrying.has(symbol)) {
        carrying.add(symbol);
        grew = true;
      }
    }
    return grew;
  };
  for (const position of positions) if (fn.parameters[position]) mark(fn.parameters[position].name);
  // the names bound from what carries it, until no new one is found
  for (let grew = true; grew;) {
    grew = false;
    const visit = (/** @type {ts.Node} */ node) => {
      if (ts.isVariableDeclaration(node) && node.initializer && carries(node.initializer, carrying))
        grew = mark(node.name) || grew;
      if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
        ts.isIdentifier(node.left) &&
        carries(node.right, carrying)
      ) {
        const symbol = checker.getSymbolAtLocation(node.left);
        if (symbol && !carrying.has(symbol)) {
          carrying.add(symbol);
          grew = true;
        }
      }
      if (ts.isForOfStatement(node) && carries(node.expression, carrying)) {
        const declared = node.initializer;
        if (ts.isVariableDeclarationList(declared)) for (const d of declared.declarations) grew = mark(d.name) || grew;
      }
      // an element of the input handed to a callback of a built-in method (pairs.map((pair) => …))
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        !reachesBench(node) &&
        carries(node.expression.expression, carrying)
      )
        for (const argument of node.arguments)
          if ((ts.isArrowFunction(argument) || ts.isFunctionExpression(argument)) && argument.parameters[0])
            grew = mark(argument.parameters[0].name) || grew;
      ts.forEachChild(node, visit);
    };
    visit(fn.body);
  }
  /** @type {Array<[Callee, number[]]>} */
  const next = [];
  const visit = (/** @type {ts.Node} */ node) => {
    if (ts.isCallExpression(node) && !countedCalls.has(node)) {
      const handed =
        mode === 'calls'
          ? node.arguments.map((_, i) => i)
          : node.arguments.flatMap((argument, i) =>
              (whole ? isWholeInput(argument) : carries(argument, carrying)) ? [i] : [],
            );
      const callees = mode === 'calls' || handed.length ? calleesOf(node) : [];
      if (callees.length) countedCalls.add(node);
      for (const callee of callees) {
        const to = relative(BENCH, callee.getSourceFile().fileName);
        edges.push({ from: `${where(node)} ${nameOf(fn)}`, to: `${nameOf(callee)} (${to})`, file: to });
        next.push([callee, mode === 'calls' ? callee.parameters.map((_, i) => i) : handed]);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(fn.body);
  for (const [callee, handed] of next) follow(callee, handed);
}

const source = program.getSourceFile(resolve(file));
if (!source) {
  console.error(`${file}: not a module of bench/`);
  process.exit(2);
}
/** @type {Callee | undefined} */
let entry;
ts.forEachChild(source, function find(node) {
  if (entry) return;
  if (isFunctionWithBody(node) && nameOf(/** @type {ts.SignatureDeclaration} */ (node)) === functionName)
    entry = /** @type {Callee} */ (node);
  else if (ts.isVariableStatement(node)) ts.forEachChild(node, find);
  else if (ts.isVariableDeclarationList(node) || ts.isVariableDeclaration(node)) ts.forEachChild(node, find);
});
if (!entry) {
  console.error(`${file}: no function ${functionName}`);
  process.exit(2);
}
const input = entry.parameters[Number(argument)];
if (mode === 'input' && !input) {
  console.error(`${functionName} has no parameter ${argument}`);
  process.exit(2);
}
if (mode === 'input')
  inputProperties = checker
    .getTypeAtLocation(input)
    .getApparentProperties()
    .map((p) => p.getName());
follow(entry, mode === 'calls' ? entry.parameters.map((_, i) => i) : [Number(argument)]);

/** @type {Map<string, number>} */
const intoFile = new Map();
for (const edge of edges) intoFile.set(edge.file, (intoFile.get(edge.file) ?? 0) + 1);
/** @type {Map<string, number>} */
const byFolder = new Map();
for (const reached of files) {
  const folder = reached.includes('/') ? reached.split('/')[0] : reached;
  byFolder.set(folder, (byFolder.get(folder) ?? 0) + 1);
}
console.log(`${edges.length} calls through ${files.size} files`);
console.log(`folders: ${[...byFolder].map(([folder, count]) => `${folder} ${count}`).join(', ')}`);
for (const [reached, count] of [...intoFile].sort((a, b) => b[1] - a[1])) console.log(`  ${count}\t${reached}`);
if (list) for (const edge of edges) console.log(`${edge.from} -> ${edge.to}`);
