import { probeStatement } from '../../../../bench/own-app/check/probe-statements.js';
import type { AdapterAnswer, ProbeFinding } from '../../../../bench/own-app/check/compatibility.js';
import { NOTHING_INSTALLED } from '../../../../bench/own-app/launch/app-packages.js';

const answer = (status: number | null, extra: Partial<AdapterAnswer> = {}): AdapterAnswer => ({
  status,
  contentType: 'application/json',
  error: null,
  body: '{}',
  ...extra,
});
const probe = (name: string, express: AdapterAnswer, fastify: AdapterAnswer, extra: Partial<ProbeFinding> = {}) => ({
  probe: name,
  request: 'GET /x',
  difference: `status ${express.status} → ${fastify.status}`,
  express,
  fastify,
  ...extra,
});
const FASTIFY_5 = { ...NOTHING_INSTALLED, fastify: '5.1.0' };

describe('probeStatement: what a probe showed, from its answers', () => {
  it('names the content type and the plugin of a 415', () => {
    const form = probeStatement(probe('urlencoded', answer(201), answer(415)), FASTIFY_5);
    expect(form).toMatchObject({ kind: 'plugin' });
    expect(form?.onFastify).toContain('415 Unsupported Media Type to application/x-www-form-urlencoded');
    expect(form?.fix).toContain('@fastify/formbody');
    const upload = probeStatement(probe('multipart', answer(201), answer(415)), FASTIFY_5);
    expect(upload?.onFastify).toContain('multipart/form-data');
    expect(upload?.fix).toContain('@fastify/multipart');
  });

  it('never says 415 where Fastify answered the form 201 or 500', () => {
    const nested = probeStatement(
      probe('urlencoded', answer(201), answer(400, { refusal: 'reminder must be an object' }), {
        sent: 'title=a&reminder%5BinDays%5D=1',
      }),
      FASTIFY_5,
    );
    expect(nested?.onFastify).toMatch(/Express answered 201, Fastify 400 \(“reminder must be an object”\)/);
    expect(nested?.onFastify).toMatch(/querystring/);
    const crashed = probeStatement(
      probe('urlencoded', answer(201), answer(500, { error: 'TypeError: x' }), { sent: 'title=a' }),
      FASTIFY_5,
    );
    expect(crashed).toMatchObject({ kind: 'breaks' });
    expect(crashed?.onFastify).toBe('the body as a form: Express answered 201, Fastify 500 (TypeError: x)');
    for (const statement of [nested, crashed]) expect(statement?.onFastify).not.toMatch(/415/);
  });

  it('says Fastify did not read the cookies only where it answered without crashing', () => {
    const unread = probeStatement(
      probe('cookies', answer(200, { body: '{"theme":"dark"}' }), answer(200), { difference: 'body' }),
      FASTIFY_5,
    );
    expect(unread).toMatchObject({ kind: 'plugin', onFastify: expect.stringMatching(/Fastify did not read them/) });
    const crashed = probeStatement(
      probe('cookies', answer(403), answer(500, { error: 'TypeError: response.status(...).json is not a function' })),
      FASTIFY_5,
    );
    expect(crashed).toMatchObject({
      kind: 'breaks',
      onFastify:
        'the request with cookies: Express answered 403, Fastify 500 (TypeError: response.status(...).json is not a function)',
    });
  });

  it('reads a NotFoundException an exception filter answered as 500 as the router’s not found', () => {
    const filtered = probeStatement(
      probe('trailing slash', answer(200), answer(500, { error: 'NotFoundException: Cannot GET /api/' })),
      FASTIFY_5,
    );
    expect(filtered?.onFastify).toMatch(
      /Fastify 500 \(NotFoundException: Cannot GET \/api\/\): Fastify’s router matches/,
    );
    expect(filtered?.fix).toBe('new FastifyAdapter({ routerOptions: { ignoreTrailingSlash: true } })');
    const crashed = probeStatement(probe('other case', answer(200), answer(500, { error: 'TypeError: x' })), FASTIFY_5);
    expect(crashed?.fix).not.toMatch(/caseSensitive/);
  });

  it('says nothing of the path in capitals where both adapters answered one status, each with its own body', () => {
    // brocoders' GET /FILES/:PATH: Express's handler found no file (404), Fastify's router no route (404)
    const both404 = probe(
      'other case',
      answer(404, { body: '{"message":"File not found"}' }),
      answer(404, { body: '{"message":"Cannot GET /API/V1/FILES/X"}' }),
      { difference: 'body' },
    );
    expect(probeStatement(both404, FASTIFY_5)).toBeNull();
    expect(probeStatement(probe('other case', answer(200), answer(404)), FASTIFY_5)?.onFastify).toMatch(
      /Express answered 200, Fastify 404: Fastify’s router is case-sensitive/,
    );
  });

  it('says "not found" of a trailing slash only where Fastify answered 404', () => {
    const notFound = probeStatement(probe('trailing slash', answer(200), answer(404)), FASTIFY_5);
    expect(notFound?.onFastify).toMatch(/Express answered 200, Fastify 404/);
    expect(notFound?.fix).toBe('new FastifyAdapter({ routerOptions: { ignoreTrailingSlash: true } })');
    for (const status of [200, 400]) {
      const other = probeStatement(probe('trailing slash', answer(404), answer(status)), FASTIFY_5);
      expect(other?.onFastify).toBe(`the path with a trailing slash: Express answered 404, Fastify ${status}`);
      expect(other?.fix).not.toMatch(/ignoreTrailingSlash/);
    }
  });

  it('reads a trailing slash Fastify refused with a 400, where Express answered the route, as its exact router', () => {
    const emptyId = probeStatement(
      probe('trailing slash', answer(200), answer(400, { refusal: 'Validation failed (uuid is expected)' })),
      FASTIFY_5,
    );
    expect(emptyId).toMatchObject({
      kind: 'differs',
      onFastify:
        'with a trailing slash Express answered 200, Fastify 400 (“Validation failed (uuid is expected)”): Fastify’s router matches the path exactly (the slash took it to another route: an empty parameter), Express ignores a trailing slash',
      fix: 'new FastifyAdapter({ routerOptions: { ignoreTrailingSlash: true } })',
    });
  });

  it('reads a 110 KB body Express refused as PayloadTooLargeError, whatever status its exception filter gave it', () => {
    const filtered = probeStatement(
      probe('body over 100 KB', answer(500, { error: 'PayloadTooLargeError: request entity too large' }), answer(200)),
      FASTIFY_5,
    );
    expect(filtered).toMatchObject({
      kind: 'differs',
      onFastify: expect.stringMatching(
        /^Express refused a 110 KB JSON body \(500 \(PayloadTooLargeError: request entity too large\): its body parser’s 413 as the app’s exception filter answers it, over its 100 KB limit\); Fastify took it \(limit 1 MiB\) and answered 200$/,
      ),
      fix: expect.stringContaining('bodyLimit: 102400'),
    });
    const plain = probeStatement(probe('body over 100 KB', answer(413), answer(201)), FASTIFY_5);
    expect(plain?.onFastify).toMatch(/^Express refused a 110 KB JSON body \(413, over its 100 KB limit\)/);
    const both = probeStatement(
      probe('body over 100 KB', answer(500, { error: 'PayloadTooLargeError: request entity too large' }), answer(413)),
      FASTIFY_5,
    );
    expect(both?.fix).not.toMatch(/bodyLimit/);
  });

  it('reads a trailing slash Fastify answered with another body, where Express answered the route, as another route', () => {
    // brocoders: GET /api/v1/users/ is GET /api/v1/users/:id with an empty id on Fastify, 200 and null
    const other = probeStatement(
      probe('trailing slash', answer(200, { body: '{"data":[]}' }), answer(200, { body: 'null' }), {
        difference: 'body',
      }),
      FASTIFY_5,
    );
    expect(other).toMatchObject({
      kind: 'differs',
      onFastify:
        'with a trailing slash Express answered 200, Fastify 200: Fastify’s router matches the path exactly (the slash took it to another route: an empty parameter), Express ignores a trailing slash',
      fix: 'new FastifyAdapter({ routerOptions: { ignoreTrailingSlash: true } })',
    });
  });

  it('gives Fastify 4 its router option at the top level', () => {
    const slash = probeStatement(probe('trailing slash', answer(200), answer(404)), {
      ...NOTHING_INSTALLED,
      fastify: '4.28.1',
    });
    expect(slash?.fix).toBe('new FastifyAdapter({ ignoreTrailingSlash: true })');
  });

  it('reads a preflight’s allowed methods: PATCH refused on Fastify breaks, a method both allow is no finding', () => {
    const cors = (methods: string) =>
      answer(204, {
        headers: { 'access-control-allow-origin': 'https://a.example', 'access-control-allow-methods': methods },
      });
    const patch = probe('preflight', cors('GET,HEAD,PUT,PATCH,POST,DELETE'), cors('GET,HEAD,POST'), {
      asks: 'PATCH',
    });
    const refused = probeStatement(patch, FASTIFY_5);
    expect(refused).toMatchObject({ kind: 'breaks' });
    expect(refused?.onFastify).toContain('Fastify 204, methods GET,HEAD,POST, origin https://a.example');
    expect(refused?.fix).toContain("methods: 'GET,HEAD,PUT,PATCH,POST,DELETE'");
    expect(probeStatement({ ...patch, asks: 'GET' }, FASTIFY_5)).toBeNull();
  });

  it('says so when neither adapter allows the cross-origin request', () => {
    const options = probe('preflight', answer(200), answer(404), { asks: 'GET' });
    const statement = probeStatement(options, FASTIFY_5);
    expect(statement).toMatchObject({ kind: 'differs' });
    expect(statement?.onFastify).toMatch(/Express answered 200 without CORS headers; Fastify 404 without CORS headers/);
  });

  it('says nothing of a preflight whose origin both refuse alike and whose method both allow', () => {
    // brocoders' GET routes: the probe's origin is not the app's; both list GET, only the other methods differ
    const methods = (list: string) => answer(204, { headers: { 'access-control-allow-methods': list } });
    const get = probe('preflight', methods('GET,HEAD,PUT,PATCH,POST,DELETE'), methods('GET,HEAD,POST'), {
      asks: 'GET',
    });
    expect(probeStatement(get, FASTIFY_5)).toBeNull();
    const patch = probe('preflight', methods('GET,HEAD,PUT,PATCH,POST,DELETE'), methods('GET,HEAD,POST'), {
      asks: 'PATCH',
    });
    expect(probeStatement(patch, FASTIFY_5)).toMatchObject({ kind: 'differs' });
  });

  it('states an answer no rule explains as it was, with both statuses', () => {
    const head = probeStatement(probe('HEAD', answer(404), answer(200)), FASTIFY_5);
    expect(head).toMatchObject({ kind: 'differs', onFastify: 'HEAD: Express answered 404, Fastify 200' });
  });
});
