// @ts-check
// Whether two answers to one request are the same: what differs between Express's and Fastify's (status, the headers
// middleware leaves, content type, body, cookies set), what the report keeps of each, and what a 4xx answer said.
// Sending the requests is check-run.js's job.
import { isDeepStrictEqual } from 'node:util';
import { holdsSignedToken } from '../sign-in/principal-values.js';

/** An answer's body is kept to this many characters: enough to read a lost field or an error's message. */
export const MAX_BODY_CHARS = 300;

/**
 * @typedef {import('../../model/own-app-record.js').AdapterAnswer} AdapterAnswer
 * @typedef {import('../../model/own-app-record.js').ProbeFinding} ProbeFinding
 * @typedef {import('../../model/own-app-record.js').RouteCompatibility} RouteCompatibility
 * @typedef {import('../../model/own-app-record.js').ServerEnd} ServerEnd
 * @typedef {import('../../model/own-app-record.js').Compatibility} Compatibility
 */

/**
 * @typedef {{ status: number | null, contentType: string | null, body: string, error: string | null,
 *   setCookies: string[], headers?: Record<string, string> }} Answer
 */

/**
 * What differs between two answers to one request, in words, or null.
 * @param {Answer} express @param {Answer} fastify
 * @param {{ bodies: boolean, cookies: boolean, headers?: string[] }} compared bodies: the route's body is the same
 *   on every request; headers: compared by value
 */
export function answerDifference(express, fastify, { bodies, cookies, headers = [] }) {
  if (express.status !== fastify.status) return `status ${express.status ?? 'none'} → ${fastify.status ?? 'none'}`;
  for (const name of headers)
    if ((express.headers?.[name] ?? null) !== (fastify.headers?.[name] ?? null))
      return `${name} ${express.headers?.[name] ?? 'none'} → ${fastify.headers?.[name] ?? 'none'}`;
  if (express.contentType !== fastify.contentType)
    return `content type ${contentTypeOf(express)} → ${contentTypeOf(fastify)}`;
  if (bodies && !isDeepStrictEqual(parsed(express.body), parsed(fastify.body))) return 'body';
  if (cookies && express.setCookies.join() !== fastify.setCookies.join())
    return `cookies set: ${express.setCookies.join(', ') || 'none'} → ${fastify.setCookies.join(', ') || 'none'}`;
  return null;
}

/** The content-type header as sent (its charset too), else the media type. @param {AdapterAnswer} answer */
export function contentTypeOf(answer) {
  return answer.headers?.['content-type'] ?? answer.contentType ?? 'none';
}

/** @param {Answer} answer what the report keeps of an answer */
export function kept(answer) {
  return {
    status: answer.status,
    contentType: answer.contentType,
    error: answer.error,
    refusal: refusal(answer),
    body: answer.body.length > MAX_BODY_CHARS ? `${answer.body.slice(0, MAX_BODY_CHARS)}…` : answer.body,
    ...(answer.setCookies.length ? { setCookies: answer.setCookies } : {}),
    ...(answer.headers && Object.keys(answer.headers).length ? { headers: answer.headers } : {}),
  };
}

/** @param {Answer} answer what a 4xx answer said, else null */
function refusal(answer) {
  return answer.status !== null && answer.status >= 400 && answer.status < 500 ? refusalMessage(answer.body) : null;
}

/** A refusal's message is cut here: the table shows the first reasons, the app's log has the rest. */
const MAX_REFUSAL_CHARS = 200;

/**
 * What a 4xx answer says, as Nest's exceptions and validation pipes put it: `message` (a string or ValidationPipe's
 * list), `error`, or an `errors` object; else the body's start.
 * @param {string} body
 */
export function refusalMessage(body) {
  const { json, value } = parsed(body);
  /** @type {unknown} */
  let said = value;
  if (json && value && typeof value === 'object') {
    const record = /** @type {Record<string, unknown>} */ (value);
    const parts = [record.message, record.errors, record.error].filter((part) => part !== undefined);
    said = parts.length
      ? parts
          .flatMap(reasons)
          .filter((reason, i, all) => all.indexOf(reason) === i)
          .join('; ')
      : value;
  }
  const text = typeof said === 'string' ? said : JSON.stringify(said);
  return text.length > MAX_REFUSAL_CHARS ? `${text.slice(0, MAX_REFUSAL_CHARS)}…` : text;
}

