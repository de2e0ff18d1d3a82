// @ts-check
// What the app's bootstrap (main.ts, the setup module and what they call) does on Fastify: the packages it gives to
// app.use, NestExpressApplication's methods, NestFactory.create's options, listen(), enableCors(), body parsers,
// Swagger and GraphQL. The rules that depend on a version read it from what is installed beside the app
// (app-packages.js), so each finding says what the app's own packages do.
import { apolloFastifyPackage } from '../launch/app-packages.js';
import { GRAPHQL_UPLOAD_FIX } from './fastify-differences.js';

/**
 * @typedef {import('./fastify-differences.js').Difference} Difference
 * @typedef {import('../../model/finding-kinds.js').FindingKind} FindingKind
 * @typedef {import('../launch/app-packages.js').AppPackages} AppPackages
 */

/** The `methods` Express's cors package allows by default (cors 2.x). */
export const EXPRESS_CORS_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE';

/** serve-static, which express.static() is: it reads and writes only Node's own request and response. */
export const SERVE_STATIC = {
  kind: /** @type {FindingKind} */ ('works'),
  onFastify:
    'serve-static (express.static()) uses only Node’s request and response, which middie hands it on Fastify: the files are served there too',
  fix: 'nothing to change; app.useStaticAssets({ root, prefix }) with @fastify/static is the Fastify-native way',
};

/**
 * Packages written for Express, by the name they are imported as: what each does when given to app.use on Fastify,
 * where Nest runs it through @fastify/middie on Node's raw request and response.
 * @type {Record<string, Difference>}
 */
export const PACKAGES = {
  express: {
    kind: 'breaks',
    onFastify:
      'an express.Router()’s handlers are written for Express’s request and response: through middie on Fastify they get Node’s raw ones, without res.json() or req.get()',
    fix: 'a Nest controller for the router’s routes',
  },
  multer: {
    kind: 'ifRemoved',
    onFastify:
      'multer runs only inside Nest’s file interceptors (each is a finding on its route); importing it breaks nothing while the Express platform is installed',
    fix: '@fastify/multipart (request.file(), request.files()) once the interceptors move',
  },
  passport: {
    kind: 'works',
    onFastify:
      'passport.initialize() runs on the raw request through middie and works; @nestjs/passport’s AuthGuard sets request.user on Fastify’s request',
    fix: 'nothing to change; @fastify/passport is the Fastify-native way',
  },
  'cookie-parser': {
    kind: 'plugin',
    onFastify: 'cookie-parser sets req.cookies on the raw request: request.cookies is undefined in handlers',
    fix: 'await app.register(fastifyCookie, { secret }) from @fastify/cookie',
  },
  'express-session': {
    kind: 'plugin',
    onFastify:
      'express-session sets req.session on Node’s raw request through middie: @Session() and request.session in handlers read Fastify’s request, where it is undefined',
    fix: '@fastify/cookie with @fastify/session (or @fastify/secure-session)',
  },
  helmet: {
    kind: 'works',
    onFastify: 'helmet runs on the raw response through middie and its headers are sent on Fastify too',
    fix: 'nothing to change; await app.register(helmet) from @fastify/helmet is the Fastify-native way',
  },
  compression: {
    kind: 'works',
    onFastify: 'compression wraps the raw response through middie and compresses Fastify’s answers too',
    fix: 'nothing to change; await app.register(compress) from @fastify/compress is the Fastify-native way',
  },
  'body-parser': {
    kind: 'differs',
    onFastify: 'body-parser consumes the raw stream before Fastify’s parser',
    fix: 'the adapter’s bodyLimit and app.useBodyParser(type, { bodyLimit }); addContentTypeParser for other types',
  },
  morgan: {
    kind: 'works',
    onFastify: 'morgan logs from the raw request and response through middie: it logs on Fastify too',
    fix: 'nothing to change; Fastify’s own logger (new FastifyAdapter({ logger: true })) is the Fastify-native way',
  },
  cors: {
    kind: 'works',
    onFastify:
      'the cors package answers preflights on the raw request through middie, with its own defaults (every method): it works on Fastify',
    fix: 'nothing to change; app.enableCors(options) (@fastify/cors) is the Fastify-native way, with methods given',
  },
  'express-rate-limit': {
    kind: 'plugin',
    onFastify: 'express-rate-limit answers through Express’s response',
    fix: '@fastify/rate-limit, or @nestjs/throttler (both adapters)',
  },
  'serve-static': SERVE_STATIC,
  csurf: {
    kind: 'plugin',
    onFastify: 'csurf needs Express’s request and a cookie or session middleware',
    fix: '@fastify/csrf-protection',
  },
  'graphql-upload': {
    kind: 'breaks',
    onFastify:
      'graphqlUploadExpress calls Express’s request.is() on Node’s raw request: TypeError thrown in a parser callback, which ends the Fastify process on the first POST to the GraphQL path',
    fix: GRAPHQL_UPLOAD_FIX,
  },
  '@nestjs/platform-express': {
    kind: 'ifRemoved',
    onFastify:
      'the Express platform’s classes (ExpressAdapter, NestExpressApplication, MulterModule) keep working while @nestjs/platform-express is installed; what they do on Fastify is a finding of its own (a file interceptor on its route)',
    fix: 'once you remove @nestjs/platform-express: NestFastifyApplication, @fastify/multipart for uploads',
  },
};

