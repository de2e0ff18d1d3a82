import { repeatsOwnFailure } from '../../../bench/own-app/compatibility.js';

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
