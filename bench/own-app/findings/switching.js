// @ts-check
// Every finding of a --nest-app run, judged once as the check ends (code the scan found, routes whose own request
// answers differently, probes whose answers differ), each with its kind, route, place and fix: the record
// results.ownApp.findings keeps, which analysis/ sums into what switching costs.
import { judgedByAnswers } from '../check/answer-evidence.js';
import { OWN_REQUEST_FIX, PROBE_CRASH_FIX, probeStatement, routerOption } from '../check/probe-statements.js';
import { uploadDifference } from '../bodies/upload-form.js';
import { oneRowPerLine, routeLabel } from './finding-routes.js';
import { contentTypeOf } from '../check/compatibility.js';
import { routesReached } from '../scan/scan-shared.js';
import { BODY_PARSER_IN_APP_USE, INVALID_CORS_ORIGIN } from '../scan/app-differences.js';

/**
 * @typedef {import('../../model/findings-record.js').SwitchFinding} SwitchFinding
 * @typedef {import('../../model/findings-record.js').RecordedFindings} RecordedFindings
 * @typedef {import('../../model/own-app-record.js').OwnAppRecord} OwnAppRecord
 */

/**
 * What the check found in an app's record: the scan's lines judged by the answers, each route's own request and each
 * probe that answered differently, less the answers a shared cause explains (folded under it), and the defaults no
 * probe could show where every route failed.
 * @param {OwnAppRecord} record @returns {RecordedFindings}
 */
export function recordedFindings(record) {
  const scanned = codeFindings(record);
  const { rows: answerRows, brokenRoutes } = answerFindings(record, scanned);
  const codeRows = oneRowPerLine(scanned, answerRows);
  const unfolded = foldedUnderSharedCauses(answerRows, codeRows);
  const standing = foldedUnderMiddleware([...codeRows, ...unfolded]);
  const masked = maskedDefaults(record, answerRows);
  return { rows: [...standing, ...(masked ? [masked] : [])], brokenRoutes };
}

/**
 * Results written before the check recorded its findings, with them as a run records them now; the same results when
 * there is nothing to fill.
 * @template {{ ownApp?: OwnAppRecord }} R @param {R} results @returns {R}
 */
export function withRecordedFindings(results) {
  const { ownApp } = results;
  if (!ownApp || ownApp.findings) return results;
  return { ...results, ownApp: { ...ownApp, findings: recordedFindings(ownApp) } };
}

/**
 * The scan's findings, each judged by the answers recorded for its route.
 * @param {OwnAppRecord} record @returns {SwitchFinding[]}
 */
function codeFindings(record) {
  const routeOf = (/** @type {string | null} */ handler) => {
    const route = handler ? record.routes.find((r) => r.handler === handler) : undefined;
    return route ? routeLabel(route) : null;
  };
  return (record.scan?.findings ?? [])
    .map((f) => judgedByAnswers(f, record))
    .map((f) => ({
      kind: f.kind,
      source: /** @type {const} */ ('code'),
      what: f.rule,
      route: routeOf(f.handler),
      where: `${f.file}:${f.line}`,
      code: f.code,
      request: null,
      onFastify: f.onFastify,
      fix: f.fix,
      answers: null,
      place: `${f.file}:${f.line}`,
      ...sharedBy(f, record.routes),
    }));
}

/**
 * What a line reaches when it runs for many routes at once: a class registered for them (a global filter, a guard,
 * middleware given to consumer.apply), or middleware given to app.use, which runs for every route. Such a line is one
 * cause, ranked by the routes it reaches, where a line tied to no route would rank last.
 * @param {import('../../model/own-app-record.js').CodeFinding} finding
 * @param {import('../../model/own-app-record.js').RouteEntry[]} routes the app's
 * @returns {{ shared?: import('../../model/findings-record.js').SharedReach }}
 */
function sharedBy(finding, routes) {
  if (finding.shared) {
    const { role, registered } = finding.shared;
    return {
      shared: { role, registered, routes: routesReached(finding.shared, routes).length, symptoms: [], named: 0 },
    };
  }
  // @fastify/cors runs for every route, as middleware given to app.use does
  if (finding.rule.startsWith('app.use(') || finding.rule.endsWith(' origin from a value'))
    return {
      shared: {
        role: 'middleware',
        registered: `${finding.file}:${finding.line}`,
        routes: routes.length,
        symptoms: [],
        named: 0,
      },
    };
  return {};
}

