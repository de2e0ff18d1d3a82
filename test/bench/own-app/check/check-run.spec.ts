import { readsFirst, recording, refusedEveryRead } from '../../../../bench/own-app/check/check-run.js';
import type { Scenario } from '../../../../bench/model/config.js';
import type { RouteCompatibility } from '../../../../bench/model/own-app-record.js';

const scenario = (name: string, method: string, description = `${method} /${name}`) =>
  ({ name, method, description, path: `/${name}` }) as Scenario;

const checked = (status: number | null): RouteCompatibility => {
  const answer = { status, contentType: null, error: null, refusal: null, body: '' };
  return {
    scenario: 's',
    request: 'GET /s',
    same: true,
    difference: null,
    express: answer,
    fastify: answer,
    bodyVaries: false,
    expect: null,
    notMeasured: null,
  };
};

describe('the check’s order: reads, then writes (issue 52 §2)', () => {
  it('sends every GET and GraphQL query before any write, each in its planned order', () => {
    const planned = [
      scenario('post-tasks', 'POST'),
      scenario('tasks', 'GET'),
      scenario('graphql-add-task', 'POST', 'GraphQL mutation addTask'),
      scenario('graphql-tasks', 'POST', 'GraphQL query tasks'),
      scenario('put-tasks-id', 'PUT'),
    ];
    const [reads, writes] = readsFirst(planned);
    expect(reads.map((s) => s.name)).toEqual(['tasks', 'graphql-tasks']);
    expect(writes.map((s) => s.name)).toEqual(['post-tasks', 'graphql-add-task', 'put-tasks-id']);
  });

  it('sends a PUT or PATCH, which may rename the row its path names, after the writes that name that row', () => {
    // RealWorld: PUT /api/articles/:slug gives the article a new slug, and its comments and favorite then named none
    const planned = [
      scenario('put-api-articles-slug', 'PUT'),
      scenario('patch-api-articles-slug', 'PATCH'),
      scenario('post-api-articles-slug-comments', 'POST'),
      scenario('delete-api-articles-slug-favorite', 'DELETE'),
      scenario('post-api-articles-slug-favorite', 'POST'),
    ];
    expect(readsFirst(planned)[1].map((s) => s.name)).toEqual([
      'post-api-articles-slug-comments',
      'post-api-articles-slug-favorite',
      'delete-api-articles-slug-favorite',
      'patch-api-articles-slug',
      'put-api-articles-slug',
    ]);
  });
});

describe('a check that compares nothing sends no write', () => {
  it('holds the writes back where the app refused every read on Express (its sign-in, its limiter)', () => {
    expect(refusedEveryRead([checked(429), checked(401), checked(429)])).toBe(
      'not sent: every read the check sent was refused on Express (429, 401), so nothing is compared and a write would only leave rows behind',
    );
  });

  it('sends them where any read was answered, or there was no read to tell', () => {
    expect(refusedEveryRead([checked(429), checked(200)])).toBeNull();
    expect(refusedEveryRead([checked(404)])).toBeNull();
    expect(refusedEveryRead([checked(null)])).toBeNull();
    expect(refusedEveryRead([])).toBeNull();
  });
});

describe('every answer to a write the check sends is kept (issue 52 §2: the report lists every row the run created)', () => {
  it('keeps each write’s answers on each adapter, Express asked again and the write probes included, and no read', async () => {
    let made = 0;
    const app = async (_adapter: number, request: { method: string }) => {
      const body = request.method === 'POST' ? `{"id":${++made}}` : '[]';
      const status = request.method === 'POST' ? 201 : 200;
      return { status, contentType: 'application/json', body, error: null, setCookies: [], headers: {} };
    };
    const written: { request: string; adapter: string; status: number | null; body: string }[] = [];
    const ask = recording(app, written);
    const post = { method: 'POST', path: '/api/tasks', headers: {}, body: '{}' };
    await ask(0, post);
    await ask(1, post);
    await ask(0, post);
    await ask(0, { ...post, path: '/api/tasks/' });
    await ask(0, { method: 'GET', path: '/api/tasks', headers: {}, body: undefined });
    await ask(0, { method: 'HEAD', path: '/api/tasks', headers: {}, body: undefined });
    expect(written).toEqual([
      { request: 'POST /api/tasks', adapter: 'express', status: 201, body: '{"id":1}' },
      { request: 'POST /api/tasks', adapter: 'fastify', status: 201, body: '{"id":2}' },
      { request: 'POST /api/tasks', adapter: 'express', status: 201, body: '{"id":3}' },
      { request: 'POST /api/tasks/', adapter: 'express', status: 201, body: '{"id":4}' },
    ]);
  });
});
