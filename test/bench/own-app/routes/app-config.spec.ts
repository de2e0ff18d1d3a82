import { planOwnApp, trafficMix } from '../../../../bench/own-app/routes/app-config.js';
import { compare } from '../../../../bench/own-app/check/compatibility.js';
import { routeLines } from '../../../../bench/own-app/routes/discover.js';
import { fillPath, routeMatcher } from '../../../../bench/own-app/routes/route-match.js';

const route = (method: string, path: string, handler = 'C.m') => ({ method, path, handler, version: null });
const ROUTES = [
  route('GET', '/api/users', 'Users.list'),
  route('GET', '/api/users/me', 'Users.me'),
  route('GET', '/api/users/:id', 'Users.one'),
  route('GET', '/api/users/:id/card', 'Users.card'),
  route('POST', '/api/users', 'Users.create'),
  route('GET', '/files/*path', 'Files.get'),
];
const requests = (...lines: string[]) => lines.map((line) => ({ method: line.split(' ')[0], url: line.split(' ')[1] }));

describe('routeMatcher', () => {
  const match = routeMatcher(ROUTES);

  it('matches a path parameter and returns its value', () => {
    expect(match({ method: 'GET', url: '/api/users/7' })).toMatchObject({
      route: { path: '/api/users/:id' },
      params: { id: '7' },
    });
  });

  it('takes the first registered route that matches, as Express does', () => {
    expect(match({ method: 'GET', url: '/api/users/me' })?.route.handler).toBe('Users.me');
  });

  it('ignores the query string and a trailing slash', () => {
    expect(match({ method: 'GET', url: '/api/users/?limit=5' })?.route.handler).toBe('Users.list');
  });

  it('sends HEAD to the GET route and keeps other methods apart', () => {
    expect(match({ method: 'HEAD', url: '/api/users' })?.route.handler).toBe('Users.list');
    expect(match({ method: 'POST', url: '/api/users' })?.route.handler).toBe('Users.create');
    expect(match({ method: 'DELETE', url: '/api/users/7' })).toBeNull();
  });

  it('matches a wildcard across segments', () => {
    expect(match({ method: 'GET', url: '/files/a/b.txt' })?.params).toEqual({ path: ['a', 'b.txt'] });
  });

  it('matches nothing for a path no route has', () => {
    expect(match({ method: 'GET', url: '/favicon.ico' })).toBeNull();
  });
});

describe('fillPath', () => {
  it('fills the parameters of a route', () => {
    expect(fillPath(ROUTES[3], { id: '7' })).toEqual({ path: '/api/users/7/card' });
  });

  it('fills a wildcard from a --params value with slashes', () => {
    expect(fillPath(ROUTES[5], { path: 'docs/intro.md' })).toEqual({ path: '/files/docs/intro.md' });
  });

  it('names the parameters that have no value', () => {
    expect(fillPath(ROUTES[3], {})).toEqual({ missing: ['id'] });
  });
});

describe('routeLines', () => {
  it('prints one route a line, with the version where the path does not carry it', () => {
    expect(
      routeLines({
        routes: [route('GET', '/api/users'), { ...route('GET', '/api/items'), version: '2' }],
        versioning: { type: 'header', header: 'X-Version', key: null },
      }),
    ).toEqual(['GET /api/users', 'GET /api/items (version 2)']);
  });
});

