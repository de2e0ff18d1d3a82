// @ts-check
// What the scan reads of a file upload (scan-file.js visits each node): the form fields a file interceptor of
// @nestjs/platform-express reads, and what a fileFilter or a file type validator tests, so the route can be sent a
// file its own checks accept (upload-form.js).
import { calleeName } from './scan-roles.js';
import { FILE_KINDS, severalFiles } from '../bodies/upload-form.js';

/** An interceptor that takes any field: the field its file is sent in. */
const ANY_FIELD = 'file';
const MIME_TYPE = /^[a-z]+\/[\w.+*-]+$/i;
const EXTENSIONS = new Set(FILE_KINDS.map((kind) => kind.extension));

/**
 * The fields an interceptor call reads files from; null when they are not written as literals.
 * @param {typeof import('typescript')} ts @param {string} interceptor FileInterceptor, FilesInterceptor, ...
 * @param {import('typescript').NodeArray<import('typescript').Expression>} args
 * @returns {import('../bodies/upload-form.js').FileField[] | null}
 */
export function interceptedFiles(ts, interceptor, args) {
  const [first, second] = args;
  const text = (/** @type {import('typescript').Node | undefined} */ node) =>
    node && ts.isStringLiteralLike(node) ? node.text : null;
  const number = (/** @type {import('typescript').Node | undefined} */ node) =>
    node && ts.isNumericLiteral(node) ? Number(node.text) : null;
  switch (interceptor) {
    case 'FileInterceptor':
      return text(first) === null ? null : [{ field: /** @type {string} */ (text(first)), count: 1 }];
    case 'FilesInterceptor':
      return text(first) === null
        ? null
        : [{ field: /** @type {string} */ (text(first)), count: severalFiles(number(second)) }];
    case 'FileFieldsInterceptor': {
      if (!first || !ts.isArrayLiteralExpression(first)) return null;
      const fields = first.elements.map((element) =>
        ts.isObjectLiteralExpression(element) ? text(propertyValue(ts, element, 'name')) : null,
      );
      return fields.every((field) => field !== null)
        ? fields.map((field) => ({ field: /** @type {string} */ (field), count: 1 }))
        : null;
    }
    case 'AnyFilesInterceptor':
      return [{ field: ANY_FIELD, count: 1 }];
    default:
      // NoFilesInterceptor: a form of fields only
      return [];
  }
}

/**
 * What this node tests a file's name or type with: the literals in a fileFilter (regular expressions; strings that
 * name a type or an extension), a FileTypeValidator's or addFileTypeValidator's fileType (Nest matches it as a
 * pattern). A constant they name is read where the file declares it (`const allowed = ['image/png']`), and a
 * `RegExp(…)` as its pattern. Empty for any other node.
 * @param {typeof import('typescript')} ts @param {import('typescript').Node} node
 * @returns {{ pattern: string, regex: boolean }[]}
 */
export function fileTypeTests(ts, node) {
  const named = (/** @type {import('typescript').Node} */ name) => ts.isIdentifier(name) && name.text === 'fileFilter';
  if ((ts.isPropertyAssignment(node) || ts.isMethodDeclaration(node)) && named(node.name))
    return filterLiterals(ts, node);
  const validator =
    (ts.isNewExpression(node) && node.expression && calleeName(ts, node.expression) === 'FileTypeValidator') ||
    (ts.isCallExpression(node) && calleeName(ts, node.expression) === 'addFileTypeValidator');
  const options = validator ? /** @type {import('typescript').CallExpression} */ (node).arguments?.[0] : undefined;
  if (!options || !ts.isObjectLiteralExpression(options)) return [];
  const written = propertyValue(ts, options, 'fileType');
  const fileType = written && asPattern(ts, declared(ts, written));
  if (fileType && ts.isRegularExpressionLiteral(fileType)) return [{ pattern: fileType.text, regex: true }];
  if (fileType && ts.isStringLiteralLike(fileType)) return [{ pattern: `/${fileType.text}/`, regex: true }];
  return [];
}

/**
 * What a name stands for where its file declares it at the top (`const allowed = /png|jpeg/`); any other node as it
 * is.
 * @param {typeof import('typescript')} ts @param {import('typescript').Node} node
 */
function declared(ts, node) {
  if (!ts.isIdentifier(node)) return node;
  const declarations = node
    .getSourceFile()
    .statements.flatMap((statement) =>
      ts.isVariableStatement(statement) ? statement.declarationList.declarations : [],
    );
  const found = declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === node.text);
  return found?.initializer ?? node;
}

/** `RegExp(/png/)` and `new RegExp('png')` as the pattern they are given. @param {typeof import('typescript')} ts
 * @param {import('typescript').Node} node */
function asPattern(ts, node) {
  const call = ts.isCallExpression(node) || ts.isNewExpression(node) ? node : null;
  return call && calleeName(ts, call.expression) === 'RegExp' && call.arguments?.[0] ? call.arguments[0] : node;
}

/** @param {typeof import('typescript')} ts @param {import('typescript').Node} filter */
function filterLiterals(ts, filter) {
  /** @type {{ pattern: string, regex: boolean }[]} */
  const found = [];
  const followed = new Set();
  const visit = (/** @type {import('typescript').Node} */ node) => {
    if (ts.isRegularExpressionLiteral(node)) found.push({ pattern: node.text, regex: true });
    else if (ts.isStringLiteralLike(node) && namesAFileType(node.text))
      found.push({ pattern: node.text, regex: false });
    else if (ts.isIdentifier(node) && !followed.has(node.text)) {
      // a list the filter names, declared elsewhere in its file: `validMimeTypes.includes(file.mimetype)`
      followed.add(node.text);
      const value = declared(ts, node);
      if (value !== node && !isWithin(value, filter)) visit(value);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(filter, visit);
  return found;
}

/** @param {import('typescript').Node} node @param {import('typescript').Node} outer */
function isWithin(node, outer) {
  return node.pos >= outer.pos && node.end <= outer.end;
}

/** @param {string} text a MIME type, or an extension the bench can send (an error message is neither) */
function namesAFileType(text) {
  return MIME_TYPE.test(text) || EXTENSIONS.has(text.toLowerCase().replace(/^\./, ''));
}

/**
 * @param {typeof import('typescript')} ts @param {import('typescript').ObjectLiteralExpression} object
 * @param {string} name
 */
function propertyValue(ts, object, name) {
  for (const property of object.properties)
    if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name) && property.name.text === name)
      return property.initializer;
  return undefined;
}
