import { compare, repeatsOwnFailure } from '../../../bench/own-app/compatibility.js';

const onFastify = (status: number | null, error: string | null = null) => ({ status, error });

describe('repeatsOwnFailure: a probe that shows only the route’s own failure again', () => {
  it('is the same 5xx with the same logged error, whatever Express answered the probe', () => {
    const own = onFastify(500, 'TypeError: request.header is not a function');
    // a preflight: Express 204 beside the route's 200, Fastify the route's own 500
    expect(repeatsOwnFailure(own, onFastify(500, 'TypeError: request.header is not a function'))).toBe(true);
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
