#!/usr/bin/env node
// @ts-check
// The bench's own server entry for a user's Nest module: NestFactory.create(module, adapter), the user's configure(app)
// (what their main.ts does), listen. Nest and the adapters come from the app's folder, not the bench's. With
// NEST_APP_MAIN it is preloaded (--import) into the app's own main instead, which creates the app its way
// (main-factory.js); the launcher takes it from main's listen() on.
// NEST_APP_ROUTES=1 instead prints the routes Nest registered, with what each one's body must look like, as JSON on
// stdout, and exits. A boot that throws ends with one line on stderr: the error and the first place in the app's own
// code it passed through (source-mapped while booting, then mapping is off again: nothing changes per request).
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REFUSAL_PREFIX, messageLine } from './launcher-env.js';
import {
  bodySchema,
  declaredSchema,
  mergeSchemas,
  resolveOpenApi,
  schemaFromValidation,
} from '../bodies/body-schema.js';
import { resolveFromSet } from './package-set.js';
import { describeGraphqlApp } from '../graphql/graphql-schema.js';
import { registeredRoutes } from '../routes/route-graph.js';
import { wrapNestFactory } from './main-factory.js';
import { liftLimiterPackages, throttleApp } from './throttle.js';

const LAUNCHER_FILE = fileURLToPath(import.meta.url);
const MODULE_KEYS = ['imports', 'controllers', 'providers', 'exports'];
const VERSIONING_TYPES = ['uri', 'header', 'media-type', 'custom'];

const {
  NEST_APP_MODULE,
  NEST_APP_EXPORT,
  NEST_APP_SETUP,
  NEST_APP_ADAPTER,
  NEST_APP_ERRORS,
  NEST_APP_ROUTES,
  NEST_APP_SET,
  NEST_APP_SET_PACKAGES,
  NEST_APP_MAIN,
  NEST_APP_BOOT_ONLY,
  NEST_APP_FASTIFY_OPTIONS,
  NEST_APP_STRICT,
} = process.env;
const moduleFile = /** @type {string} */ (NEST_APP_MAIN ?? NEST_APP_MODULE);
const sourceMaps = typeof process.setSourceMapsEnabled === 'function';
if (sourceMaps) process.setSourceMapsEnabled(true);
// before anything of the app's or Nest's loads
if (NEST_APP_SET) resolveFromSet(NEST_APP_SET, String(NEST_APP_SET_PACKAGES).split(','));
const requireFromApp = createRequire(moduleFile);
// the app's limiter packages (express-rate-limit, @fastify/rate-limit, rate-limiter-flexible) as NEST_APP_THROTTLE asks
liftLimiterPackages(requireFromApp);
/** @param {string} name */
const importFromApp = (name) => import(pathToFileURL(requireFromApp.resolve(name)).href);

/** @param {string} message */
function refuse(message) {
  process.stderr.write(`${REFUSAL_PREFIX}${message}\n`);
  process.exit(2);
}

/**
 * The first line of what Nest logs as an error: for an exception, "TypeError: res.json is not a function".
 * @param {unknown[]} args
 */
function errorLine(args) {
  const error = args.find((arg) => arg instanceof Error);
  if (error) return `${error.name}: ${messageLine(error.message)}`;
  const stack = args.find((arg) => typeof arg === 'string' && /\n\s+at /.test(arg));
  return String(stack ?? args[0]).split('\n')[0];
}

/** @param {unknown[]} args what Nest logs as an error: kept in NEST_APP_ERRORS when the bench asks for them */
function keepError(args) {
  if (NEST_APP_ERRORS) appendFileSync(NEST_APP_ERRORS, `${JSON.stringify({ error: errorLine(args) })}\n`);
}

/** Quiet but for errors: one line each on stderr, and in NEST_APP_ERRORS when the bench asks for them. */
const logger = {
  log() {},
  warn() {},
  debug() {},
  verbose() {},
  /** @param {unknown[]} args */
  error(...args) {
    process.stderr.write(`${errorLine(args)}\n`);
    keepError(args);
  },
  /** @param {unknown[]} args */
  fatal(...args) {
    this.error(...args);
  },
};

