import { formEncoded, probesFor } from '../../../../bench/own-app/check/probes.js';

const get = { method: 'GET', path: '/api/users/7?limit=20', headers: { authorization: 'Bearer t' }, body: undefined };
const post = {
  method: 'POST',
  path: '/api/notes',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ title: 'title{{unique}}', priority: 1, reminder: { inDays: 1 } }),
};

describe('probesFor (the requests beyond a route’s own)', () => {
  it('sends a GET with a trailing slash and in capitals, the query kept, then HEAD, a preflight and cookies', () => {
    const probes = probesFor(get);
    expect(probes.map((p) => `${p.name}: ${p.request.method} ${p.request.path}`)).toEqual([
      'trailing slash: GET /api/users/7/?limit=20',
      'other case: GET /API/USERS/7?limit=20',
      'HEAD: HEAD /api/users/7?limit=20',
      'preflight: OPTIONS /api/users/7?limit=20',
      'cookies: GET /api/users/7?limit=20',
    ]);
    expect(probes.find((p) => p.name === 'cookies')?.request.headers).toEqual({
      authorization: 'Bearer t',
      cookie: 'session=probe',
    });
    expect(probes.filter((p) => p.statusOnly).map((p) => p.name)).toEqual(['HEAD', 'preflight']);
  });

  it('sends the preflight a browser sends before the route’s own request, from an origin the app allows', () => {
    const patch = { ...post, method: 'PATCH', headers: { ...post.headers, authorization: 'Bearer t' } };
    const preflight = probesFor(patch, { origin: 'https://shop.example' }).find((p) => p.name === 'preflight');
    expect(preflight?.request).toMatchObject({ method: 'OPTIONS', body: undefined });
    expect(preflight?.request.headers).toEqual({
      origin: 'https://shop.example',
      'access-control-request-method': 'PATCH',
      'access-control-request-headers': 'authorization,content-type',
    });
    expect(preflight?.asks).toBe('PATCH');
    expect(preflight?.headers).toEqual(['access-control-allow-origin', 'access-control-allow-methods']);
  });

  it('sends a JSON write over Express’s 100 KB limit and under Fastify’s 1 MiB, its first text field grown', () => {
    const large = probesFor(post).find((p) => p.name === 'body over 100 KB');
    const bytes = Buffer.byteLength(large?.request.body ?? '');
    expect(bytes).toBeGreaterThan(100 * 1024);
    expect(bytes).toBeLessThan(1024 * 1024);
    const body = JSON.parse(large?.request.body ?? '{}');
    expect(body.title.startsWith('title{{unique}}x')).toBe(true);
    expect(body.priority).toBe(1);
  });

  it('grows a PATCH or PUT by a field of its own, the values it sends kept (they were the account’s own name)', () => {
    for (const method of ['PATCH', 'PUT']) {
      const large = probesFor({ ...post, method }).find((p) => p.name === 'body over 100 KB');
      expect(Buffer.byteLength(large?.request.body ?? '')).toBeGreaterThan(100 * 1024);
      const { padding, ...sent } = JSON.parse(large?.request.body ?? '{}');
      expect(sent).toEqual({ title: 'title{{unique}}', priority: 1, reminder: { inDays: 1 } });
      expect(padding).toMatch(/^x+$/);
    }
  });

  it('sends the same body as a form, nested fields as Express’s extended parser reads them', () => {
    const form = probesFor(post).find((p) => p.name === 'urlencoded');
    expect(form?.request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(form?.request.body).toBe('title=title{{unique}}&priority=1&reminder%5BinDays%5D=1');
  });

  it('sends a route its own multipart form again only as its path probes: no body probe for a body that is no JSON', () => {
    const upload = { ...post, headers: { 'content-type': 'multipart/form-data; boundary=b' }, body: '--b--\r\n' };
    expect(probesFor(upload).map((p) => p.name)).toEqual(['trailing slash', 'other case', 'preflight', 'cookies']);
    expect(probesFor(upload)[0].request.body).toBe('--b--\r\n');
  });

  it('sends no body probes to a route without a JSON body', () => {
    expect(probesFor(get).map((p) => p.name)).not.toContain('urlencoded');
  });

  it('sends the cookies the app’s code reads or sets', () => {
    const probe = probesFor(get, { cookies: ['theme', 'lastVisit'] }).find((p) => p.name === 'cookies');
    expect(probe?.request.headers.cookie).toBe('theme=probe; lastVisit=probe');
  });

  it('encodes lists by index', () => {
    expect(formEncoded({ tags: ['a', 'b'] })).toBe('tags%5B0%5D=a&tags%5B1%5D=b');
  });
});
