// @ts-check
// What a probe showed, in words taken from its recorded answers: each statement names the statuses (and the headers
// or content type that matter) both adapters gave, and suggests the fix that answer calls for; an answer no rule
// explains is stated as it is, never as a rule's expected outcome.

/**
 * @typedef {import('../scan/fastify-differences.js').Difference} Difference
 * @typedef {import('./compatibility.js').AdapterAnswer} AdapterAnswer
 * @typedef {import('./compatibility.js').ProbeFinding} ProbeFinding
 * @typedef {import('../launch/app-packages.js').AppPackages} AppPackages
 */

/** The content type each body probe sends (probes.js; multipart in older results). */
const PROBE_CONTENT_TYPES = /** @type {Record<string, string>} */ ({
  'body over 100 KB': 'application/json',
  urlencoded: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
});

/** The Fastify plugin that parses a content type Fastify answered 415 to. */
const PARSER_PLUGINS = /** @type {Record<string, string>} */ ({
  'application/x-www-form-urlencoded': 'await app.register(formBody) from @fastify/formbody',
  'multipart/form-data':
    'await app.register(multipart) from @fastify/multipart, and read the file with await request.file()',
});

/** What each probe sent, for the statement's opening. */
const PROBE_WORDS = /** @type {Record<string, string>} */ ({
  'trailing slash': 'the path with a trailing slash',
  'other case': 'the path in capitals',
  'body over 100 KB': 'a JSON body of 110 KB',
  urlencoded: 'the body as a form',
  multipart: 'a multipart upload',
  HEAD: 'HEAD',
  OPTIONS: 'OPTIONS',
  preflight: 'a browser’s CORS preflight',
  cookies: 'the request with cookies',
});

/** The fix for the route's own request answering differently, when no code was found in its handler. */
export const OWN_REQUEST_FIX =
  'the error Fastify logged names what failed; the code found in the handler is listed above';

/**
 * @param {ProbeFinding} probe
 * @param {AppPackages | null} installed
 * @returns {Difference | null} null: the answers differ in nothing a client acts on (a preflight both adapters allow)
 */
export function probeStatement(probe, installed) {
  const { express, fastify } = probe;
  const contentType = PROBE_CONTENT_TYPES[probe.probe];
  if (fastify.status === 415 && express.status !== 415)
    return {
      kind: 'plugin',
      onFastify: `Fastify answered 415 Unsupported Media Type to ${contentType ?? 'this content type'}: it has no parser for it (Express answered ${answered(express)})`,
      fix:
        PARSER_PLUGINS[contentType ?? ''] ??
        'a content-type parser: app.useBodyParser(type) or fastify.addContentTypeParser(type, …)',
    };
  const rule = RULES[probe.probe];
  const stated = rule?.(probe, installed);
  return stated === undefined ? asAnswered(probe) : stated;
}

/**
 * Each rule states what its probe's answers showed; undefined when they show something the rule does not explain
 * (stated as answered), null when they differ in nothing a client acts on.
 * @type {Record<string, (probe: ProbeFinding, installed: AppPackages | null) => Difference | null | undefined>}
 */