/**
 * The answers a shared cause explains are its symptoms, folded under it, not rows of their own: a request Express
 * refused (a 400, a 409) that Fastify answered 500 because a global filter's `response.status(...).json` threw. Where
 * Express served the request (a trailing slash, capitals) or refused it by its body limit (413), what Fastify did
 * before the filter failed is a difference of its own, and its row stays.
 * @param {SwitchFinding[]} answerRows @param {SwitchFinding[]} codeRows
 * @returns {SwitchFinding[]} the rows no shared cause explains
 */
function foldedUnderSharedCauses(answerRows, codeRows) {
  const causes = codeRows.filter((f) => f.shared);
  if (!causes.length) return answerRows;
  return answerRows.filter((row) => {
    if (!row.answers) return true;
    const { express, fastify } = row.answers;
    const named = codeNamedBy(`${fastify.error ?? ''} ${fastify.body ?? ''}`, causes);
    for (const cause of named) if (cause.shared) cause.shared.named = (cause.shared.named ?? 0) + 1;
    // the status the comparison saw: a write's later send may have met another answer than its first (a renamed slug)
    const compared = Number(/^status (\d{3}) → /.exec(row.what)?.[1] ?? express.status ?? Number.NaN);
    const refused = compared >= 400 && compared < 500 && compared !== 413;
    if (!refused) return true;
    for (const cause of named)
      if (!cause.shared?.symptoms.some((s) => s.request === row.request && s.what === row.what))
        cause.shared?.symptoms.push({
          source: row.source === 'probe' ? 'probe' : 'request',
          route: row.route,
          what: row.what,
          request: row.request,
          express: Number.isNaN(compared) ? null : compared,
          fastify: fastify.status,
        });
    return named.length === 0;
  });
}

/** A request that carries a body. */
const WITH_BODY = /^(POST|PUT|PATCH|DELETE) /;
/** A line that reads the cookies cookie-parser set: @fastify/cookie sets them on Fastify's request too. */
const COOKIES_READ = /^[\w$]+\.cookies$/;

/**
 * What middleware given to app.use explains where no error names its code: a body parser, each request with a body
 * Fastify never answered; a CORS origin read from an empty value, every answer @fastify/cors failed; cookie-parser, the cookies a request sent that Fastify's handler did not see, and each line
 * reading them, which work once its fix (@fastify/cookie) is in. They are its symptoms, folded under it.
 * @param {SwitchFinding[]} rows the scan's rows, then the answers no other cause explains
 * @returns {SwitchFinding[]} the rows left standing
 */
function foldedUnderMiddleware(rows) {
  const causes = rows.filter((f) => f.shared?.role === 'middleware');
  return rows.filter((row) => {
    const cause = causes.find((c) => c !== row && explains(c, row));
    if (!cause?.shared) return true;
    cause.shared.symptoms.push({
      source: row.source === 'code' ? 'code' : row.source === 'probe' ? 'probe' : 'request',
      route: row.route,
      what: row.what,
      request: row.request,
      ...(row.source === 'code' ? { where: row.where } : {}),
      express: row.answers?.express.status ?? null,
      fastify: row.answers?.fastify.status ?? null,
    });
    return false;
  });
}

/** @param {SwitchFinding} cause middleware given to app.use, or a CORS origin @param {SwitchFinding} row */
function explains(cause, row) {
  if (cause.what.endsWith(' origin from a value') && row.answers)
    return `${row.answers.fastify.error ?? ''} ${row.answers.fastify.body ?? ''}`.includes(INVALID_CORS_ORIGIN);
  if (cause.onFastify === BODY_PARSER_IN_APP_USE.onFastify)
    return row.source !== 'code' && row.answers?.fastify.status === null && WITH_BODY.test(row.request ?? '');
  if (cause.what === 'app.use(cookie-parser)')
    return row.source === 'probe' ? row.what === 'cookies' : row.source === 'code' && COOKIES_READ.test(row.what);
  return false;
}