/**
 * A route path Fastify's router (find-my-way) refuses: a wildcard `*` anywhere but at its end (Express 5's named
 * `*path`, `{*path}`), outside a parameter's regular expression. Fastify does not boot, and its error names no route.
 * @param {string} path as the decorator gives it
 * @returns {Difference | null}
 */
export function routeFastifyRefuses(path) {
  const outsideRegex = path.replace(/:\w+\([^)]*\)/g, ':p');
  const star = outsideRegex.indexOf('*');
  if (star === -1 || star === outsideRegex.length - 1) return null;
  return {
    kind: 'breaks',
    onFastify:
      'Fastify does not boot: its router takes a wildcard only as a path’s last character ("Wildcard must be the last character in the route"), and names no route',
    fix: `a plain '*' at the path’s end (${path.slice(0, path.indexOf('*'))}*), read as request.params['*']`,
  };
}

/** Types imported from a package of Express's (`import { Request } from 'express'`, used as types only). */
export const TYPES_ONLY = {
  kind: /** @type {FindingKind} */ ('ifRemoved'),
  onFastify:
    'types only: nothing of it runs, so nothing changes on Fastify while the package (or @types/express) stays installed',
  fix: 'once you remove the Express platform: FastifyRequest and FastifyReply from fastify',
};

/** Body parsers given to app.use: `json()`, `express.json()`, `bodyParser.urlencoded()`, by the function's name. */
export const BODY_PARSERS = new Set(['json', 'urlencoded', 'text', 'raw']);

/** @type {Difference} */
export const BODY_PARSER_IN_APP_USE = {
  kind: 'breaks',
  onFastify:
    'a body parser given to app.use reads the raw request stream through middie before Fastify’s own parser does: a request with a body never reaches the handler (it waits until the client gives up)',
  fix: 'drop it: Nest parses JSON and forms on Fastify; its limit is new FastifyAdapter({ bodyLimit }) or app.useBodyParser(type, { bodyLimit })',
};

/**
 * NestExpressApplication's methods, called on the app in main.ts or the setup.
 * @type {Record<string, Difference>}
 */
export const APP_METHODS = {
  set: {
    kind: 'breaks',
    onFastify: 'NestFastifyApplication has no set(): TypeError while booting',
    fix: 'the matching FastifyAdapter option',
  },
  enable: {
    kind: 'breaks',
    onFastify: 'NestFastifyApplication has no enable(): TypeError',
    fix: 'FastifyAdapter options',
  },
  disable: {
    kind: 'breaks',
    onFastify: 'NestFastifyApplication has no disable(): TypeError (Fastify sends no x-powered-by anyway)',
    fix: 'drop it, or the matching FastifyAdapter option',
  },
  engine: { kind: 'plugin', onFastify: 'no engine() on Fastify', fix: '@fastify/view (app.setViewEngine)' },
  setBaseViewsDir: {
    kind: 'plugin',
    onFastify:
      'setBaseViewsDir() does nothing on Fastify (Nest passes it on only to an adapter that has one, and the FastifyAdapter has none): templates are not found there',
    fix: 'app.setViewEngine({ engine, templates: dir }) with @fastify/view',
  },
};

