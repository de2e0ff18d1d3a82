// @ts-check
// What Express-only code does on Fastify, and the change on Fastify's side: the knowledge the scan (scan.js) and the
// probes (probes.js) name their findings with. Kinds: `breaks` (an error or a lost value on Fastify), `differs` (it
// runs, with another answer), `plugin` (a Fastify plugin does the job).

/** @typedef {'breaks' | 'differs' | 'plugin'} FindingKind */
/** @typedef {{ kind: FindingKind, onFastify: string, fix: string }} Difference */

export const KIND_ORDER = /** @type {FindingKind[]} */ (['breaks', 'differs', 'plugin']);
export const KIND_WORDS = /** @type {Record<FindingKind, string>} */ ({
  breaks: 'breaks',
  differs: 'behaves differently',
  plugin: 'needs a plugin',
});

/**
 * Express's response API on Fastify's reply (a handler's @Res(), a filter's getResponse()): what each member becomes.
 * Members both have (send, status, header, type, redirect(url)) are absent.
 * @type {Record<string, Difference>}
 */
export const RESPONSE_MEMBERS = {
  json: {
    kind: 'breaks',
    onFastify: 'the reply has no json(): TypeError, answered 500',
    fix: 'return the value (or reply.send(value)); keep @Res({ passthrough: true }) only where headers are set',
  },
  cookie: {
    kind: 'plugin',
    onFastify: 'the reply has no cookie() without @fastify/cookie: TypeError, answered 500',
    fix: 'register @fastify/cookie, then reply.setCookie(name, value, options)',
  },
  clearCookie: {
    kind: 'plugin',
    onFastify: 'the reply has no clearCookie() without @fastify/cookie: TypeError',
    fix: 'register @fastify/cookie, then reply.clearCookie(name)',
  },
  sendFile: {
    kind: 'plugin',
    onFastify: 'the reply has no sendFile() without @fastify/static: TypeError',
    fix: 'register @fastify/static, then reply.sendFile(file, root); or return a StreamableFile',
  },
  download: {
    kind: 'plugin',
    onFastify: 'the reply has no download() without @fastify/static: TypeError',
    fix: 'return new StreamableFile(stream, { disposition: "attachment; filename=…" })',
  },
  render: {
    kind: 'plugin',
    onFastify: 'the reply has no render(): TypeError',
    fix: 'register @fastify/view (app.setViewEngine on NestFastifyApplication), then reply.view(template, data), or @Render()',
  },
  locals: {
    kind: 'breaks',
    onFastify: 'the reply has no locals: reading it gives undefined, writing it reaches no template',
    fix: 'pass the values to the handler or template directly, or keep them on the request',
  },
  set: {
    kind: 'breaks',
    onFastify: 'the reply has no set(): TypeError',
    fix: 'reply.header(name, value), or @Header() on the handler',
  },
  append: { kind: 'breaks', onFastify: 'the reply has no append(): TypeError', fix: 'reply.header(name, value)' },
  setHeader: { kind: 'breaks', onFastify: 'the reply has no setHeader(): TypeError', fix: 'reply.header(name, value)' },
  sendStatus: {
    kind: 'breaks',
    onFastify: 'the reply has no sendStatus(): TypeError',
    fix: 'reply.code(status).send(), or @HttpCode() and return nothing',
  },
  end: { kind: 'breaks', onFastify: 'the reply has no end(): TypeError', fix: 'reply.send(body)' },
  jsonp: { kind: 'breaks', onFastify: 'the reply has no jsonp(): TypeError', fix: 'reply.type(...).send(...)' },
  attachment: {
    kind: 'breaks',
    onFastify: 'the reply has no attachment(): TypeError',
    fix: 'reply.header("content-disposition", "attachment; filename=…")',
  },
  location: {
    kind: 'breaks',
    onFastify: 'the reply has no location(): TypeError',
    fix: 'reply.header("location", url)',
  },
  vary: { kind: 'breaks', onFastify: 'the reply has no vary(): TypeError', fix: 'reply.header("vary", field)' },
  format: {
    kind: 'breaks',
    onFastify: 'the reply has no format(): TypeError',
    fix: 'choose by request.headers.accept and reply.type(...)',
  },
  links: { kind: 'breaks', onFastify: 'the reply has no links(): TypeError', fix: 'reply.header("link", …)' },
};

