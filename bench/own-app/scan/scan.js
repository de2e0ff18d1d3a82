// @ts-check
// A static scan of a user's Nest app for code only Express understands: the compiled module, the setup module, the
// app's main.ts beside the module, and the files they import, each read as its TypeScript source where a source map
// leads to one (or the sources themselves, given as the entry), parsed with TypeScript's compiler API
// (scan-file.js). Each finding names its file and line, what happens on Fastify and the fix, and the handler it sits
// in, which ties it to a route.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { APP_USE } from './app-differences.js';
import { appPackages } from '../launch/app-packages.js';
import { appRoot } from '../launch/packages.js';
import { scanFile } from './scan-file.js';

/**
 * @typedef {import('../../model/own-app-record.js').CodeFinding} CodeFinding
 * @typedef {import('../../model/own-app-record.js').ScanRecord} ScanRecord
 */

const JS_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts'];
/** The ORMs and database drivers an app's package.json may name, ORMs first. */
const DATA_PACKAGES = [
  'typeorm',
  '@prisma/client',
  '@mikro-orm/core',
  'sequelize',
  'mongoose',
  'knex',
  'drizzle-orm',
  'pg',
  'mysql2',
  'mysql',
  'mariadb',
  'sqlite3',
  'better-sqlite3',
  'mongodb',
  'tedious',
  'oracledb',
  'ioredis',
  'redis',
];
const THROTTLER_PACKAGE = '@nestjs/throttler';
/** The file that bootstraps a Nest app, beside its module (dist/main.js, src/main.ts). */
const MAIN_FILES = ['main.js', 'main.mjs', 'main.cjs', 'main.ts'];

/**
 * @param {{ moduleFile: string, setupFile: string | null, appDir: string }} app
 * @returns {Promise<ScanRecord & { limiters?: import('./scan-limiters.js').LimiterFound[] }>} limiters: the rate
 *   limiters besides @nestjs/throttler's guard (scan-limiters.js), when there are any
 */
export async function scanApp({ moduleFile, setupFile, appDir }) {
  const ts = await loadTypeScript(appDir);
  const root = appRoot(appDir);
  const throttlerDeclared = declares(root, THROTTLER_PACKAGE);
  const database = dataPackages(root);
  if (!ts)
    return {
      root,
      files: [],
      fromSourceMaps: 0,
      findings: [],
      ...(throttlerDeclared ? { throttler: { forRoot: null } } : {}),
      database,
      skipped: 'typescript is installed neither for the bench nor for the app: npm i -D typescript to scan the code',
    };
  const installed = appPackages(appDir);
  /** @type {CodeFinding[]} */
  const findings = [];
  const files = [];
  let fromSourceMaps = 0;
  /** @type {string | null} */
  let stopped = null;
  const context = {
    cookies: new Set(),
    corsOrigins: new Set(),
    installed,
    throttler: { used: throttlerDeclared, forRoot: /** @type {string[]} */ ([]) },
    middleware: /** @type {Set<string>} */ (new Set()),
    fileTypes: /** @type {import('../bodies/upload-form.js').FileTypePattern[]} */ ([]),
    shared: /** @type {import('./scan-shared.js').SharedCause[]} */ ([]),
    limiters: /** @type {import('./scan-limiters.js').LimiterFound[]} */ ([]),
    esm: false,
  };
  const main = mainFile(moduleFile, root);
  for (const compiled of importedFiles(ts, [moduleFile, ...(setupFile ? [setupFile] : []), ...(main ? [main] : [])])) {
    const source = sourceOf(compiled);
    if (source.fromMap) fromSourceMaps++;
    const name = fromRoot(root, source.file);
    files.push(name);
    const tree = ts.createSourceFile(
      source.file,
      source.text,
      ts.ScriptTarget.Latest,
      true,
      scriptKind(ts, source.file),
    );
    context.esm = runsAsModule(compiled, root);
    try {
      findings.push(...scanFile(ts, tree, name, context));
    } catch (error) {
      // the scan's own failure (an API the app's TypeScript lacks) is a line of the report, not the end of the run
      stopped = `the scan stopped at ${name} (TypeScript ${ts.version}): ${error instanceof Error ? error.message : String(error)}; what it found before that is kept`;
      break;
    }
  }
  const { throttler } = context;
  return {
    root,
    files,
    fromSourceMaps,
    findings: dedupe(findings)
      .filter((f) => !readAsMiddleware(f, context.middleware))
      .map((f) => withSharedCause(f, context.shared)),
    cookies: [...context.cookies],
    corsOrigins: [...context.corsOrigins],
    fileTypes: context.fileTypes,
    installed,
    ...(throttler.used || throttler.forRoot.length ? { throttler: { forRoot: throttler.forRoot[0] ?? null } } : {}),
    ...(context.limiters.length ? { limiters: context.limiters } : {}),
    database,
    skipped: stopped,
  };
}