describe('planOwnApp', () => {
  const traffic = {
    requests: requests(
      'GET /api/users/3',
      'GET /api/users/3',
      'GET /api/users/9',
      'GET /api/users?limit=5',
      'POST /api/users',
      'GET /robots.txt',
    ),
    unreadable: 2,
    formats: { json: 6, clf: 0 },
  };
  const plan = (params: Record<string, string> = {}, configScenarios: Record<string, unknown>[] = []) =>
    planOwnApp({
      discovered: { routes: ROUTES, versioning: null },
      params,
      traffic,
      trafficFile: 'requests.log',
      configScenarios,
    });
  const entry = (p: ReturnType<typeof plan>, handler: string) => p.routes.find((r) => r.handler === handler);

  it('measures a route with its most frequent logged request, query kept', () => {
    expect(entry(plan(), 'Users.one')?.request).toBe('GET /api/users/3');
    expect(entry(plan(), 'Users.list')?.request).toBe('GET /api/users?limit=5');
  });

  it('puts --params values in place of the logged ones', () => {
    expect(entry(plan({ id: '7' }), 'Users.one')?.request).toBe('GET /api/users/7');
  });

  it('lists a GET route with a parameter and no value as not measured, saying how to give one', () => {
    expect(entry(plan(), 'Users.card')).toMatchObject({
      scenario: null,
      notMeasured: expect.stringContaining('--params id=VALUE'),
    });
  });

  it('measures a write whose handler reads no body without one, named for its method', () => {
    expect(entry(plan(), 'Users.create')).toMatchObject({
      scenario: 'post-api-users',
      body: 'none',
      notMeasured: null,
    });
    expect(plan().scenarios.find((s) => s.name === 'post-api-users')).not.toHaveProperty('body');
  });

  it('sends a route whose handler has a file interceptor a form with the file and the body’s fields', () => {
    const upload = {
      fields: [{ field: 'avatar', count: 1 }],
      filename: 'photo.gif',
      type: 'image/gif',
      bytes: 4096,
      interceptor: "FileInterceptor('avatar')",
      where: 'src/users.controller.ts:12',
    };
    const withBody = ROUTES.map((r) =>
      r.handler === 'Users.create'
        ? {
            ...r,
            body: { sources: ['class-validator'], schema: { type: 'object' as const, properties: { name: {} } } },
          }
        : r,
    );
    const p = planOwnApp({
      discovered: { routes: withBody, versioning: null },
      params: {},
      traffic: null,
      trafficFile: null,
      configScenarios: [],
      headers: { authorization: 'Bearer t' },
      uploads: new Map([['Users.create', upload]]),
    });
    expect(entry(p, 'Users.create')).toMatchObject({ scenario: 'post-api-users', body: 'derived', upload });
    const sent = p.scenarios.find((s) => s.name === 'post-api-users') as {
      headers: Record<string, string>;
      body: string;
    };
    expect(sent.headers).toEqual({
      authorization: 'Bearer t',
      'content-type': expect.stringMatching(/^multipart\/form-data; boundary=/),
    });
    expect(sent.body).toMatch(/name="name"\r\n\r\nname\{\{unique\}\}/);
    expect(sent.body).toContain('name="avatar"; filename="photo.gif"\r\nContent-Type: image/gif');
  });

  it('lets a --config scenario stand in for the route it requests', () => {
    const p = plan({}, [{ name: 'create-user', method: 'POST', path: '/api/users', body: { name: 'a' } }]);
    expect(entry(p, 'Users.create')).toMatchObject({ scenario: 'create-user', notMeasured: null });
    expect(p.scenarios.map((s) => s.name)).toContain('create-user');
  });

  it('sends a --config scenario with authenticate()’s headers, as every discovered route, its own winning', () => {
    const signed = planOwnApp({
      discovered: { routes: ROUTES, versioning: null },
      params: {},
      traffic,
      trafficFile: 'requests.log',
      configScenarios: [
        { name: 'graphql', method: 'POST', path: '/graphql', body: { query: '{ me { id } }' } },
        { name: 'as-guest', path: '/api/users', headers: { Authorization: 'Bearer guest' } },
        { name: 'both', mix: [{ scenario: 'graphql', weight: 1 }] },
      ],
      headers: { authorization: 'Bearer signed-in', 'x-tenant': 't1' },
    });
    const named = (name: string) => signed.scenarios.find((s) => s.name === name);
    expect(named('graphql')?.headers).toEqual({ authorization: 'Bearer signed-in', 'x-tenant': 't1' });
    expect(named('as-guest')?.headers).toEqual({ 'x-tenant': 't1', Authorization: 'Bearer guest' });
    expect(named('both')).not.toHaveProperty('headers');
  });

  it('counts the matched, unmatched and unreadable parts of the log', () => {
    expect(plan().traffic).toEqual({
      file: 'requests.log',
      requests: 6,
      matched: 5,
      unmatched: 1,
      unreadable: 2,
    });
  });

  it('weights the traffic mix by the logged requests of the measured routes, writes included', () => {
    expect(trafficMix(plan().routes)).toMatchObject({
      name: 'traffic',
      mix: [
        { scenario: 'api-users', weight: 200 },
        { scenario: 'api-users-id', weight: 600 },
        { scenario: 'post-api-users', weight: 200 },
      ],
    });
  });
});