/** @param {Record<string, unknown>} exports */
function moduleClass(exports) {
  if (NEST_APP_EXPORT) {
    const chosen = exports[NEST_APP_EXPORT];
    if (typeof chosen !== 'function')
      refuse(`${moduleFile} exports no ${NEST_APP_EXPORT}; exports: ${Object.keys(exports).join(', ') || 'none'}`);
    return chosen;
  }
  if (typeof exports.AppModule === 'function') return exports.AppModule;
  const modules = Object.entries(exports).filter(
    ([, value]) =>
      typeof value === 'function' && MODULE_KEYS.some((key) => Reflect.getMetadata?.(key, value) !== undefined),
  );
  if (modules.length === 0) refuse(`${moduleFile} exports no AppModule and no @Module class; name one as FILE#Export`);
  if (modules.length > 1)
    refuse(
      `${moduleFile} exports ${modules.length} @Module classes (${modules.map(([name]) => name).join(', ')}); name one as FILE#Export`,
    );
  return modules[0][1];
}

/**
 * Where an error passed through the app's own code first: its stack's first frame outside node_modules, Node and
 * this launcher, as FILE:LINE:COLUMN; null when it never did.
 * @param {unknown} error
 */
function appFrame(error) {
  const stack = error instanceof Error ? String(error.stack) : '';
  for (const [, place] of stack.matchAll(/^\s+at (?:.*?\()?((?:file:\/\/)?\/[^()\s]+:\d+:\d+)\)?$/gm)) {
    const file = place.replace(/^file:\/\//, '');
    if (!file.includes('/node_modules/') && !file.startsWith(dirname(LAUNCHER_FILE))) return file;
  }
  return null;
}

/**
 * Runs one step of the boot; an error ends the process with its one line, where the app's code met it.
 * @template T @param {string} step @param {() => Promise<T> | T} run @returns {Promise<T>}
 */
async function booting(step, run) {
  try {
    return await run();
  } catch (error) {
    const name = error instanceof Error ? error.name : 'Error';
    const message = messageLine(error instanceof Error ? error.message : String(error));
    const at = appFrame(error);
    process.stderr.write(`${name}: ${message} (${step}${at ? ` at ${at}` : ''})\n`);
    process.exit(1);
  }
}

/**
 * The adapter as the setup module asks: built by its createAdapter(name), or with its adapterOptions[name], else
 * with the adapter's defaults.
 * @param {'express' | 'fastify'} name @param {Record<string, any> | null} setup
 */
async function createAdapter(name, setup) {
  const built = typeof setup?.createAdapter === 'function' ? await setup.createAdapter(name) : undefined;
  if (built) return built;
  const options =
    setup?.adapterOptions?.[name] ??
    (name === 'fastify' && NEST_APP_FASTIFY_OPTIONS ? JSON.parse(NEST_APP_FASTIFY_OPTIONS) : undefined);
  return name === 'fastify'
    ? new (await importFromApp('@nestjs/platform-fastify')).FastifyAdapter(options)
    : new (await importFromApp('@nestjs/platform-express')).ExpressAdapter(options);
}

// @nestjs/core loads reflect-metadata, which the compiled decorators need before the module is evaluated
const core = await booting('loading @nestjs/core', () => importFromApp('@nestjs/core'));
const adapterName = NEST_APP_ROUTES ? 'express' : /** @type {'express' | 'fastify'} */ (NEST_APP_ADAPTER);
if (NEST_APP_MAIN) await launchMain();
else await serve(await createApp());

/** --nest-app: the module created on the adapter, configured by the setup module, which loads after it. */
async function createApp() {
  const loaded = await booting('loading the module', () => import(pathToFileURL(moduleFile).href));
  const setup = await loadSetup();
  const AppModule = moduleClass(loaded.default && typeof loaded.default === 'object' ? loaded.default : loaded);
  const adapter = await booting(`building the ${adapterName} adapter`, () => createAdapter(adapterName, setup));
  const app = await booting('NestFactory.create', () =>
    core.NestFactory.create(AppModule, adapter, { logger, snapshot: Boolean(NEST_APP_ROUTES), abortOnError: false }),
  );
  await booting('configure(app)', () => setup?.configure(app, { adapter: adapterName }));
  return app;
}

/** The setup module, after the app's module: the app's own imports keep their order. */
async function loadSetup() {
  if (!NEST_APP_SETUP) return null;
  const setup = await booting('loading the setup', () => import(pathToFileURL(NEST_APP_SETUP).href));
  if (typeof setup.configure !== 'function') refuse(`${NEST_APP_SETUP} exports no configure(app) function`);
  return setup;
}

/**
 * --nest-main: main runs after this preload, as node runs it; the app its NestFactory.create makes is served once main
 * calls listen(), with the setup module's configure(app) (when there is one) just before. Nest's errors are kept as
 * the launcher's own logger keeps them, main's logger printing them as it does.
 */
async function launchMain() {
  const { Logger } = await importFromApp('@nestjs/common');
  const logError = Logger.prototype.error;
  Logger.prototype.error = function keptError(/** @type {unknown[]} */ ...args) {
    keepError(args);
    return logError.apply(this, args);
  };
  /** @type {import('./main-factory.js').SkippedCall[]} */
  const skipped = [];
  wrapNestFactory(core, {
    adapterName,
    createAdapter: () => createAdapter(adapterName, null),
    platformFile: requireFromApp.resolve(`@nestjs/platform-${adapterName}`),
    appOptions: { abortOnError: false, ...(NEST_APP_ROUTES ? { snapshot: true } : {}) },
    skip: (call) => {
      // --strict: the boot stops there, in the line the bench reads a boot failure from (boot-failure.js)
      if (NEST_APP_STRICT) {
        process.stderr.write(`${call.error} (${call.call} in main${call.at ? ` at ${call.at}` : ''})\n`);
        process.exit(1);
      }
      // a call made twice from one line (SwaggerModule.setup serves two folders) is one finding
      if (skipped.some((seen) => seen.call === call.call && seen.at === call.at)) return;
      skipped.push(call);
      process.stderr.write(`skipped on ${adapterName}: ${call.call} at ${call.at ?? 'main'}: ${call.error}\n`);
    },
    serve: async (app) => {
      const setup = await loadSetup();
      await booting('configure(app)', () => setup?.configure(app, { adapter: adapterName }));
      if (NEST_APP_BOOT_ONLY) {
        await booting('app.init()', () => app.init());
        process.stdout.write(`${JSON.stringify({ skipped })}\n`);
        process.exit(0);
      }
      return serve(app);
    },
  });
}

/**
 * Loaded from the app's folder when it has the package, else null: the app's own copies hold its metadata.
 * @param {string} name
 */
function optionalFromApp(name) {
  try {
    return requireFromApp(name);
  } catch {
    return null;
  }
}

/**
 * What each handler's body must look like: its @Body parameters, each DTO described by the OpenAPI document
 * @nestjs/swagger builds (when the app has it) merged with its class-validator rules. null: the handler reads no body.
 * @param {any} nestApp
 * @returns {{ describe: (className: string, methodName: string) => ({ schema: object, sources: string[] } | null),
 *   swaggerError: string | null }}
 */
function bodyDescriptions(nestApp) {
  const { ROUTE_ARGS_METADATA } = requireFromApp('@nestjs/common/constants');
  const { RouteParamtypes } = requireFromApp('@nestjs/common/enums/route-paramtypes.enum');
  /** @type {Map<string, Function>} */
  const controllers = new Map();
  for (const module of nestApp.get(core.ModulesContainer).values())
    for (const wrapper of module.controllers.values())
      if (wrapper.metatype) controllers.set(wrapper.metatype.name, wrapper.metatype);
  const validator = optionalFromApp('class-validator');
  const transformerStorage = optionalFromApp('class-transformer/cjs/storage.js')?.defaultMetadataStorage;
  const swagger = optionalFromApp('@nestjs/swagger');
  let document = null;
  let swaggerError = null;
  if (swagger) {
    try {
      document = swagger.SwaggerModule.createDocument(nestApp, new swagger.DocumentBuilder().build());
    } catch (error) {
      swaggerError = error instanceof Error ? error.message.split('\n')[0] : String(error);
    }
  }
  /** @param {Function} dto @param {Set<Function>} seen @returns {import('../bodies/body-schema.js').ClassShape} */
  const shapeOf = (dto, seen) => {
    const rules = (validator?.getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false) ?? []).map(
      (/** @type {any} */ m) => ({
        property: m.propertyName,
        name: m.type === 'customValidation' || m.type === 'conditionalValidation' ? (m.name ?? m.type) : m.type,
        constraints: m.constraints ?? [],
        each: Boolean(m.each),
      }),
    );
    /** @type {Record<string, string>} */
    const designTypes = {};
    /** @type {Record<string, import('../bodies/body-schema.js').ClassShape>} */
    const nested = {};
    for (const { property, name } of rules) {
      const type = Reflect.getMetadata('design:type', dto.prototype, property);
      if (typeof type === 'function') designTypes[property] = type.name;
      const nestedClass = transformerStorage?.findTypeMetadata(dto, property)?.typeFunction() ?? type;
      if (name === 'nestedValidation' && typeof nestedClass === 'function' && !seen.has(nestedClass))
        nested[property] = shapeOf(nestedClass, new Set([...seen, nestedClass]));
    }
    return { name: dto.name, rules, designTypes, nested };
  };
  /** @param {Function | undefined} dto @param {string[]} sources */
  const dtoSchema = (dto, sources) => {
    if (typeof dto !== 'function' || [String, Number, Boolean, Object, Array].includes(/** @type {any} */ (dto)))
      return declaredSchema(typeof dto === 'function' ? dto.name : null);
    const documented = document?.components?.schemas?.[dto.name];
    const fromDocument = documented ? resolveOpenApi(document, documented) : {};
    const fromValidation = validator ? schemaFromValidation(shapeOf(dto, new Set([dto]))) : {};
    if (Object.keys(fromDocument.properties ?? {}).length) sources.push('OpenAPI');
    if (Object.keys(fromValidation.properties ?? {}).length) sources.push('class-validator');
    return declaredSchema(dto.name, mergeSchemas(fromDocument, fromValidation, true));
  };
  return {
    swaggerError,
    describe(className, methodName) {
      const controller = controllers.get(className);
      if (!controller) return null;
      const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, methodName) ?? {};
      const types = Reflect.getMetadata('design:paramtypes', controller.prototype, methodName) ?? [];
      const params = Object.entries(args)
        .filter(([key]) => Number(key.split(':')[0]) === RouteParamtypes.BODY)
        .map(([, arg]) => /** @type {{ index: number, data?: unknown }} */ (arg));
      if (params.length === 0) return null;
      /** @type {string[]} */
      const sources = [];
      const schema = bodySchema(
        params.map((param) => ({
          key: typeof param.data === 'string' ? param.data : null,
          schema: dtoSchema(types[param.index], sources),
        })),
      );
      return { schema, sources: [...new Set(sources)] };
    },
  };
}

