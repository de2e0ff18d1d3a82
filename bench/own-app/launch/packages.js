// @ts-check
// --nest-app FILE[#Export] or --nest-main FILE: the user's compiled module or main, and the @nestjs packages installed
// beside it, checked before anything starts. The launcher runs on these packages, never on the bench's own copies.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../errors.js';

export const DEFAULT_EXPORT = 'AppModule';
const MODULE_EXTENSIONS = ['.js', '.mjs', '.cjs'];
export const ADAPTERS = /** @type {const} */ (['express', 'fastify']);
/** @typedef {typeof ADAPTERS[number]} AdapterName */
const PLATFORM_PACKAGES = { express: '@nestjs/platform-express', fastify: '@nestjs/platform-fastify' };

/**
 * @typedef {object} NestApp
 * @property {string} moduleFile absolute path of the compiled module, or of main with --nest-main (the scan's entry)
 * @property {string | null} [mainFile] --nest-main: the app's own main, which the servers run
 * @property {Record<string, unknown> | null} [fastifyOptions] --fastify-options: what the FastifyAdapter is built with
 * @property {boolean} [strict] --strict: a call of main's that Fastify cannot take stops its boot, not skipped
 * @property {string | null} exportName as given after #; null: AppModule, else the one Module() class exported
 * @property {PackageSetUse} [packageSet] --packages: the set whose packages the app loads in place of its own
 * @property {string} appDir the module file's directory: packages resolve from here
 * @property {string} cwd the servers' working directory: --nest-cwd, else the app's root (the folder of the
 *   package.json nearest the module), where the app finds its .env and the files it opens by relative path
 * @property {string | null} setupFile absolute path of --nest-setup, or null
 * @property {Record<string, string>} versions installed version of @nestjs/core, each platform package and the
 *   framework each loads (express, fastify)
 */
/** @typedef {{ dir: string, names: string[] }} PackageSetUse the set's folder and the packages taken from it */

/**
 * @param {string} spec FILE or FILE#Export, as given to --nest-app
 * @param {string | null} setup --nest-setup as given
 * @param {string | null} [cwd] --nest-cwd as given
 * @returns {NestApp}
 * @throws {UsageError} a missing file, a missing platform package, or majors that do not match
 */
export function resolveNestApp(spec, setup, cwd = null) {
  const hash = spec.lastIndexOf('#');
  const file = hash === -1 ? spec : spec.slice(0, hash);
  const exportName = hash === -1 ? null : spec.slice(hash + 1);
  if (exportName !== null && !/^[A-Za-z_$][\w$]*$/.test(exportName))
    throw new UsageError(`--nest-app ${spec}: "${exportName}" is not an export name; write FILE#AppModule`);
  const moduleFile = resolve(file);
  if (!MODULE_EXTENSIONS.includes(extname(moduleFile)))
    throw new UsageError(
      `--nest-app ${spec}: give the compiled module (${MODULE_EXTENSIONS.join(', ')}), e.g. dist/app.module.js`,
    );
  if (!existsSync(moduleFile))
    throw new UsageError(`--nest-app ${spec}: no such file; build the app first (e.g. npx tsc)`);
  return { moduleFile, exportName, ...besideIt(moduleFile, setup, cwd, '--nest-app') };
}

/**
 * @param {string} file --nest-main as given: the app's compiled main
 * @param {string | null} setup --nest-setup as given
 * @param {string | null} cwd --nest-cwd as given
 * @returns {NestApp}
 * @throws {UsageError} a missing file, a missing platform package, or majors that do not match
 */
export function resolveNestMain(file, setup, cwd) {
  const mainFile = resolve(file);
  if (!MODULE_EXTENSIONS.includes(extname(mainFile)))
    throw new UsageError(
      `--nest-main ${file}: give the compiled main (${MODULE_EXTENSIONS.join(', ')}), e.g. dist/main.js`,
    );
  if (!existsSync(mainFile))
    throw new UsageError(`--nest-main ${file}: no such file; build the app first (e.g. npm run build)`);
  return { moduleFile: mainFile, exportName: null, mainFile, ...besideIt(mainFile, setup, cwd, '--nest-main') };
}

/**
 * What the module or main runs with: its setup, folders and packages.
 * @param {string} file @param {string | null} setup @param {string | null} cwd @param {string} flag
 */
