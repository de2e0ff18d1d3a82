// @ts-check
// The routes a booted Nest app registered. Nest 9.3 and later keep them in a graph (the one its devtools read), with
// the global prefix, its exclusions and versioning applied by Nest itself. Older Nest keeps none: there the routes are
// read from the controllers' own metadata, as its router reads them, with the global prefix; they name no version.

/**
 * A route as Nest registered it.
 * @typedef {{ method: string, path: string, className: string, methodName: string, version: unknown }} RegisteredRoute
 */

/**
 * @param {any} core the app's @nestjs/core
 * @param {any} app the app, initialised (created with `snapshot: true` where Nest keeps a graph)
 * @param {{ PATH_METADATA: string, METHOD_METADATA: string }} constants the app's @nestjs/common/constants
 * @param {Record<number, string>} requestMethods the app's RequestMethod enum
 * @returns {RegisteredRoute[]}
 */
export function registeredRoutes(core, app, constants, requestMethods) {
  if (core.SerializedGraph) {
    const graph = app.get(core.SerializedGraph).toJSON();
    return Object.values(graph.entrypoints)
      .flat()
      .filter((/** @type {any} */ entry) => entry.type === 'http-endpoint')
      .map(({ className, methodName, metadata }) => ({
        method: metadata.requestMethod,
        path: metadata.path,
        className,
        methodName,
        version: metadata.methodVersion ?? metadata.controllerVersion ?? null,
      }));
  }
  const prefix = app.config?.getGlobalPrefix?.() ?? '';
  return [...app.get(core.ModulesContainer).values()].flatMap((module) =>
    [...module.controllers.values()].flatMap(({ metatype }) =>
      metatype ? controllerRoutes(metatype, prefix, constants, requestMethods) : [],
    ),
  );
}

/**
 * @param {Function} controller @param {string} prefix
 * @param {{ PATH_METADATA: string, METHOD_METADATA: string }} constants @param {Record<number, string>} requestMethods
 * @returns {RegisteredRoute[]}
 */
function controllerRoutes(controller, prefix, constants, requestMethods) {
  const bases = paths(Reflect.getMetadata(constants.PATH_METADATA, controller));
  return handlerNames(controller.prototype).flatMap((methodName) => {
    const handler = controller.prototype[methodName];
    const method = Reflect.getMetadata(constants.METHOD_METADATA, handler);
    if (method === undefined) return [];
    const own = paths(Reflect.getMetadata(constants.PATH_METADATA, handler));
    return bases.flatMap((base) =>
      own.map((path) => ({
        method: requestMethods[method],
        path: joinPath(prefix, base, path),
        className: controller.name,
        methodName,
        version: null,
      })),
    );
  });
}

/** The methods of a controller and the classes it extends, each once, as Nest's MetadataScanner walks them. */
function handlerNames(/** @type {object} */ prototype) {
  const names = new Set();
  for (let at = prototype; at && at !== Object.prototype; at = Object.getPrototypeOf(at))
    for (const name of Object.getOwnPropertyNames(at)) {
      const descriptor = Object.getOwnPropertyDescriptor(at, name);
      if (name !== 'constructor' && typeof descriptor?.value === 'function') names.add(name);
    }
  return [...names];
}

/** @param {string | string[] | undefined} value a path or paths as decorators keep them */
function paths(value) {
  if (Array.isArray(value)) return value.length ? value : ['/'];
  return [value ?? '/'];
}

/** @param {...string} parts */
function joinPath(...parts) {
  const segments = parts.flatMap((part) => part.split('/')).filter(Boolean);
  return `/${segments.join('/')}`;
}
