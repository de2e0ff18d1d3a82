// @ts-check
// What a --nest-app run records of what it found (results.ownApp.findings): each finding judged once, as own-app/
// checked the app (the scan's code, each route's own request, the probes), with its kind, route, place, both answers
// and fix. analysis/ sums these records into what switching costs; no stage after the check judges a finding again.

/**
 * @typedef {import('./finding-kinds.js').FindingKind} FindingKind
 * @typedef {import('./own-app-record.js').AdapterAnswer} AdapterAnswer
 *
 * One finding, as recorded; analysis/ adds `alsoOn` where it groups rows and `reach` as it ranks them.
 * @typedef {object} SwitchFinding
 * @property {FindingKind} kind
 * @property {'code' | 'request' | 'probe'} source the scan, the route's own request, or a probe
 * @property {string} what the rule or the probe: `res.json`, `trailing slash`
 * @property {string | null} route `GET /api/users/:id` when it is tied to one
 * @property {string | null} where file:line for code
 * @property {string | null} code the line
 * @property {string | null} request the request a probe or the route sent
 * @property {string} onFastify
 * @property {string} fix
 * @property {{ express: AdapterAnswer, fastify: AdapterAnswer } | null} answers
 * @property {string} place what one change fixes: a line, or one adapter option for a probe's every route
 * @property {string[]} [alsoOn] a probe's other routes that answered the same way; an information row's other places
 * @property {SharedReach} [shared] the code sits in a class registered for many routes (a global filter): what it
 *   reaches, and the answers that showed it, folded under it
 * @property {number} [reach] how many routes the finding touches, as the list is ranked: every route for a shared
 *   cause registered globally and for what keeps Fastify from booting, a probe's routes, 1 for a route's own, 0 unknown
 *
 * @typedef {object} SharedReach
 * @property {import('./own-app-record.js').SharedRole} role
 * @property {string} registered file:line where it is registered for those routes
 * @property {number} routes how many of the app's routes it reaches
 * @property {SharedSymptom[]} symptoms the routes' own requests and probes whose Fastify answer its error names (or,
 *   for middleware, what it does on Fastify: a body never read), and the lines of code that work once it is fixed
 * @property {number} [named] how many answers name its error, folded under it or standing as a difference of their own
 *   (a 404 of Fastify's own that the filter turned into a 500): between causes of equal reach, the one seen failing
 *   leads (absent in records written before it was counted)
 *
 * @typedef {{ source: 'request' | 'probe' | 'code', route: string | null, what: string, request: string | null,
 *   where?: string | null, express: number | null, fastify: number | null }} SharedSymptom where: a line of code's
 *   file:line
 *
 * What the check found, as results.ownApp.findings records it.
 * @typedef {object} RecordedFindings
 * @property {SwitchFinding[]} rows every finding the answers leave standing: the scan's lines (less those a route's own
 *   answers say at the same line), then the answers no shared cause explains, then the defaults no probe could show
 * @property {string[]} brokenRoutes routes that answer differently to their own request
 */

export {};