describe('compare (one route on both adapters)', () => {
  const answer = (status: number | null, body = '{"ok":true}', error: string | null = null) => ({
    status,
    contentType: 'application/json',
    body,
    error,
    setCookies: [] as string[],
  });

  it("reports a status that changes, with Fastify's error", () => {
    const result = compare(
      'card',
      'GET /card',
      answer(200),
      answer(500, '{}', 'TypeError: res.json is not a function'),
      answer(200),
    );
    expect(result).toMatchObject({ same: false, difference: 'status 200 → 500', expect: null });
    expect(result.fastify.error).toBe('TypeError: res.json is not a function');
  });

  it('reports a body that differs when Express answers the same twice', () => {
    expect(
      compare('r', 'GET /r', answer(200, '{"a":1}'), answer(200, '{"a":2}'), answer(200, '{"a":1}')),
    ).toMatchObject({ same: false, difference: 'body' });
  });

  it('does not compare bodies that change from one request to the next, and expects none', () => {
    const result = compare('r', 'GET /r', answer(200, '{"t":1}'), answer(200, '{"t":2}'), answer(200, '{"t":3}'));
    expect(result).toMatchObject({ same: true, bodyVaries: true });
    expect(result.expect).toEqual({ status: 200, contentType: 'application/json', body: undefined });
  });

  it("expects Express's answer of a route that answers alike", () => {
    expect(compare('r', 'GET /r', answer(200), answer(200), answer(200)).expect).toEqual({
      status: 200,
      contentType: 'application/json',
      body: { ok: true },
    });
  });

  it('does not measure a route that fails alike on both adapters, and says what it needs', () => {
    const result = compare('r', 'GET /r', answer(403), answer(403), answer(403));
    expect(result).toMatchObject({ same: true, expect: null });
    expect(result.notMeasured).toMatch(/answers 403 on both adapters.*--config/);
  });

  it('is no difference of Fastify’s where the first request changed what the route answers (a PUT that renamed its article)', () => {
    const gone = '{"statusCode":403,"message":"You do not have permission to update this article"}';
    const result = compare('put', 'PUT /api/articles/how-to-x1', answer(200), answer(403, gone), answer(403, gone));
    expect(result).toMatchObject({ same: true, difference: null, expect: null });
    expect(result.notMeasured).toMatch(
      /^its first request changed what it answers: 200 on Express, then 403 on Fastify and 403 on Express again: You do not have permission to update this article, so Fastify answered as Express does now/,
    );
  });

  it('holds Fastify to Express’s answer after the change, when it answers otherwise still', () => {
    const result = compare('put', 'PUT /p', answer(200), answer(500, '{}', 'TypeError: x'), answer(403));
    expect(result).toMatchObject({ same: false, difference: 'status 403 → 500', expect: null });
  });
});

describe('planOwnApp: a DELETE of what its path names', () => {
  const plan = (routes: ReturnType<typeof route>[]) =>
    planOwnApp({
      discovered: { routes, versioning: null },
      params: { id: '7' },
      traffic: null,
      trafficFile: null,
      configScenarios: [],
    }).routes.find((r) => r.method === 'DELETE');

  it('is not timed: a run lasts a time, so it would need one made per request and would time 404s once they ran out', () => {
    const entry = plan([
      route('POST', '/api/roles', 'Roles.create'),
      route('DELETE', '/api/roles/:id', 'Roles.remove'),
    ]);
    expect(entry).toMatchObject({ scenario: null });
    expect(entry?.notMeasured).toMatch(
      /^deletes what :id names, so only its first request finds it: a timed run lasts a time, not a count of requests, so timing it would need one made for each request of its warm-up and rounds \(POST \/api\/roles makes them\), and a run that outran them would time 404s as its answers; give a --config scenario for a DELETE that can repeat/,
    );
  });

  it('names no create route where the app has none', () => {
    expect(plan([route('DELETE', '/api/roles/:id', 'Roles.remove')])?.notMeasured).not.toContain('makes them');
  });
});
