import { compare } from '../../../../bench/own-app/check/compatibility.js';
import { repeatsOwnFailure } from '../../../../bench/own-app/check/probe-repeats.js';

const onFastify = (status: number | null, error: string | null = null) => ({ status, error });

describe('repeatsOwnFailure: a probe that shows only the route’s own failure again', () => {
  it('is the same 5xx with the same logged error, whatever Express answered the probe', () => {
    const own = onFastify(500, 'TypeError: request.header is not a function');
    // a preflight: Express 204 beside the route's 200, Fastify the route's own 500
    expect(repeatsOwnFailure(own, onFastify(500, 'TypeError: request.header is not a function'))).toBe(true);
  });

  it('is the 415 the route’s own content type got, sent again by a probe that keeps it', () => {
    // project_5's upload: multipart on Fastify without a parser is 415, and so is the cookie probe's multipart
    const own = onFastify(415, 'FastifyError: Unsupported Media Type: multipart/form-data; boundary=a');
    const probe = onFastify(415, 'FastifyError: Unsupported Media Type: multipart/form-data; boundary=b');
    expect(repeatsOwnFailure(own, probe, true)).toBe(true);
    // a form probe of a JSON route that Fastify refused is a finding of its own (@fastify/formbody)
    expect(repeatsOwnFailure(own, probe, false)).toBe(false);
    expect(repeatsOwnFailure(onFastify(201), probe, true)).toBe(false);
  });

  it('is not another error, another status, or a route that answered', () => {
    const own = onFastify(500, 'TypeError: request.header is not a function');
    expect(repeatsOwnFailure(own, onFastify(500, 'TypeError: res.json is not a function'))).toBe(false);
    expect(repeatsOwnFailure(own, onFastify(404))).toBe(false);
    expect(repeatsOwnFailure(onFastify(200), onFastify(200))).toBe(false);
    expect(repeatsOwnFailure(onFastify(null, 'socket hang up'), onFastify(null, 'socket hang up'))).toBe(false);
  });
});

/** A string handler's answer: Express's res.send calls it text/html, Fastify's reply text/plain. */
const stringAnswer = (contentType: string, body = 'Hello World!') => ({
  status: 200,
  contentType: contentType.split(';')[0],
  body,
  error: null,
  setCookies: [],
  headers: { 'content-type': contentType },
});

describe('compare: a route whose answers differ only in their content type', () => {
  const express = stringAnswer('text/html; charset=utf-8');
  const fastify = stringAnswer('text/plain; charset=utf-8');

  it('names both header values, and holds the route to Express’s status and body, not its type', () => {
    const found = compare('api', 'GET /api', express, fastify, express);
    expect(found).toMatchObject({
      same: false,
      contentTypeOnly: true,
      difference: 'content type text/html; charset=utf-8 → text/plain; charset=utf-8',
      expect: { status: 200, contentType: null, body: 'Hello World!' },
      notMeasured: null,
    });
  });

  it('is not content-type-only where the body differs too', () => {
    const found = compare('api', 'GET /api', express, stringAnswer('text/plain; charset=utf-8', 'Bye'), express);
    expect(found.contentTypeOnly).toBeUndefined();
    expect(found.expect).toBeNull();
  });
});

describe('compare: a route that answers a token signed for each request', () => {
  const token = (iat: number) =>
    ['{"alg":"HS256"}', JSON.stringify({ sub: 'u1', iat }), 'signature']
      .map((part) => Buffer.from(part).toString('base64url'))
      .join('.');
  const signIn = (iat: number) => ({
    ...stringAnswer('application/json; charset=utf-8', JSON.stringify({ token: token(iat) })),
    contentType: 'application/json',
  });

  it('varies, though Express’s two answers fell in one second, so Fastify’s later token is no difference', () => {
    const express = signIn(1_795_784_039);
    const found = compare('login', 'POST /login', express, signIn(1_795_784_040), express);
    expect(found.bodyVaries).toBe(true);
    expect(found.same).toBe(true);
  });

  it('does not vary for a string that only looks like a token, without the time it was signed', () => {
    const plain = (sub: string) => ({
      ...stringAnswer('application/json; charset=utf-8', JSON.stringify({ id: `${sub}.x.y` })),
      contentType: 'application/json',
    });
    expect(compare('item', 'GET /item', plain('a'), plain('a'), plain('a')).bodyVaries).toBe(false);
  });
});