/**
 * The app's main file: beside its module, else in the folders above it up to the app's root (dist/main.js for
 * dist/app/app.module.js), where its listen() and global registrations are.
 * @param {string} moduleFile @param {string} root
 */
function mainFile(moduleFile, root) {
  for (let dir = dirname(resolve(moduleFile)); ; dir = dirname(dir)) {
    const found = MAIN_FILES.map((file) => join(dir, file)).find(isFile);
    if (found) return found;
    if (dir === resolve(root) || dir === dirname(dir) || relative(root, dir).startsWith('..')) return undefined;
  }
}

/**
 * A finding in a class registered for many routes (a global filter) carries where it was registered and what it reaches.
 * @param {CodeFinding} finding @param {import('./scan-shared.js').SharedCause[]} shared
 * @returns {CodeFinding}
 */
function withSharedCause(finding, shared) {
  const owner = finding.handler?.split('.')[0];
  // the app's own registration (main.ts) before a setup module's copy of it, which is named by its absolute path
  const cause = owner
    ? [...shared]
        .sort((a, b) => Number(isAbsolute(a.registered)) - Number(isAbsolute(b.registered)))
        .find((c) => c.name === owner)
    : undefined;
  return cause ? { ...finding, shared: cause } : finding;
}

/**
 * app.use(RequestIdMiddleware) of a function whose body the scan read as middleware (in its own file): what it does
 * there are the findings, and the guess about middleware in general is left out, wherever it is given to app.use.
 * @param {CodeFinding} finding @param {Set<string>} middleware
 */
function readAsMiddleware(finding, middleware) {
  const given = /^app\.use\(([\w$]+)\)$/.exec(finding.rule)?.[1];
  return finding.onFastify === APP_USE.onFastify && given !== undefined && middleware.has(given);
}

/** A file as the report names it: from the app's root, or absolute outside it (a setup module kept elsewhere). */
function fromRoot(/** @type {string} */ root, /** @type {string} */ file) {
  const name = relative(root, file);
  return name && !name.startsWith('..') && !isAbsolute(name) ? name : file;
}

/**
 * The ORMs and database drivers the app's package.json lists, each at the version installed beside it (the range it
 * asks for where none is).
 * @param {string} root @returns {Record<string, string>}
 */
function dataPackages(root) {
  const declared = dependencies(root);
  return Object.fromEntries(
    DATA_PACKAGES.filter((name) => Object.hasOwn(declared, name)).map((name) => {
      try {
        return [name, JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version];
      } catch {
        return [name, declared[name]];
      }
    }),
  );
}

/**
 * Whether node runs a file as an ES module: .mjs, or .js (or a source given as it is) under a package.json that says
 * "type": "module", the nearest one up to the app's root.
 * @param {string} file @param {string} root
 */
function runsAsModule(file, root) {
  if (/\.m[jt]s$/.test(file)) return true;
  if (/\.c[jt]s$/.test(file)) return false;
  for (let dir = dirname(resolve(file)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (isFile(manifest)) {
      try {
        return JSON.parse(readFileSync(manifest, 'utf8')).type === 'module';
      } catch {
        return false;
      }
    }
    if (dir === resolve(root) || dir === dirname(dir)) return false;
  }
}

/** @param {string} root @returns {Record<string, string>} the app's dependencies and devDependencies */
function dependencies(root) {
  try {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    return { ...manifest.devDependencies, ...manifest.dependencies };
  } catch {
    return {};
  }
}

/**
 * Whether the app's package.json lists a package among its dependencies.
 * @param {string} root @param {string} name
 */
function declares(root, name) {
  return Object.hasOwn(dependencies(root), name);
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