const RULES = {
  'trailing slash': ({ express, fastify, difference }, installed) =>
    notFoundOnFastify(express, fastify) ||
    refusedOnFastify(express, fastify) ||
    // Fastify answered the path with the slash, and not as the route: another route took it (`/users/` is
    // `/users/:id` with an empty id there: 200 and null)
    (ok(express) && ok(fastify) && difference === 'body')
      ? {
          kind: 'differs',
          onFastify: `with a trailing slash Express answered ${answered(express)}, Fastify ${answered(fastify)}: Fastify’s router matches the path exactly${notFoundOnFastify(express, fastify) ? '' : ' (the slash took it to another route: an empty parameter)'}, Express ignores a trailing slash`,
          fix: `new FastifyAdapter(${routerOption(installed, 'ignoreTrailingSlash: true')})`,
        }
      : undefined,
  'other case': ({ express, fastify }, installed) =>
    notFoundOnFastify(express, fastify)
      ? {
          kind: 'differs',
          onFastify: `the path in capitals: Express answered ${answered(express)}, Fastify ${answered(fastify)}: Fastify’s router is case-sensitive, Express’s is not`,
          fix: `new FastifyAdapter(${routerOption(installed, 'caseSensitive: false')})`,
        }
      : // one status on both (404 and 404, each its own body): nothing a client acts on, no routing difference
        sameStatus(express, fastify)
        ? null
        : undefined,
  'body over 100 KB': ({ express, fastify }) =>
    tooLarge(express) && !tooLarge(fastify)
      ? {
          kind: fastify.status !== null && fastify.status >= 500 ? 'breaks' : 'differs',
          onFastify: `Express refused a 110 KB JSON body (${express.status === 413 ? '413' : `${answered(express)}: its body parser’s 413 as the app’s exception filter answers it`}, over its 100 KB limit); Fastify took it (limit 1 MiB) and answered ${answered(fastify)}`,
          fix: 'new FastifyAdapter({ bodyLimit: 102400 }) to keep Express’s limit, or the limit you mean on both',
        }
      : undefined,
  urlencoded: ({ express, fastify, sent }) =>
    ok(express) && !ok(fastify) && /%5B/i.test(sent ?? '')
      ? {
          kind: fastify.status !== null && fastify.status >= 500 ? 'breaks' : 'differs',
          onFastify: `the form with nested fields (a[b]=…): Express answered ${answered(express)}, Fastify ${answered(fastify)}: Nest’s form parser on Fastify (Node’s querystring) keeps a[b] as one flat key, where Express’s extended parser nests it`,
          fix: 'send nested data as JSON, or parse forms with qs on Fastify: fastify.removeContentTypeParser(type) then addContentTypeParser(type, { parseAs: "string" }, (req, body, done) => done(null, qs.parse(body)))',
        }
      : undefined,
  HEAD: ({ express, fastify }) =>
    ok(express) && fastify.status === 404
      ? {
          kind: 'differs',
          onFastify: `HEAD: Express answered ${answered(express)} (from the GET route), Fastify 404: no HEAD route was exposed`,
          fix: 'new FastifyAdapter({ exposeHeadRoutes: true }), or an explicit @Head() route',
        }
      : undefined,
  preflight: preflightStatement,
  cookies: ({ express, fastify, difference }) => {
    const set = (/** @type {AdapterAnswer} */ a) => a.setCookies?.join(', ') || 'none';
    // a crash with the cookies sent is stated as it was: its error, not the cookies, says what failed
    if (fastify.status === null || (fastify.status >= 500 && set(express) === set(fastify))) return undefined;
    const broke = fastify.status >= 500;
    return {
      kind: broke ? 'breaks' : 'plugin',
      onFastify:
        set(express) === set(fastify)
          ? `with the cookies sent, Express answered ${answered(express)} and Fastify ${answered(fastify)}${difference === 'body' ? ' with another body' : ''}: Fastify did not read them`
          : `cookies set: Express ${set(express)}, Fastify ${set(fastify)} (Express answered ${answered(express)}, Fastify ${answered(fastify)})`,
      fix: 'await app.register(fastifyCookie) from @fastify/cookie: request.cookies, reply.setCookie',
    };
  },
};

/**
 * A browser's preflight for the route's method: what each adapter allowed.
 * @param {ProbeFinding} probe
 * @returns {Difference | null | undefined}
 */
function preflightStatement({ express, fastify, asks }) {
  // a crash is stated as it was: the fix is the error's, not CORS's
  if (fastify.status === null || fastify.status >= 500) return undefined;
  const method = asks ?? 'the route’s method';
  const allows = (/** @type {AdapterAnswer} */ a) => {
    const methods = a.headers?.['access-control-allow-methods'];
    const origin = a.headers?.['access-control-allow-origin'];
    if (!origin && !methods) return `${answered(a)} without CORS headers`;
    return `${answered(a)}, methods ${methods ?? 'not named'}${origin ? `, origin ${origin}` : ', no origin'}`;
  };
  const lists = (/** @type {AdapterAnswer} */ a) =>
    (a.headers?.['access-control-allow-methods'] ?? '')
      .toUpperCase()
      .split(/\s*,\s*/)
      .includes(method);
  const permits = (/** @type {AdapterAnswer} */ a) =>
    ok(a) && Boolean(a.headers?.['access-control-allow-origin']) && lists(a);
  const statement = `a browser’s preflight for ${method}: Express answered ${allows(express)}; Fastify ${allows(fastify)}`;
  if (permits(express) && !permits(fastify))
    return {
      kind: 'breaks',
      onFastify: `${statement}: the browser refuses the ${method} after a switch`,
      fix: fastify.headers?.['access-control-allow-origin']
        ? `give the methods: app.enableCors({ …, methods: 'GET,HEAD,PUT,PATCH,POST,DELETE' }) (@fastify/cors’s default is GET,HEAD,POST)`
        : 'app.enableCors(options) on both adapters (Nest registers @fastify/cors on Fastify), with the methods your clients send',
    };
  // the origin refused by both alike, the route's method allowed by both: nothing differs for this route
  if (!permits(express) && !permits(fastify) && sameStatus(express, fastify) && lists(express) && lists(fastify))
    return null;
  if (!permits(express) && !permits(fastify))
    return {
      kind: 'differs',
      onFastify: `${statement}: neither allows a cross-origin ${method}; only clients that send OPTIONS themselves see the difference`,
      fix: 'nothing for browsers; an @Options() handler where a client relies on Express’s automatic OPTIONS answer',
    };
  return permits(fastify) ? null : undefined;
}