/** Express's redirect(status, url): Fastify 5's is redirect(url, status). */
export const REDIRECT_STATUS_FIRST = {
  kind: /** @type {FindingKind} */ ('breaks'),
  onFastify: 'Fastify’s reply.redirect(url, code) takes the URL first: the status is sent as the location',
  fix: 'reply.redirect(url, status), or @Redirect(url, status) on the handler',
};

/**
 * Express's request API on Fastify's request (a handler's @Req(), a guard's getRequest()).
 * @type {Record<string, Difference>}
 */
export const REQUEST_MEMBERS = {
  get: {
    kind: 'breaks',
    onFastify: 'the request has no get(): TypeError, answered 500',
    fix: 'request.headers[name.toLowerCase()], or @Headers(name)',
  },
  header: { kind: 'breaks', onFastify: 'the request has no header(): TypeError', fix: 'request.headers[name]' },
  path: {
    kind: 'breaks',
    onFastify: 'the request has no path: undefined',
    fix: 'request.url without its query (request.url.split("?")[0]), or request.routeOptions.url for the pattern',
  },
  cookies: {
    kind: 'plugin',
    onFastify: 'request.cookies is undefined without @fastify/cookie',
    fix: 'register @fastify/cookie; request.cookies then holds them',
  },
  signedCookies: {
    kind: 'plugin',
    onFastify: 'request.signedCookies does not exist',
    fix: 'register @fastify/cookie with a secret; request.unsignCookie(request.cookies[name])',
  },
  session: {
    kind: 'plugin',
    onFastify: 'request.session is undefined without a session plugin',
    fix: 'register @fastify/cookie and @fastify/session (or @fastify/secure-session)',
  },
  file: {
    kind: 'plugin',
    onFastify: 'request.file is multer’s and is undefined on Fastify',
    fix: 'register @fastify/multipart and read await request.file()',
  },
  files: {
    kind: 'plugin',
    onFastify: 'request.files is multer’s and is undefined on Fastify',
    fix: 'register @fastify/multipart and read request.files()',
  },
  is: { kind: 'breaks', onFastify: 'the request has no is(): TypeError', fix: 'test request.headers["content-type"]' },
  accepts: {
    kind: 'breaks',
    onFastify: 'the request has no accepts(): TypeError',
    fix: 'register @fastify/accepts, or read request.headers.accept',
  },
  xhr: {
    kind: 'breaks',
    onFastify: 'request.xhr is undefined',
    fix: 'request.headers["x-requested-with"] === "XMLHttpRequest"',
  },
  baseUrl: { kind: 'breaks', onFastify: 'request.baseUrl is undefined', fix: 'request.routeOptions.url' },
  subdomains: {
    kind: 'breaks',
    onFastify: 'request.subdomains is undefined',
    fix: 'split request.hostname',
  },
  secure: {
    kind: 'breaks',
    onFastify: 'request.secure is undefined',
    fix: 'request.protocol === "https"',
  },
  fresh: { kind: 'breaks', onFastify: 'request.fresh is undefined', fix: 'compare if-none-match / etag yourself' },
};

/**
 * In a middleware on Fastify, req and res are Node's raw IncomingMessage and ServerResponse (through @fastify/middie).
 * @type {{ write: Difference, body: Difference, response: Difference }}
 */
export const MIDDLEWARE = {
  write: {
    kind: 'breaks',
    onFastify:
      'middleware gets Node’s raw request on Fastify: what it sets there is on request.raw, and handlers, guards and @Req() read Fastify’s request, where it is undefined',
    fix: 'do it in a guard or interceptor (they get Fastify’s request), or copy it in a Fastify preHandler hook: request.X = request.raw.X',
  },
  body: {
    kind: 'breaks',
    onFastify: 'middleware runs before Fastify parses the body: req.body is undefined there',
    fix: 'read the body in a guard, pipe or interceptor, or a Fastify preHandler hook',
  },
  response: {
    kind: 'breaks',
    onFastify: 'middleware gets Node’s raw ServerResponse on Fastify, which has no Express methods: TypeError',
    fix: 'res.statusCode = …; res.setHeader(…); res.end(JSON.stringify(…)), or throw an HttpException from a guard',
  },
};