/**
 * app.set('trust proxy', v) and app.enable('trust proxy'): a boot error, and the client's address is lost once fixed
 * by dropping the line.
 * @param {string} method set or enable @param {string} value the value given, as written
 * @returns {Difference}
 */
export function trustProxy(method, value) {
  return {
    kind: 'breaks',
    onFastify: `NestFastifyApplication has no ${method}(): TypeError while booting; without the setting, req.ip names the proxy and req.ips is undefined`,
    fix: `new FastifyAdapter({ trustProxy: ${value} })`,
  };
}

/** The middleware given to app.use(...) on Fastify when it is none of the known packages. */
export const APP_USE = {
  kind: /** @type {FindingKind} */ ('differs'),
  onFastify:
    'app.use middleware runs through @fastify/middie on Node’s raw request and response: Express methods are missing and what it sets on req does not reach handlers',
  fix: 'a Fastify plugin or hook (app.register / fastify.addHook), or a Nest guard or interceptor',
};

/**
 * useStaticAssets on Fastify: @fastify/static's options, and the package itself.
 * @param {AppPackages} installed
 * @param {{ path: string, prefix: string | null } | null} pathFirst called Express's way, useStaticAssets(path,
 *   options): the path as written (`'public'`, `join(__dirname, '..', 'public')`) and the options' prefix
 * @returns {Difference}
 */