function besideIt(file, setup, cwd, flag) {
  const setupFile = setup === null ? null : resolve(setup);
  if (setupFile !== null && !existsSync(setupFile)) throw new UsageError(`--nest-setup ${setup}: no such file`);
  if (cwd !== null && !statSync(resolve(cwd), { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`--nest-cwd ${cwd}: no such folder`);
  const appDir = dirname(file);
  return {
    appDir,
    cwd: cwd === null ? appRoot(appDir) : resolve(cwd),
    setupFile,
    versions: installedVersions(file, appDir, flag),
  };
}

/**
 * The folder of the package.json nearest `dir`, going up: where `npm start` runs the app. `dir` when there is none.
 * @param {string} dir
 */
export function appRoot(dir) {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return at;
    if (dirname(at) === at) return dir;
  }
}

/**
 * @param {string} moduleFile @param {string} appDir @param {string} flag
 * @returns {Record<string, string>}
 */
function installedVersions(moduleFile, appDir, flag) {
  const requireFromApp = createRequire(moduleFile);
  const core = packageVersion(requireFromApp, '@nestjs/core');
  if (core === null)
    throw new UsageError(`${flag}: @nestjs/core is not installed for ${appDir}; run npm install in the app's folder`);
  const major = core.split('.')[0];
  /** @type {Record<string, string>} */
  const versions = { '@nestjs/core': core };
  for (const name of Object.values(PLATFORM_PACKAGES)) {
    const version = packageVersion(requireFromApp, name);
    if (version === null)
      throw new UsageError(
        `${flag}: ${name} is not installed for ${appDir}; run npm i ${name}@${major} in the app's folder`,
      );
    if (version.split('.')[0] !== major)
      throw new UsageError(
        `${flag}: ${name} ${version} does not match @nestjs/core ${core}; run npm i ${name}@${major} in the app's folder`,
      );
    versions[name] = version;
  }
  // what each platform package loads: the framework the app is measured on
  for (const [adapter, name] of Object.entries(PLATFORM_PACKAGES)) {
    const framework = packageVersion(createRequire(requireFromApp.resolve(`${name}/package.json`)), adapter);
    if (framework !== null) versions[adapter] = framework;
  }
  return versions;
}

/**
 * The app on a package set: its imports of what the set holds load the set's copies (package-set.js), so the versions
 * it runs on are the set's.
 * @param {NestApp} app
 * @param {Pick<import('../../packages/sets.js').PackageSet, 'dir' | 'versions'>} set
 * @returns {NestApp}
 */
export function onPackageSet(app, set) {
  const reported = ['@nestjs/core', ...Object.values(PLATFORM_PACKAGES), ...ADAPTERS];
  return {
    ...app,
    versions: Object.fromEntries(
      reported.filter((name) => set.versions[name]).map((name) => [name, set.versions[name]]),
    ),
    packageSet: { dir: set.dir, names: Object.keys(set.versions) },
  };
}

/**
 * The version of a package as the app would load it, or null when it is not installed there.
 * @param {NodeJS.Require} requireFromApp @param {string} name
 */
function packageVersion(requireFromApp, name) {
  let entry;
  try {
    entry = requireFromApp.resolve(`${name}/package.json`);
  } catch {
    return null;
  }
  return /** @type {{ version: string }} */ (JSON.parse(readFileSync(entry, 'utf8'))).version;
}

/** @param {AdapterName} adapter */
export function platformPackage(adapter) {
  return PLATFORM_PACKAGES[adapter];
}

export const LAUNCHER = fileURLToPath(new URL('launcher.js', import.meta.url));

/**
 * How the setup module has each adapter built (the launcher builds them so): createAdapter(name), else
 * adapterOptions[name] given to the adapter's constructor.
 * @param {Record<string, any> | null} setup the setup module (authenticate.js loadSetup)
 * @returns {Record<string, string>}
 */
export function adapterChoices(setup) {
  if (setup === null) return {};
  return Object.fromEntries(
    ADAPTERS.flatMap((name) => {
      const options = setup.adapterOptions?.[name];
      if (typeof setup.createAdapter === 'function') return [[name, 'createAdapter(name) in the setup module']];
      return options ? [[name, `adapterOptions.${name} ${JSON.stringify(options)}`]] : [];
    }),
  );
}
