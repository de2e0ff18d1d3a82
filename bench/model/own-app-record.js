// @ts-check
// What results.json keeps of a --nest-app run (results.ownApp): the names its targets and traffic mix go by, and the
// shapes of the app's routes and how each was sent, the sign-in, a boot that failed, the compatibility check with its
// probes, and the scan's code findings. own-app/ fills it as it checks the app; analysis/ and report/ read it.

/** The user's app on each adapter: the targets of a --nest-app run. */
export const EXPRESS_TARGET = 'nest-express';
export const FASTIFY_TARGET = 'nest-fastify';
/** With --baseline: the base build, run as written like nest-express, which is then the candidate. */
export const BASE_TARGET = 'base-nest-express';
/** The mix scenario of the logged traffic: the verdict on it is the answer for the user's app. */
export const TRAFFIC_SCENARIO = 'traffic';

/**
 * What results.json keeps of an own-app run (results.ownApp): the report's tables are rendered from it.
 * @typedef {object} OwnAppRecord
 * @property {string} module
 * @property {string | null} [main] --nest-main: the app's main the servers ran; absent with --nest-app
 * @property {string[]} [measuredWithout] --nest-main: main's calls Fastify could not take, skipped there (FILE:LINE)
 * @property {string | null} setup
 * @property {string} [cwd] the servers' working directory: the app's root or --nest-cwd
 * @property {string} [nodeEnv] the NODE_ENV the bench started its servers with; absent in older results
 * @property {Record<string, string>} versions the app's Nest packages (core, platforms)
 * @property {RouteEntry[]} routes every route Nest registered, measured or not and why
 * @property {Compatibility} compatibility
 * @property {TrafficSummary | null} traffic
 * @property {string | null} mix the traffic mix's scenario, when the log gave one
 * @property {SignInRecord | null} [signIn] when --nest-setup exports authenticate
 * @property {string[]} [headers] the names of the --header headers sent with every request
 * @property {ScanRecord} [scan] what the scan of its code found; absent before the scan existed
 * @property {Record<string, string>} [adapters] how the setup module had each adapter built; absent: its defaults
 * @property {BootFailure | null} [bootFailure] the app did not boot on an adapter
 * @property {BootFailure[]} [runtimeFailures] runtimes the app did not boot on, left out
 * @property {SentForIds[]} [sentForIds] each create the bench sent once, signed in, for an id a route needed, that the
 *   app took; absent in older results
 * @property {ThrottleRecord} [throttle] the app's throttler guards and what the timed servers did with them; absent
 *   when it has none
 * @property {import('./findings-record.js').RecordedFindings} [findings] what the check found, each finding judged once
 *   (own-app/findings/switching.js); absent in results written before the check recorded it, which its readers fill
 * @property {Builds | null} [builds] with --baseline, the two builds timed; absent without it
 * @property {string | null} [swaggerError] why @nestjs/swagger could not build the app's OpenAPI document
 */

/**
 * The two builds of a --baseline run.
 * @typedef {{ candidate: BuildRecord, base: BuildRecord }} Builds
 *
 * One build of the app in a --baseline run, as the report names it.
 * @typedef {object} BuildRecord
 * @property {string} target the target that ran it
 * @property {string} module its main (or module) file
 * @property {string} cwd the folder its servers ran in
 * @property {string | null} commit the git commit its folder is checked out at; null where it is no git checkout
 * @property {boolean | null} changed tracked files differ from that commit; null where it is no git checkout
 * @property {string} nestCore the @nestjs/core it loads
 */

/**
 * Which commit a build is, in words: `git 0123456789ab, with uncommitted changes`, or that it is no git checkout.
 * @param {BuildRecord} build
 */
export function commitWords({ commit, changed }) {
  return commit === null
    ? 'not a git checkout'
    : `git ${commit.slice(0, 12)}${changed ? ', with uncommitted changes' : ''}`;
}

/**
 * A create the bench sent before the check, for an id: its request and the start of the app's answer.
 * @typedef {{ request: string, status: number, body: string }} SentForIds
 */