/**
 * The reasons in one part of a refusal: a string, ValidationPipe's list, or an object of them by field.
 * @param {unknown} part @returns {string[]}
 */
function reasons(part) {
  if (typeof part === 'string') return [part];
  if (Array.isArray(part)) return part.flatMap(reasons);
  if (part && typeof part === 'object') return Object.values(part).flatMap(reasons);
  return [JSON.stringify(part)];
}

/** @param {string} body */
function parsed(body) {
  try {
    return { json: true, value: JSON.parse(body) };
  } catch {
    return { json: false, value: body };
  }
}

/**
 * @param {string} scenario @param {string} request
 * @param {Answer} express @param {Answer} fastify @param {Answer} again Express a second time
 * @returns {RouteCompatibility}
 */
export function compare(scenario, request, express, fastify, again) {
  const changed = answeredOtherwise(express, again);
  // a content type alone is no difference here either (a string's text/html on Express, text/plain on Fastify)
  if (
    changed &&
    !answerDifference(again, { ...fastify, contentType: again.contentType }, { bodies: false, cookies: false })
  )
    return {
      scenario,
      request,
      same: true,
      difference: null,
      express: kept(express),
      fastify: kept(fastify),
      bodyVaries: true,
      expect: null,
      notMeasured: `its first request changed what it answers: ${express.status ?? 'nothing'} on Express, then ${fastify.status ?? 'nothing'} on Fastify and ${again.status ?? 'nothing'} on Express again${again.error ? ` (${again.error})` : refusal(again) ? `: ${refusal(again)}` : ''}, so Fastify answered as Express does now; a write that renames or removes what its path names (the path's id made from a field it sets) needs a --body that keeps it, or a --config scenario`,
    };
  const expressBody = parsed(express.body);
  // a token signed for each request (its iat) varies even where two answers fell in one second
  const bodyVaries = !isDeepStrictEqual(expressBody, parsed(again.body)) || holdsSignedToken(expressBody.value);
  const compared = { bodies: !bodyVaries, cookies: !changed };
  // after a change, Fastify (asked between them) is held to Express's second answer
  const held = changed ? again : express;
  const difference = answerDifference(held, fastify, compared);
  // Express's res.send(string) says text/html where Fastify says text/plain: the same answer, another label
  const contentTypeOnly =
    difference !== null &&
    held.contentType !== fastify.contentType &&
    answerDifference(held, { ...fastify, contentType: held.contentType }, compared) === null;
  const alike = difference === null || contentTypeOnly;
  const ok = express.status !== null && express.status < 400;
  const notMeasured =
    alike && !ok
      ? `answers ${express.status ?? 'nothing'} on both adapters${express.error ? ` (${express.error})` : ''}${refusal(express) ? `: ${refusal(express)}` : ''}; give it other --params, a --body, or a --config scenario with what it needs`
      : null;
  return {
    scenario,
    request,
    same: difference === null,
    difference,
    ...(contentTypeOnly ? { contentTypeOnly: /** @type {const} */ (true) } : {}),
    express: kept(express),
    fastify: kept(fastify),
    bodyVaries,
    expect:
      alike && ok
        ? {
            status: /** @type {number} */ (express.status),
            contentType: contentTypeOnly ? null : express.contentType,
            // a JSON string is checked as the bytes it was sent as
            body: bodyVaries
              ? undefined
              : expressBody.json && typeof expressBody.value !== 'string'
                ? expressBody.value
                : express.body,
          }
        : null,
    notMeasured,
  };
}

/**
 * Express answered one request twice with another status: the first changed what the route answers (a write that
 * renamed or removed what its path names), so Fastify, asked between them, is held to Express's second answer.
 * @param {Answer} first @param {Answer} again
 */
function answeredOtherwise(first, again) {
  return first.status !== null && again.status !== null && first.status !== again.status;
}