/**
 * Packages written for Express, by the name they are imported as.
 * @type {Record<string, Difference>}
 */
export const PACKAGES = {
  express: {
    kind: 'breaks',
    onFastify:
      'Express’s own functions (express.json(), express.static(), express.Router()) serve Express’s request only',
    fix: 'the adapter’s body parser (app.useBodyParser, bodyLimit), @fastify/static (app.useStaticAssets), a Nest controller for a router',
  },
  multer: {
    kind: 'plugin',
    onFastify: 'multer reads Express’s request: uploads are not parsed',
    fix: '@fastify/multipart (request.file(), request.files())',
  },
  passport: {
    kind: 'plugin',
    onFastify: 'passport.initialize()/session() as middleware set req.user on the raw request only',
    fix: '@fastify/passport, or @nestjs/passport’s AuthGuard, which sets request.user on Fastify’s request',
  },
  'cookie-parser': {
    kind: 'plugin',
    onFastify: 'cookie-parser sets req.cookies on the raw request: request.cookies is undefined in handlers',
    fix: 'await app.register(fastifyCookie, { secret }) from @fastify/cookie',
  },
  'express-session': {
    kind: 'plugin',
    onFastify: 'express-session sets req.session on the raw request only, and needs Express’s response',
    fix: '@fastify/cookie with @fastify/session (or @fastify/secure-session)',
  },
  helmet: {
    kind: 'plugin',
    onFastify: 'helmet runs as raw middleware; the documented way on Fastify is its plugin',
    fix: 'await app.register(helmet) from @fastify/helmet',
  },
  compression: {
    kind: 'plugin',
    onFastify: 'compression wraps Express’s response: Fastify’s replies go out uncompressed',
    fix: 'await app.register(compress) from @fastify/compress',
  },
  'body-parser': {
    kind: 'differs',
    onFastify: 'body-parser consumes the raw stream before Fastify’s parser',
    fix: 'the adapter’s bodyLimit and app.useBodyParser(type, { bodyLimit }); addContentTypeParser for other types',
  },
  morgan: {
    kind: 'plugin',
    onFastify: 'morgan logs from Express’s response events on the raw request',
    fix: 'Fastify’s logger (new FastifyAdapter({ logger: true })) or pino-http',
  },
  'express-rate-limit': {
    kind: 'plugin',
    onFastify: 'express-rate-limit answers through Express’s response',
    fix: '@fastify/rate-limit, or @nestjs/throttler (both adapters)',
  },
  csurf: {
    kind: 'plugin',
    onFastify: 'csurf needs Express’s request and a cookie or session middleware',
    fix: '@fastify/csrf-protection',
  },
  'serve-static': {
    kind: 'plugin',
    onFastify: 'serve-static is Express’s',
    fix: '@fastify/static (app.useStaticAssets)',
  },
  '@nestjs/platform-express': {
    kind: 'breaks',
    onFastify: 'the Express platform’s classes (ExpressAdapter, MulterModule, file interceptors) need Express',
    fix: '@nestjs/platform-fastify; @fastify/multipart for uploads',
  },
};

/** Nest's multer-backed interceptors in @nestjs/platform-express. */
export const FILE_INTERCEPTORS = new Set([
  'FileInterceptor',
  'FilesInterceptor',
  'FileFieldsInterceptor',
  'AnyFilesInterceptor',
  'NoFilesInterceptor',
]);

/** @type {Difference} */
export const FILE_INTERCEPTOR = {
  kind: 'plugin',
  onFastify: 'the interceptor runs multer on Fastify’s request: the upload is not parsed, the handler gets no file',
  fix: 'register @fastify/multipart and read the file with await request.file() (or a Fastify file interceptor package)',
};