/**
 * What a run did with the app's throttler, for the report: its guards lifted while timing, or kept (--keep-throttle).
 * @typedef {object} ThrottleRecord
 * @property {'lift' | 'keep'} timed how the timed servers had it
 * @property {ThrottlerGuardFound[]} guards
 * @property {string | null} forRoot where ThrottlerModule.forRoot is called (file:line), when the scan found it
 * @property {LimiterTimed[]} [limiters] the app's other rate limiters (express-rate-limit, @fastify/rate-limit,
 *   rate-limiter-flexible, its own 429s) as the timed servers had them; absent when it has none
 *
 * A rate limiter besides @nestjs/throttler's guard, as the scan found it and the timed servers had it.
 * @typedef {object} LimiterTimed
 * @property {'express-rate-limit' | '@fastify/rate-limit' | 'rate-limiter-flexible' | 'guard' | 'answer'} kind a
 *   package's limiter; guard: a guard of the app's that throws 429; answer: the app's own code answering 429
 * @property {string} name what is made (`rateLimit()`, `RateLimiterMemory`), or the class
 * @property {string} at file:line: where it is made, or the class's 429
 * @property {string | null} limits as written (`100 per 900 s`); null where the code does not say in literals
 * @property {boolean} lifted whether the timed servers let every request through it
 * @property {string} note how it was lifted, or why it was kept and the fix
 *
 * One throttler guard the app registered, as the report names it.
 * @typedef {object} ThrottlerGuardFound
 * @property {string} guard its class: ThrottlerGuard, or the app's subclass
 * @property {string} version of the throttler package the app resolves
 * @property {ThrottlerLimit[]} limits each named throttler's, as configured
 *
 * @typedef {{ name: string, limit: string, ttl: string }} ThrottlerLimit e.g. default, 10, 60 s; "set per request"
 *   where the app gives a function
 */

/**
 * What the bench knows about each route of the app, measured or not: the report's table of routes.
 * @typedef {object} RouteEntry
 * @property {string} method
 * @property {string} path the route as registered
 * @property {string} handler
 * @property {string | null} scenario the scenario that measures it; null: not measured
 * @property {string | null} request the concrete request, e.g. GET /api/users/7
 * @property {string | null} notMeasured why not
 * @property {string} [checked] the scenario its check ran as, where the check took it out of the run: its findings
 *   are tied to it by that name (a GraphQL operation's request line names only its endpoint, POST /graphql)
 * @property {number} logged requests to it in the traffic log (0 without one)
 * @property {Record<string, string>} [headers] sent with it: the version header of header/media-type versioning
 * @property {'derived' | '--body' | 'authenticate()' | 'current values' | 'none' | null} [body] where its body came
 *   from: the app's metadata, --body, the request authenticate() signed in with, the entity's own current values (a
 *   write the sign-in relies on: same-values.js), or it reads none; null for a GET
 * @property {string[]} [bodySources] what the derived body was read from: OpenAPI, class-validator
 * @property {UploadSent} [upload] the file it is sent as a form, its body's fields beside
 *   it: its handler has a file interceptor
 * @property {string[]} [unfilled] the ids it names that the app did not give (id-sources.js), each with its flag
 * @property {'endpoint' | 'query' | 'mutation' | 'subscription'} [graphql] the GraphQL endpoint, or one of its
 *   operations (graphql.js)
 * @property {boolean} [signedOut] sent without the sign-in's headers: a public write that reads no body, which would
 *   otherwise be held for the signed-in account's change (principal.js askableSignedOut)
 *
 * @typedef {object} TrafficSummary
 * @property {string} file
 * @property {number} requests read from the log
 * @property {number} matched to a route
 * @property {number} unmatched requests that match no route (a 404, a static file, another service)
 * @property {number} unreadable lines in neither format
 */

/**
 * @typedef {{ field: string, count: number }} FileField a form field its interceptor reads files from, and how many
 * @typedef {{ pattern: string, regex: boolean, handler: string | null }} FileTypePattern what a fileFilter or a
 *   file type validator tests (a regular expression literal as written, or a string), and the handler it sits in
 *
 * What a route that takes a file is sent, as the routes table and the findings name it.
 * @typedef {object} UploadSent
 * @property {FileField[]} fields
 * @property {string} filename
 * @property {string} type
 * @property {number} bytes
 * @property {string} interceptor the scan's rule, e.g. FileInterceptor('file'); for a GraphQL operation, what parses
 *   its multipart request on Express (graphqlUploadExpress)
 * @property {string} where its file:line ('' where the scan found none)
 * @property {string[]} [variables] a GraphQL operation's: where each file goes in its variables (`variables.file`),
 *   one form field each, named 0, 1, … as the GraphQL multipart request spec names them
 */