/**
 * What the answers showed: each route whose own request answers differently, and each probe statement.
 * @param {OwnAppRecord} record
 * @param {SwitchFinding[]} codeRows the scan's findings
 * @returns {{ rows: SwitchFinding[], brokenRoutes: string[] }}
 */
function answerFindings(record, codeRows) {
  const routedCode = new Set(codeRows.map((f) => f.route).filter(Boolean));
  /** @type {SwitchFinding[]} */
  const rows = [];
  const brokenRoutes = [];
  for (const found of record.compatibility.routes) {
    const entry = entryChecked(record, found);
    const route = entry ? routeLabel(entry) : null;
    if (!found.same && !found.contentTypeOnly) brokenRoutes.push(route ?? found.request);
    if (found.contentTypeOnly) rows.push(contentTypeRow(found, route));
    else if (!found.same && entry?.upload) rows.push(uploadRow(found, route, entry.upload));
    else if (!found.same) {
      const named = codeNamedBy(`${found.fastify.error ?? ''} ${found.fastify.body ?? ''}`, codeRows);
      const inCode = (route !== null && routedCode.has(route)) || named.length > 0;
      rows.push({
        kind: 'breaks',
        source: 'request',
        what: found.difference ?? 'answers differently',
        route,
        where: null,
        code: null,
        request: found.request,
        onFastify: found.fastify.error ?? `the route answers differently: ${found.difference}`,
        fix: named.length
          ? `the code its error names: ${named.map((f) => f.where).join(', ')}`
          : inCode
            ? 'the code found in its handler (rows above)'
            : OWN_REQUEST_FIX,
        answers: { express: found.express, fastify: found.fastify },
        // where the scan found the code, that line is the place; else the route is one of its own
        place: inCode ? `code of ${route}` : `route ${route ?? found.request}`,
      });
    }
    for (const probe of found.probes ?? []) {
      const statement = probeStatement(probe, record.scan?.installed ?? null);
      if (!statement) continue;
      rows.push({
        kind: statement.kind,
        source: 'probe',
        what: probe.probe,
        route,
        where: null,
        code: null,
        request: probe.request,
        onFastify: statement.onFastify,
        fix: probeFix(statement.fix, probe, codeRows),
        answers: { express: probe.express, fastify: probe.fastify },
        place: `probe ${probe.probe}`,
      });
    }
  }
  return { rows, brokenRoutes };
}

/**
 * A probe's fix; where Fastify failed with an error the scan's code names (an exception filter's
 * `response.status(...).json`, reached by whatever this request ended in), that line, as for a route's own request.
 * @param {string} fix the statement's @param {import('../check/compatibility.js').ProbeFinding} probe
 * @param {SwitchFinding[]} codeRows
 */
function probeFix(fix, probe, codeRows) {
  if (fix !== PROBE_CRASH_FIX) return fix;
  const named = codeNamedBy(`${probe.fastify.error ?? ''} ${probe.fastify.body ?? ''}`, codeRows);
  return named.length
    ? `the code its error names: ${named.map((f) => f.where).join(', ')}; once it is fixed, a run shows Fastify’s own answer to this request`
    : fix;
}

/**
 * A route whose answers differ only in their content type: it works on Fastify (and is timed); a client that reads the
 * type sees another one.
 * @param {import('../check/compatibility.js').RouteCompatibility} found @param {string | null} route
 * @returns {SwitchFinding}
 */
function contentTypeRow(found, route) {
  const expressType = contentTypeOf(found.express);
  return {
    kind: 'differs',
    source: 'request',
    what: 'content type',
    route,
    where: null,
    code: null,
    request: found.request,
    onFastify: `the same status (${found.express.status ?? 'none'}) and body, with content-type ${expressType} on Express and ${contentTypeOf(found.fastify)} on Fastify (a string is text/html on Express, text/plain on Fastify): only a client that reads the type sees it; the route is timed`,
    fix: `nothing, unless a client relies on the type: then set it on the handler, @Header('content-type', '${expressType}'), which both adapters send`,
    answers: { express: found.express, fastify: found.fastify },
    place: `route ${route ?? found.request}`,
  };
}