/** @type {Difference} */
export const RES_WITHOUT_PASSTHROUGH = {
  kind: 'differs',
  onFastify:
    'with @Res() the handler answers through the object itself, which is Fastify’s reply (send, code, header), not Express’s response',
  fix: 'return the value (with @HttpCode/@Header), or @Res({ passthrough: true }) where the handler only sets headers or cookies',
};

/**
 * NestExpressApplication's methods, called on the app in main.ts or the setup.
 * @type {Record<string, Difference>}
 */
export const APP_METHODS = {
  set: {
    kind: 'breaks',
    onFastify: 'NestFastifyApplication has no set(): TypeError while booting',
    fix: 'the matching FastifyAdapter option (trust proxy: new FastifyAdapter({ trustProxy: true }))',
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
    onFastify: 'NestFastifyApplication has no setBaseViewsDir()',
    fix: 'app.setViewEngine({ engine, templates: dir }) with @fastify/view',
  },
  useStaticAssets: {
    kind: 'plugin',
    onFastify: 'on Fastify useStaticAssets takes @fastify/static’s options ({ root, prefix })',
    fix: 'install @fastify/static; app.useStaticAssets({ root, prefix })',
  },
};

/** The middleware given to app.use(...) on Fastify when it is none of the known packages. */
export const APP_USE = {
  kind: /** @type {FindingKind} */ ('differs'),
  onFastify:
    'app.use middleware runs through @fastify/middie on Node’s raw request and response: Express methods are missing and what it sets on req does not reach handlers',
  fix: 'a Fastify plugin or hook (app.register / fastify.addHook), or a Nest guard or interceptor',
};

/**
 * What each probe's difference means (probes.js sends them): Express's defaults that Fastify does not share.
 * @type {Record<string, Difference>}
 */
export const PROBE_DIFFERENCES = {
  request: {
    kind: 'breaks',
    onFastify: 'the route’s own request answers differently',
    fix: 'see the code found in this route’s handler; else the server error',
  },
  'trailing slash': {
    kind: 'differs',
    onFastify: 'Fastify matches the path exactly: with a trailing slash the route is not found (Express ignores it)',
    fix: 'new FastifyAdapter({ routerOptions: { ignoreTrailingSlash: true } })',
  },
  'other case': {
    kind: 'differs',
    onFastify: 'Fastify’s router is case-sensitive (Express’s is not): the path in capitals is not found',
    fix: 'new FastifyAdapter({ routerOptions: { caseSensitive: false } })',
  },
  'body over 100 KB': {
    kind: 'differs',
    onFastify: 'Express refuses a JSON body over 100 KB (413); Fastify takes up to 1 MiB and hands it to the handler',
    fix: 'new FastifyAdapter({ bodyLimit: 102400 }) to keep Express’s limit, or the limit you mean on both',
  },
  urlencoded: {
    kind: 'plugin',
    onFastify: 'Fastify parses no application/x-www-form-urlencoded body: 415 Unsupported Media Type',
    fix: 'await app.register(formBody) from @fastify/formbody',
  },
  multipart: {
    kind: 'plugin',
    onFastify: 'the upload is not parsed on Fastify: multer needs Express’s request',
    fix: 'register @fastify/multipart and read await request.file()',
  },
  HEAD: {
    kind: 'differs',
    onFastify: 'HEAD answers differently from the GET route’s status',
    fix: 'new FastifyAdapter({ exposeHeadRoutes: true }) (the default), or an explicit @Head() route',
  },
  OPTIONS: {
    kind: 'differs',
    onFastify: 'Express answers OPTIONS itself with the allowed methods; Fastify has no such route',
    fix: 'app.enableCors() (answers preflights on both), or an @Options() handler where clients send OPTIONS',
  },
  cookies: {
    kind: 'plugin',
    onFastify: 'cookies sent or set answer differently: Fastify has no cookie parsing or setting of its own',
    fix: 'await app.register(fastifyCookie) from @fastify/cookie: request.cookies, reply.setCookie',
  },
};