/**
 * What results.json keeps of the sign-in: header names, never their values.
 * @typedef {object} SignInRecord
 * @property {string} [source] what signed in: `--sign-in POST /api/auth/login`, or the setup module's file
 * @property {string | null} [accepted] the request that proved the sign-in: refused signed out, 2xx signed in
 * @property {string[]} headers the names of the headers sent with every request
 * @property {string[]} params the path parameters authenticate() filled
 * @property {Record<string, string | null>} errors per adapter, why authenticate() failed there; null: it worked
 * @property {string} [refused] the app refused the sign-in on Express (authenticate() threw, or the app refused the
 *   headers it returned): the run checks and times nothing, writes its reports saying so, and exits 2
 */

/**
 * @typedef {object} BootFailure
 * @property {'express' | 'fastify'} adapter
 * @property {string} runtime e.g. node@26.10.0
 * @property {string} error the app's own error, e.g. "TypeError: app.enable is not a function"
 * @property {string | null} step the boot step it broke: configure(app), NestFactory.create, app.listen() ...
 * @property {string | null} at FILE:LINE:COLUMN in the app's code (its source, where a source map leads to it); for a
 *   route Fastify's router refuses, the FILE:LINE of its decorator, which the error does not name
 * @property {string} fix
 */

/**
 * @typedef {{ status: number | null, contentType: string | null, error: string | null, refusal?: string | null,
 *   body?: string, setCookies?: string[], headers?: Record<string, string> }} AdapterAnswer error: the first line the
 *   server logged while answering (or why the request failed); refusal: what a 4xx answer's body said (a validation
 *   message); body: its start; setCookies: the names of the cookies it set; headers: those of EVIDENCE_HEADERS it sent
 *
 * @typedef {object} ProbeFinding a request beyond the route's own that the adapters answered differently
 * @property {string} probe trailing slash, other case, body over 100 KB, urlencoded, HEAD, preflight, cookies
 *   (probes.js; OPTIONS and multipart in older results)
 * @property {string} request e.g. GET /api/users/7/
 * @property {string} difference what differs, in words
 * @property {AdapterAnswer} express
 * @property {AdapterAnswer} fastify
 * @property {string} [asks] the method a preflight asked for
 * @property {string} [sent] the start of the body a form probe sent
 *
 * @typedef {object} RouteCompatibility
 * @property {string} scenario
 * @property {string} request e.g. GET /api/users/7/card
 * @property {boolean} same both adapters gave the same status, media type and body
 * @property {string | null} difference what differs, in words
 * @property {true} [contentTypeOnly] only the content type differs: the same status, body and cookies; the route is
 *   timed, held to Express's body
 * @property {AdapterAnswer} express
 * @property {AdapterAnswer} fastify
 * @property {boolean} bodyVaries two answers from Express differed: bodies were not compared
 * @property {{ status: number, contentType: string | null, body: unknown } | null} expect what verification checks on
 *   both adapters later: Express's answer; null when the route is not measured
 * @property {string | null} notMeasured a route that answers alike but with an error status on Express too
 * @property {ProbeFinding[]} [probes] the probes (probes.js) answered differently; absent before they existed
 * @property {SignInChange} [lostSignIn] the sign-in stopped working, or answered as another
 *   principal, after this write (principal.js)
 * @property {WrittenAnswer[]} [written] every answer of each write the check sent for this route: its own request on
 *   Express, Fastify and Express again, and each probe that writes (a trailing slash, capitals, a body over 100 KB, a
 *   form); absent for a read, and in results written before the check kept them
 *
 * One answer to a write the check sent: each 2xx may have made a row (What the check wrote).
 * @typedef {{ request: string, adapter: string, status: number | null, body: string }} WrittenAnswer body: its start
 *
 * A request after which a server's process had ended; the server was started again for the next route.
 * @typedef {ProcessEnd & { adapter: string, scenario: string, request: string,
 *   probe: string | null, restarted: boolean }} ServerEnd probe: the probe that sent the request, null for the
 *   route's own; restarted: false when it did not start again (startFailure says why)
 *
 * @typedef {object} Compatibility
 * @property {{ adapter: string, error: string } | null} startFailure
 * @property {RouteCompatibility[]} routes
 * @property {ServerEnd[]} [ends] absent before the check watched for them
 */