/** The fix of a probe Fastify answered with an error no rule explains. */
export const PROBE_CRASH_FIX = 'the error Fastify logged (its answer) names what failed on this request';

/**
 * An answer no rule explains, stated as it was.
 * @param {ProbeFinding} probe @returns {Difference}
 */
function asAnswered({ probe, express, fastify, difference }) {
  const broke = fastify.status !== null && fastify.status >= 500 && !(express.status !== null && express.status >= 500);
  return {
    kind: broke ? 'breaks' : 'differs',
    onFastify: `${PROBE_WORDS[probe] ?? probe}: Express answered ${answered(express)}, Fastify ${answered(fastify)}${difference.startsWith('status') ? '' : ` (${difference})`}`,
    fix: broke ? PROBE_CRASH_FIX : 'decide which answer your clients rely on; both are shown',
  };
}

/**
 * Fastify found no route where Express did: a 404, or the 500 an exception filter that fails on Fastify makes of the
 * NotFoundException (its logged error says so).
 * @param {AdapterAnswer} express @param {AdapterAnswer} fastify
 */
function notFoundOnFastify(express, fastify) {
  const notFound = fastify.status === 404 || (fastify.status === 500 && /NotFoundException/.test(fastify.error ?? ''));
  return notFound && express.status !== 404;
}

/**
 * Express answered the route and Fastify refused the request as a client error: with a trailing slash, `/users/`
 * reaches `/users/:id` with an empty id on Fastify (a 400 from its pipe).
 * @param {AdapterAnswer} express @param {AdapterAnswer} fastify
 */
function refusedOnFastify(express, fastify) {
  return ok(express) && fastify.status !== null && fastify.status >= 400 && fastify.status < 500;
}

/** @param {AdapterAnswer} express @param {AdapterAnswer} fastify */
function sameStatus(express, fastify) {
  return express.status !== null && express.status === fastify.status;
}

/**
 * A body refused as too large: a 413, or body-parser's PayloadTooLargeError that an exception filter answered otherwise
 * (vndevteam's filter makes every error it does not know a 500).
 * @param {AdapterAnswer} answer
 */
function tooLarge(answer) {
  return answer.status === 413 || /PayloadTooLargeError|request entity too large/i.test(answer.error ?? '');
}

/** @param {AdapterAnswer} answer */
function ok(answer) {
  return answer.status !== null && answer.status < 400;
}

/**
 * A status with what explains it: the error the server logged, or what a 4xx said.
 * @param {AdapterAnswer} answer
 */
export function answered(answer) {
  if (answer.status === null) return `nothing${answer.error ? ` (${answer.error})` : ''}`;
  const why = answer.error ?? (answer.refusal ? `“${answer.refusal}”` : null);
  return `${answer.status}${why ? ` (${why})` : ''}`;
}

/**
 * A router option in the form the app's Fastify takes: `routerOptions` from Fastify 5, top level before.
 * @param {AppPackages | null} installed @param {string} option
 */
export function routerOption(installed, option) {
  const major = installed?.fastify ? Number(installed.fastify.split('.')[0]) : null;
  return major !== null && major < 5 ? `{ ${option} }` : `{ routerOptions: { ${option} } }`;
}
