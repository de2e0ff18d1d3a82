// @ts-check
// --nest-main: the app's own main runs as written, with its NestFactory.create wrapped: the app it creates runs on the
// adapter the bench asks for, listens where the bench says, and on an adapter main was not written for, a call only
// Express has is handed to `skip` with main's line, and left out.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const LAUNCH_DIR = dirname(fileURLToPath(import.meta.url));

/** NestExpressApplication's methods that a NestFastifyApplication lacks, and the Express instance's own. */
const EXPRESS_ONLY = new Set([
  'set',
  'enable',
  'disable',
  'enabled',
  'disabled',
  'engine',
  'setBaseViewsDir',
  'setLocal',
]);
/** Methods Fastify has that load a plugin Nest exits without: each plugin under its names across Nest 8–12. */
const PLUGIN_METHODS = /** @type {Record<string, string[]>} */ ({
  useStaticAssets: ['@fastify/static', 'fastify-static'],
  setViewEngine: ['@fastify/view', 'point-of-view'],
});

/**
 * A call main made that the adapter it runs on cannot take.
 * @typedef {object} SkippedCall
 * @property {string} call e.g. app.set, the Express instance's set, new ExpressAdapter(instance)
 * @property {string | null} at FILE:LINE:COLUMN in main (its source, where a source map leads to it)
 * @property {string | null} code that line, trimmed
 * @property {string} error what it throws, or would, on this adapter
 */

/**
 * The place in the app's code a call came from: its stack's first frame outside node_modules, Node and the launcher.
 * @param {Error} error
 * @returns {{ at: string | null, code: string | null }}
 */
export function callerOf(error) {
  for (const [, place] of String(error.stack).matchAll(/^\s+at (?:.*?\()?((?:file:\/\/)?\/[^()\s]+:\d+:\d+)\)?$/gm)) {
    const at = place.replace(/^file:\/\//, '');
    if (at.includes('/node_modules/') || at.startsWith(LAUNCH_DIR)) continue;
    const [, file, line] = /** @type {RegExpExecArray} */ (/^(.*):(\d+):\d+$/.exec(at));
    const code = existsSync(file) ? (readFileSync(file, 'utf8').split('\n')[Number(line) - 1]?.trim() ?? null) : null;
    return { at, code };
  }
  return { at: null, code: null };
}

/**
 * Whether a package loads from the platform package that would load it.
 * @param {string} platformFile the platform package's entry @param {string[]} names
 */
function installedBeside(platformFile, names) {
  const require = createRequire(platformFile);
  return names.some((name) => {
    try {
      require.resolve(`${name}/package.json`);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Wraps core.NestFactory.create for main. Its first app is built with the adapter `adapterName` (main's own when it is
 * that adapter, else `createAdapter`'s), and handed back to main behind a proxy: its listen() calls `serve`, which
 * listens on the bench's port, and, when the adapter is not main's, each call only Express has is recorded through
 * `skip` and left out.
 * @param {any} core the app's @nestjs/core
 * @param {object} input
 * @param {'express' | 'fastify'} input.adapterName
 * @param {() => Promise<any>} input.createAdapter
 * @param {string} input.platformFile the entry of the app's platform package for adapterName
 * @param {Record<string, unknown>} input.appOptions added to main's options (abortOnError, snapshot)
 * @param {(app: any) => Promise<unknown>} input.serve given main's app when main calls listen: its answer is listen's
 * @param {(skipped: SkippedCall) => void} input.skip
 */
export function wrapNestFactory(core, { adapterName, createAdapter, platformFile, appOptions, serve, skip }) {
  const factory = core.NestFactory;
  const create = factory.create;
  let taken = false;
  /** Records a call the adapter cannot take, which is left out. @param {string} call @param {Error} error */
  const skipped = (call, error) => skip({ call, ...callerOf(error), error: `${error.name}: ${error.message}` });
  /** @param {any} module @param {any} [serverOrOptions] @param {any} [options] */
  factory.create = async function wrappedCreate(module, serverOrOptions, options) {
    if (taken) return create.call(this, module, serverOrOptions, options);
    taken = true;
    const given = typeof serverOrOptions?.patch === 'function' ? serverOrOptions : null;
    const own = given ? given.getType?.() === adapterName : adapterName === 'express';
    if (given && !own)
      skipped(
        `new ${given.constructor?.name ?? 'adapter'}(…)`,
        new Error(`main builds its own ${given.getType?.() ?? ''} adapter: the bench runs ${adapterName} in its place`),
      );
    const adapter = own && given ? given : await createAdapter();
    const app = await create.call(this, module, adapter, {
      ...(given ? options : serverOrOptions),
      ...appOptions,
    });
    return guarded(app, { foreign: !own, serve, skipped, platformFile });
  };
}

/**
 * main's app behind a proxy: listen goes to `serve`; on a foreign adapter, what only Express has is skipped.
 * @param {any} app Nest's own proxy of the app
 * @param {{ foreign: boolean, serve: (app: any) => Promise<unknown>, skipped: (call: string, error: Error) => void,
 *   platformFile: string }} how
 */
function guarded(app, { foreign, serve, skipped, platformFile }) {
  /** @type {any} */
  const proxy = new Proxy(app, {
    get(target, prop) {
      const value = target[prop];
      if (prop === 'listen')
        return (/** @type {unknown[]} */ ...args) =>
          serve(target).then((server) => {
            args.find((arg) => typeof arg === 'function')?.();
            return server;
          });
      if (typeof prop !== 'string') return value;
      if (foreign && prop === 'getHttpAdapter') return () => adapterOf(value(), skipped);
      const plugins = foreign ? PLUGIN_METHODS[prop] : undefined;
      if (plugins && !installedBeside(platformFile, plugins))
        return () => {
          skipped(
            `app.${prop}`,
            new Error(`The "${plugins[0]}" package is missing: ${prop}() loads it, and Nest exits without it`),
          );
          return proxy;
        };
      if (foreign && value === undefined && EXPRESS_ONLY.has(prop))
        return () => {
          skipped(`app.${prop}`, new TypeError(`app.${prop} is not a function`));
          return proxy;
        };
      if (typeof value !== 'function') return value;
      // a chained call (app.setGlobalPrefix('api').listen(…)) stays behind this proxy
      const ours = (/** @type {unknown} */ result) => (result === target ? proxy : result);
      return (/** @type {unknown[]} */ ...args) => {
        const result = value.apply(target, args);
        return result instanceof Promise ? result.then(ours) : ours(result);
      };
    },
  });
  return proxy;
}

/**
 * The HTTP adapter main asks for, whose getInstance() gives the framework's instance with Express's settings skipped.
 * @param {any} adapter @param {(call: string, error: Error) => void} skipped
 */
function adapterOf(adapter, skipped) {
  return new Proxy(adapter, {
    get(target, prop) {
      const value = target[prop];
      if (prop !== 'getInstance') return typeof value === 'function' ? value.bind(target) : value;
      return () => {
        const instance = target.getInstance();
        /** @type {any} */
        const shown = new Proxy(instance, {
          get(server, name) {
            const member = server[name];
            if (member === undefined && typeof name === 'string' && EXPRESS_ONLY.has(name))
              return () => {
                skipped(`getInstance().${name}`, new TypeError(`instance.${name} is not a function`));
                return shown;
              };
            return typeof member === 'function' ? member.bind(server) : member;
          },
        });
        return shown;
      };
    },
  });
}