export function staticAssets(installed, pathFirst) {
  const missing = installed.fastifyStatic === null;
  // @fastify/static takes an absolute root; Express resolves a relative one from the working directory
  const root = pathFirst && /^['"`]/.test(pathFirst.path) ? `join(process.cwd(), ${pathFirst.path})` : pathFirst?.path;
  const options = pathFirst
    ? `{ root: ${root}${pathFirst.prefix ? `, prefix: ${pathFirst.prefix}` : ''} }`
    : '{ root, prefix }';
  return {
    kind: missing || pathFirst ? 'breaks' : 'works',
    onFastify:
      [
        missing
          ? 'Fastify does not boot: useStaticAssets loads @fastify/static, which is not installed for the app'
          : '',
        pathFirst
          ? `on Fastify useStaticAssets takes @fastify/static’s options ({ root, prefix }), not a path and Express’s options: useStaticAssets(${pathFirst.path}) is read as options without a root, and Fastify does not boot`
          : '',
      ]
        .filter(Boolean)
        .join('; ') || `served by @fastify/static ${installed.fastifyStatic}`,
    fix: `${missing ? `npm i @fastify/static${fastifyStaticRange(installed)}; ` : ''}app.useStaticAssets(${options})`,
  };
}

/** The package each view engine Express names renders with: the key and module of @fastify/view's engine option. */
const VIEW_ENGINE_PACKAGES = /** @type {Record<string, string>} */ ({ hbs: 'handlebars' });

/**
 * app.setViewEngine('hbs'), Express's way: on Fastify it takes @fastify/view's options, and Nest ends the process on a
 * string before anything is registered.
 * @param {AppPackages} installed @param {string} engine as given
 * @returns {Difference}
 */
export function viewEngine(installed, engine) {
  const renderer = VIEW_ENGINE_PACKAGES[engine] ?? engine;
  const major = Number(/^(\d+)\./.exec(installed.fastify ?? '')?.[1]);
  // @fastify/view 10 is the first for Fastify 5; 7 to 9 are Fastify 4's; Fastify 3's was point-of-view
  const plugin =
    major >= 5 ? '@fastify/view@10' : major === 4 ? '@fastify/view@9' : major === 3 ? 'point-of-view' : '@fastify/view';
  return {
    kind: 'breaks',
    onFastify: `Fastify does not boot: on Fastify setViewEngine() takes @fastify/view's options; given a string ('${engine}'), Nest logs "setViewEngine() doesn't support a string argument." and ends the process`,
    fix: `npm i ${plugin} ${renderer}; app.setViewEngine({ engine: { ${/^[A-Za-z_$][\w$]*$/.test(renderer) ? renderer : `'${renderer}'`}: require('${renderer}') }, templates: the folder setBaseViewsDir() names })`,
  };
}

/**
 * SwaggerModule.setup on Fastify serves its UI through @fastify/static.
 * @param {AppPackages} installed
 * @returns {Difference | null} null: installed, nothing to say
 */
export function swaggerStatic(installed) {
  if (installed.fastifyStatic !== null) return null;
  return {
    kind: 'breaks',
    onFastify:
      'Fastify does not boot: SwaggerModule.setup serves its UI through @fastify/static on Fastify, which is not installed for the app',
    fix: `npm i @fastify/static${fastifyStaticRange(installed)} (or SwaggerModule.setup(path, app, document, { swaggerUiEnabled: false }))`,
  };
}

/**
 * @fastify/static's major: the highest that every installed package loading it takes (@nestjs/platform-fastify
 * 11.2 takes ^10, @nestjs/swagger 11.2 ^8 || ^9), else the one for the app's Fastify: 8 for Fastify 5, 7 for 4.
 * @param {AppPackages} installed
 */
function fastifyStaticRange({ fastify, fastifyStaticPeers = [] }) {
  const taken = fastifyStaticPeers.map((peer) => rangeMajors(peer.range)).filter((majors) => majors.length > 0);
  const common = taken.length ? taken[0].filter((major) => taken.every((majors) => majors.includes(major))) : [];
  if (common.length) return `@${Math.max(...common)}`;
  if (taken.length > 1)
    return ` (no version fits all that load it: ${fastifyStaticPeers.map((p) => `${p.name} ${p.version} takes ${p.range}`).join(', ')}; move one until they meet, e.g. @nestjs/platform-fastify at your @nestjs/core's version)`;
  if (!fastify) return '';
  const major = Number(fastify.split('.')[0]);
  return major >= 5 ? '@8' : major === 4 ? '@7' : '';
}

/** The majors a range such as `^8.0.0 || ^9.0.0` takes; none when a part is not a caret, tilde or bare major. */
function rangeMajors(/** @type {string} */ range) {
  const parts = range.split('||').map((part) => /^\s*[\^~]?(\d+)(?:\.[\dx*]+)*\s*$/.exec(part)?.[1]);
  return parts.every(Boolean) ? parts.map(Number) : [];
}

/**
 * listen(port) without a host: Express (Node's http) listens on every interface, Fastify on localhost only.
 * @param {AppPackages} installed
 * @returns {Difference}
 */
export function listenWithoutHost(installed) {
  return {
    kind: 'differs',
    onFastify: `Fastify${installed.fastify ? ` ${installed.fastify}` : ''} listens on localhost only when listen() is given no host (Express listens on every interface): in a container or behind a proxy on another host the app is unreachable`,
    fix: "await app.listen(port, '0.0.0.0') (or the interface you mean)",
  };
}

/**
 * enableCors() or NestFactory.create's `cors` without `methods`: Express's cors allows every method, @fastify/cors
 * (10 and up) GET, HEAD and POST.
 * @param {AppPackages} installed
 * @returns {Difference | null} null when the installed @fastify/cors allows every method Express's does
 */
export function corsWithoutMethods(installed) {
  const cors = installed.fastifyCors;
  const methods = cors?.methods ?? null;
  if (cors && methods !== null && EXPRESS_CORS_METHODS.split(',').every((m) => methods.split(',').includes(m)))
    return null;
  const allowed = methods ?? 'GET,HEAD,POST (@fastify/cors 10 and up)';
  return {
    kind: 'breaks',
    onFastify: `${cors ? `@fastify/cors ${cors.version} (beside the app’s @nestjs/platform-fastify)` : '@fastify/cors'} allows ${allowed} by default, Express’s cors ${EXPRESS_CORS_METHODS}: a browser’s preflight for PATCH, PUT or DELETE fails after a switch`,
    fix: `give the methods: app.enableCors({ …, methods: '${EXPRESS_CORS_METHODS}' })`,
  };
}

/** @fastify/cors's refusal of a falsy origin, thrown on every request it handles. */
export const INVALID_CORS_ORIGIN = 'Invalid CORS origin option';

/**
 * A CORS origin the app reads from a value (its configuration, the environment): where that value is empty, Express's
 * cors allows any origin and @fastify/cors fails every request.
 * @type {Difference}
 */
export const CORS_ORIGIN_FROM_VALUE = {
  kind: 'breaks',
  onFastify: `where the origin's value is empty or undefined (a variable the environment leaves unset), @fastify/cors throws “${INVALID_CORS_ORIGIN}” on every request and Nest answers 500, where Express’s cors allows any origin`,
  fix: 'give the origin a value wherever the app runs, or write `origin: value || false` to turn CORS off where it has none',
};

/**
 * NestFactory.create's options that Fastify takes elsewhere or handles differently, by option name.
 * @type {Record<string, Difference>}
 */
export const CREATE_OPTIONS = {
  httpsOptions: {
    kind: 'breaks',
    onFastify:
      'the FastifyAdapter makes its server when it is constructed: NestFactory.create’s httpsOptions are not used, and the app serves plain HTTP',
    fix: 'new FastifyAdapter({ https: httpsOptions })',
  },
  bodyParser: {
    kind: 'differs',
    onFastify:
      'bodyParser: false turns off Nest’s parsers, but Fastify parses application/json and text/plain itself (up to bodyLimit, 1 MiB): handlers get a parsed body where Express gave none',
    fix: 'keep bodyParser: false and set new FastifyAdapter({ bodyLimit }); drop the app.use body parsers it made room for',
  },
};

/**
 * GraphQLModule.forRoot({ driver }) on Fastify: Apollo needs its Fastify integration.
 * @param {string} driver the driver's name as written
 * @param {AppPackages} installed
 * @returns {Difference | null}
 */
export function graphqlDriver(driver, installed) {
  if (!/^Apollo(Federation|Gateway)?Driver$/.test(driver) || installed.apolloFastify !== null) return null;
  const integration = apolloFastifyPackage(installed.apollo);
  const fastifyMajor = Number(/^(\d+)\./.exec(installed.fastify ?? '')?.[1]);
  // Apollo Server 3's integration registers Fastify 3's plugins, which a later Fastify refuses at boot
  const pinned = integration === 'apollo-server-fastify' && fastifyMajor > APOLLO_SERVER_3_FASTIFY_MAJOR;
  return {
    kind: 'breaks',
    onFastify: `Fastify does not boot: ${driver}${installed.apollo ? ` (@nestjs/apollo ${installed.apollo})` : ''} serves Apollo on Fastify through ${integration}, which is not installed for the app${pinned ? `; its plugins (@fastify/accepts 3, @fastify/cors 7) are Fastify 3's, and the app's Fastify is ${installed.fastify}` : ''}`,
    fix: pinned
      ? `npm i apollo-server-fastify@3 with "overrides": { "apollo-server-fastify": { "@fastify/accepts": "^4.0.0", "@fastify/cors": "^8.0.0" } } in package.json; or @nestjs/apollo 11+ (Nest 9.3+) with @as-integrations/fastify; or MercuriusDriver from @nestjs/mercurius`
      : `npm i ${integration}; or MercuriusDriver from @nestjs/mercurius (Fastify only)`,
  };
}

/** The Fastify major Apollo Server 3's apollo-server-fastify was made for. */
const APOLLO_SERVER_3_FASTIFY_MAJOR = 3;
