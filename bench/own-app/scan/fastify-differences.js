// @ts-check
// What Express-only code in a handler, guard, filter or middleware does on Fastify, and the change on Fastify's side:
// the knowledge the scan (scan-file.js) names its findings with; what main.ts and the setup do is in
// app-differences.js, what the probes showed is judged from their answers in probe-statements.js. The kinds and their
// words are model/finding-kinds.js's.

/** @typedef {import('../../model/finding-kinds.js').FindingKind} FindingKind */
/** @typedef {{ kind: FindingKind, onFastify: string, fix: string }} Difference */

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
  req: {
    kind: 'breaks',
    onFastify: 'the reply has no req (Fastify’s is reply.request): undefined, and reading from it throws TypeError',
    fix: 'reply.request, or take the request with @Req() beside @Res()',
  },
};

/**
 * An exception filter's `response.status(code).json(body)`: it throws on Fastify's reply, and Nest answers every
 * exception the filter catches with its own 500.
 * @type {Difference}
 */
export const FILTER_JSON = {
  kind: 'breaks',
  onFastify:
    'the filter gets Fastify’s reply, which has no json(): the filter itself throws TypeError, and Nest answers 500 in place of every status it sets (each 4xx it catches, a 404 included)',
  fix: 'response.status(status).send(body): both adapters’ replies have status() and send(), and Express sends an object as JSON; or answer through the adapter, httpAdapterHost.httpAdapter.reply(ctx.getResponse(), body, status) (inject HttpAdapterHost)',
};

/** Express's redirect(url) after status(code): Express sends 302 whatever was set, Fastify keeps the status set. */
export const REDIRECT_AFTER_STATUS = {
  kind: /** @type {FindingKind} */ ('differs'),
  onFastify:
    'Express’s redirect(url) answers 302 whatever status was set before; Fastify’s reply.redirect(url) keeps the status set (a 301 stays 301, a 200 is sent as 200 with a location)',
  fix: 'give the status to redirect itself: reply.redirect(url, status) on Fastify, or @Redirect(url, status)',
};

/**
 * Express's redirect(status, url) on the app's Fastify: 4 still takes it (deprecated), 5 takes only redirect(url, code).
 * @param {string | null} fastify the installed version, null when unknown
 * @returns {Difference}
 */
export function redirectStatusFirst(fastify) {
  const fix = 'reply.redirect(url, status), or @Redirect(url, status) on the handler';
  if (fastify !== null && Number(fastify.split('.')[0]) < 5)
    return {
      kind: 'works',
      onFastify: `Fastify ${fastify} still takes redirect(status, url), with a deprecation warning (FSTDEP021); Fastify 5 takes only redirect(url, code)`,
      fix,
    };
  return {
    kind: 'breaks',
    onFastify: `Fastify${fastify ? ` ${fastify}` : ' 5'} takes reply.redirect(url, code) only: the URL is read as the status code, an error answered 500`,
    fix,
  };
}

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
  ips: {
    kind: 'breaks',
    onFastify:
      'request.ips is undefined unless the FastifyAdapter trusts a proxy (Express’s is [] without one): req.ips.length throws TypeError, answered 500 wherever it runs (a throttler’s getTracker: every route)',
    fix: 'new FastifyAdapter({ trustProxy: true }) (or the hops you trust), or read req.ips?.length',
  },
};

/**
 * Express's own response methods (express/lib/response.js) and res.locals: Node's ServerResponse has none of them, so
 * middleware calling one on Fastify throws. Node's own (setHeader, getHeader, writeHead, end, statusCode, req) work there.
 */
export const EXPRESS_RESPONSE_ONLY = new Set(
  (
    'status links send json jsonp sendStatus sendFile sendfile download type contentType format attachment append ' +
    'header set get clearCookie cookie location redirect vary render locals'
  ).split(' '),
);

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
    onFastify:
      'middleware gets Node’s raw ServerResponse on Fastify, which has Node’s methods (setHeader, end) but none of Express’s: TypeError',
    fix: 'res.statusCode = …; res.setHeader(…); res.end(JSON.stringify(…)), or throw an HttpException from a guard',
  },
};

/** Express's res.cookie() and res.clearCookie() in middleware, where the response is Node's raw one on Fastify. */
export const MIDDLEWARE_COOKIE = {
  kind: /** @type {FindingKind} */ ('plugin'),
  onFastify:
    'middleware gets Node’s raw ServerResponse on Fastify, which has no cookie() or clearCookie(): TypeError, answered 500',
  fix: 'register @fastify/cookie (await app.register(fastifyCookie)) and set it where Fastify’s reply is at hand: reply.setCookie(name, value, options) in an interceptor or a Fastify onRequest hook',
};

/** Nest's multer-backed interceptors in @nestjs/platform-express. */
export const FILE_INTERCEPTORS = new Set([
  'FileInterceptor',
  'FilesInterceptor',
  'FileFieldsInterceptor',
  'AnyFilesInterceptor',
  'NoFilesInterceptor',
]);

/**
 * The change that makes a multer interceptor's upload work on Fastify.
 * @param {string} interceptor the one to replace, as the finding names it
 */
export function fileInterceptorFix(interceptor) {
  return (
    `register @fastify/multipart (await app.register(multipart)) and take the file with a Fastify-side interceptor in ` +
    `place of ${interceptor}: @blazity/nest-file-fastify's FileInterceptor and @UploadedFile() (on ` +
    `@fastify/multipart), or @nest-lab/fastify-multer to keep multer's options (storage, fileFilter, limits)`
  );
}

/** The change that makes graphql-upload's multipart requests (`Upload` arguments) work on Fastify. */
export const GRAPHQL_UPLOAD_FIX =
  "give multipart/form-data a parser that leaves the stream unread (fastify.addContentTypeParser('multipart/form-data', " +
  '(req, payload, done) => done(null))) and set request.body = await processRequest(request.raw, reply.raw, options) ' +
  'from graphql-upload in a preValidation hook, in place of graphqlUploadExpress in app.use; or drop uploads ' +
  'through GraphQL (a REST route with @fastify/multipart)';

/** @type {Difference} */
export const FILE_INTERCEPTOR = {
  kind: 'plugin',
  onFastify:
    'multer reads Express’s request, and Fastify parses no multipart/form-data unless a plugin is registered (Nest’s FastifyAdapter registers none): what Fastify answered to the route’s file is its own row',
  fix: fileInterceptorFix('this one'),
};

/** @type {Difference} */
export const RES_WITHOUT_PASSTHROUGH = {
  kind: 'differs',
  onFastify:
    'with @Res() the handler answers through the object itself, which is Fastify’s reply (send, code, header), not Express’s response',
  fix: 'return the value (with @HttpCode/@Header), or @Res({ passthrough: true }) where the handler only sets headers or cookies',
};