/**
 * Where every route already fails on Fastify, no probe can show where the adapters' defaults part: they are said as
 * not probed, with the options that match Express's, leaving out what the setup's adapter options already give.
 * @param {OwnAppRecord} record @param {SwitchFinding[]} answerRows
 * @returns {SwitchFinding | null}
 */
function maskedDefaults(record, answerRows) {
  const routes = record.compatibility.routes;
  if (
    routes.length === 0 ||
    routes.some((r) => r.same || r.contentTypeOnly) ||
    answerRows.some((r) => r.source === 'probe')
  )
    return null;
  const given = record.adapters?.fastify ?? '';
  const defaults = [
    [
      'ignoreTrailingSlash',
      'a path with a trailing slash reaches no route (Express ignores it)',
      'ignoreTrailingSlash: true',
    ],
    [
      'caseSensitive',
      'a path in capitals reaches no route (Express’s router is case-insensitive)',
      'caseSensitive: false',
    ],
    [
      'bodyLimit',
      'a JSON body over 100 KB is taken (its limit is 1 MiB, Express refuses it with 413)',
      'bodyLimit: 102400',
    ],
  ].filter(([option]) => !given.includes(option));
  if (defaults.length === 0) return null;
  const installed = record.scan?.installed ?? null;
  const router = defaults.filter(([option]) => option !== 'bodyLimit').map(([, , value]) => value);
  // routerOption gives `{ … }` in the app's Fastify's form: its inside joins the body limit
  const routerPart = router.length ? routerOption(installed, router.join(', ')).slice(2, -2) : null;
  const bodyPart = defaults.find(([option]) => option === 'bodyLimit')?.[2] ?? null;
  return {
    kind: 'differs',
    source: 'probe',
    what: 'not probed',
    route: null,
    where: null,
    code: null,
    request: routes[0].request,
    onFastify: `every route failed on Fastify before its probes could show more; where Fastify${installed?.fastify ? ` ${installed.fastify}` : ''}’s defaults part from Express’s: ${defaults.map(([, said]) => said).join('; ')}`,
    fix: `new FastifyAdapter({ ${[routerPart, bodyPart].filter(Boolean).join(', ')} })`,
    answers: null,
    place: 'probe not probed',
  };
}

/**
 * The scan's lines an error names: `request.header is not a function` names the scan's `request.header` (a helper's or
 * a middleware's, tied to no handler), `res.status(...).json is not a function` its `res.json`.
 * @param {string} answer what Fastify logged and answered (a filter that failed answers Nest's 500 with the message)
 * @param {SwitchFinding[]} codeRows
 */
function codeNamedBy(answer, codeRows) {
  const called = /([\w$]+)(?:\.[\w$]+\(\.\.\.\))*\.([\w$]+) is not a function/.exec(answer);
  if (!called) return [];
  const label = `${called[1]}.${called[2]}`;
  return codeRows.filter((f) => f.what === label || f.what.startsWith(`${label} `));
}

/**
 * The route a checked request went to, as registered (a route that differs has left the run, but keeps its request).
 * @param {OwnAppRecord} record
 * @param {import('../check/compatibility.js').RouteCompatibility} found
 */
function entryChecked(record, found) {
  const { scenario, request } = found;
  return record.routes.find((r) => r.scenario === scenario || r.checked === scenario || r.request === request) ?? null;
}

/**
 * A route that was sent a file and answered differently: what its answers say, at its file interceptor's line.
 * @param {import('../check/compatibility.js').RouteCompatibility} found @param {string | null} route
 * @param {import('../bodies/upload-form.js').UploadSent} upload
 * @returns {SwitchFinding}
 */
function uploadRow(found, route, upload) {
  const answers = { express: found.express, fastify: found.fastify };
  const stated = uploadDifference(answers, upload);
  return {
    kind: stated.kind,
    source: 'request',
    what: found.difference ?? 'answers differently',
    route,
    where: upload.where || null,
    code: upload.where ? upload.interceptor : null,
    request: found.request,
    onFastify: stated.onFastify,
    fix: stated.fix,
    answers,
    place: upload.where || `route ${route ?? found.request}`,
  };
}