/**
 * @typedef {{ code: number | null, signal: string | null, error: string }} ProcessEnd error: the last error line on
 *   its stderr
 */

/**
 * What a write did to the sign-in: lost, it no longer signs in; unread, the witness answered no record to compare (a
 * 429, a 500): whether it changed is not known; else the principal's record changed (a role's permissions, the
 * account's name), each field as before → after.
 * @typedef {{ lost: boolean, why: string, unread?: boolean }} SignInChange
 */

/**
 * @typedef {object} CodeFinding
 * @property {string} rule what was found, e.g. `res.json`, `@Res() without passthrough`, `import cookie-parser`
 * @property {import('./finding-kinds.js').FindingKind} kind
 * @property {string} file relative to the app's root (ScanRecord.root); absolute outside it
 * @property {number} line 1-based
 * @property {string} code the line, trimmed
 * @property {string | null} handler Controller.method when it sits in one: ties it to a route
 * @property {string} onFastify
 * @property {string} fix
 * @property {FileField[]} [files] the form fields a file interceptor reads files from
 * @property {string} [middleware] the package an app.use finding runs, judged again by the answers (switching.js)
 * @property {SharedCause} [shared] the class it sits in runs for many routes at once (a global filter): one cause
 *   for all of them
 * @property {string} [condition] what a bootstrap call runs under within its function, as written (the `if` around
 *   it: `NODE_ENV === 'dev'`); absent where it runs whenever its function does
 *
 * @typedef {'filter' | 'guard' | 'interceptor' | 'middleware'} SharedRole
 * @typedef {object} SharedCause
 * @property {SharedRole} role
 * @property {string} name the class
 * @property {string} registered file:line of the registration
 * @property {string[] | null} routes null: every route; else the controllers (by class name) and path prefixes
 *   (`/api/users`) middleware is applied to
 *
 * @typedef {object} ScanRecord
 * @property {string} [root] the app's root, the folder of its package.json: the files are named from it (absent in
 *   results from before)
 * @property {string[]} files what was read, relative to the app's root
 * @property {number} fromSourceMaps how many of them were TypeScript sources found through source maps
 * @property {CodeFinding[]} findings
 * @property {string[]} [cookies] the names of the cookies the code reads (req.cookies.NAME) or sets (res.cookie)
 * @property {FileTypePattern[]} [fileTypes] what the app's fileFilters and file type
 *   validators test: the file a route is sent is one they accept
 * @property {string[]} [corsOrigins] the origins enableCors() or the cors option names as literals: the preflight
 *   probe sends the first
 * @property {AppPackages} [installed] what the advice was judged with
 * @property {{ forRoot: string | null }} [throttler] the app uses Nest's throttler package (its package.json or an
 *   import): where ThrottlerModule.forRoot is called (file:line), when the scan found it; absent when it does not
 * @property {string | null} skipped why nothing was scanned
 * @property {Record<string, string>} [database] the app's ORM and database drivers as installed beside it (its
 *   package.json's, the version its node_modules holds): the report's Environment names them as the app's
 */

/**
 * @typedef {object} AppPackages
 * @property {string | null} fastify the version the app's Nest platform for Fastify loads
 * @property {{ version: string, methods: string | null } | null} fastifyCors methods: its default `methods`, read from
 *   its source (null when the source did not say)
 * @property {string | null} fastifyStatic
 * @property {string | null} apollo Nest's Apollo driver package
 * @property {string | null} apolloFastify Apollo's integration for Fastify, which the driver needs there: the one the
 *   installed driver takes (apolloFastifyPackage)
 * @property {string | null} mercurius Nest's Mercurius driver package
 * @property {PeerRange[]} [fastifyStaticPeers] the @fastify/static each installed package that loads it takes
 *   (@nestjs/platform-fastify, @nestjs/swagger): npm refuses a version outside any of them
 *
 * @typedef {object} PeerRange
 * @property {string} name the package that declares it @property {string} version its version
 * @property {string} range what it takes, as its peerDependencies say (`^8.0.0 || ^9.0.0`)
 */