/**
 * The app created: with NEST_APP_ROUTES its routes printed, else listening on the bench's port.
 * @param {any} app
 */
async function serve(app) {
  const throttlers = throttleApp(app, { core, requireFromApp });
  if (NEST_APP_ROUTES) await printRoutes(app, throttlers);
  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 3000);
  const server = await booting('app.listen()', () => app.listen(port, host));
  if (sourceMaps) process.setSourceMapsEnabled(false);
  // which packages the app runs on, as loaded: its own, or a set's in their place
  console.log(
    `Nest ${loadedVersion('@nestjs/core')} on ${adapterName} ${loadedVersion(String(adapterName))} listening on http://${host}:${port}`,
  );
  return server;
}

/** @param {string} name */
function loadedVersion(name) {
  try {
    return requireFromApp(`${name}/package.json`).version;
  } catch {
    return 'unknown';
  }
}

/**
 * Prints the routes Nest registered, with what each one's body must look like, and exits.
 * @param {any} app @param {import('../../model/own-app-record.js').ThrottlerGuardFound[]} throttlers throttle.js
 */
async function printRoutes(app, throttlers) {
  await booting('app.init()', () => app.init());
  if (sourceMaps) process.setSourceMapsEnabled(false);
  const bodies = bodyDescriptions(app);
  /** @type {{ type?: number, header?: string, key?: string } | undefined} */
  const versioning = app.config?.getVersioning?.();
  const { RequestMethod } = requireFromApp('@nestjs/common');
  const routes = registeredRoutes(core, app, requireFromApp('@nestjs/common/constants'), RequestMethod).map(
    ({ method, path, className, methodName, version }) => ({
      method,
      path,
      handler: `${className}.${methodName}`,
      version,
      body: bodies.describe(className, methodName),
    }),
  );
  const versioningType = versioning ? VERSIONING_TYPES[versioning.type ?? 0] : null;
  const graphql = await describeGraphqlApp(app, { load: importFromApp, resolve: requireFromApp.resolve });
  process.stdout.write(
    `${JSON.stringify({ routes, versioning: versioning ? { type: versioningType, header: versioning.header ?? null, key: versioning.key ?? null } : null, swaggerError: bodies.swaggerError, ...(throttlers.length ? { throttlers } : {}), ...(graphql ? { graphql } : {}) })}\n`,
  );
  await app.close();
  process.exit(0);
}
