import { acceptedWay, proveSignIn, signInCandidates } from '../../../../bench/own-app/sign-in/sign-in-proof.js';

type Answer = { status: number; headers: Record<string, string>; body: unknown };
/** An app answering by route and by whether the request carries `authorization: Bearer good`. */
function app(routes: Record<string, (signedIn: boolean, headers: Record<string, string>) => Answer>) {
  const sent: string[] = [];
  return {
    sent,
    async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
      const line =
        body && typeof body === 'object' && 'query' in body ? `${path} ${(body as { query: string }).query}` : path;
      sent.push(`${method} ${line}`);
      const route = routes[line];
      if (!route) return { status: 404, headers: {}, body: {} };
      return route(headers.authorization === 'Bearer good', headers);
    },
  };
}
const json = (status: number, body: unknown = {}): Answer => ({ status, headers: {}, body });
const gql = (body: unknown): Answer => json(200, body);
const refused = { errors: [{ message: 'Unauthorized' }] };
const headers = { signedIn: { authorization: 'Bearer good' }, signedOut: {} };

describe('the requests that may prove a sign-in', () => {
  it('are reads of who is signed in first, then the other reads, then GraphQL queries, the account’s own first', () => {
    const queries = [
      { line: 'POST /graphql query teams', path: '/graphql', body: { query: 'teams' }, field: 'teams' },
      { line: 'POST /graphql query myTeams', path: '/graphql', body: { query: 'myTeams' }, field: 'myTeams' },
    ];
    expect(signInCandidates(['/health', '/v1/auth/me'], queries).map((c) => c.line)).toEqual([
      'GET /v1/auth/me',
      'GET /health',
      'POST /graphql query myTeams',
      'POST /graphql query teams',
    ]);
  });
});

describe('a sign-in proved where it works', () => {
  it('is accepted on a GraphQL query where every REST read takes another key (the admin routes)', async () => {
    const client = app({
      '/admin/users': () => json(401, { message: 'missing x-admin-key' }),
      '/admin/stats': () => json(401, { message: 'missing x-admin-key' }),
      '/graphql me': (signedIn) => gql(signedIn ? { data: { me: { id: 1 } } } : refused),
    });
    const candidates = signInCandidates(
      ['/admin/users', '/admin/stats'],
      [{ line: 'POST /graphql query me', path: '/graphql', body: { query: 'me' }, field: 'me' }],
    );
    expect(await proveSignIn(client, candidates, headers)).toEqual({
      accepted: 'POST /graphql query me',
      refused: null,
    });
  });

  it('is accepted on the first read refused signed out that answers 2xx, skipping public ones', async () => {
    const client = app({
      '/health': () => json(200),
      '/me': (signedIn) => json(signedIn ? 200 : 401),
    });
    const proof = await proveSignIn(client, signInCandidates(['/health', '/me'], []), headers);
    expect(proof).toEqual({ accepted: 'GET /me', refused: null });
    expect(client.sent).toEqual(['GET /me', 'GET /me']);
  });

  it('is refused only when every request refused signed out refuses it too, naming each one tried', async () => {
    const client = app({
      '/me': () => json(401, { message: 'sign in first' }),
      '/orders': () => json(401, { message: 'sign in first' }),
      '/health': () => json(200),
      '/graphql me': () => gql(refused),
    });
    const candidates = signInCandidates(
      ['/me', '/orders', '/health'],
      [{ line: 'POST /graphql query me', path: '/graphql', body: { query: 'me' }, field: 'me' }],
    );
    expect(await proveSignIn(client, candidates, headers)).toEqual({
      accepted: null,
      refused: {
        path: 'GET /me',
        status: 401,
        body: { message: 'sign in first' },
        tried: ['GET /me', 'GET /orders', 'POST /graphql query me'],
      },
    });
  });

  it('is accepted where a read answers signed out otherwise than 401: a 404 hiding it, a 500 reading no user', async () => {
    const client = app({
      '/orders/7': (signedIn) => json(signedIn ? 200 : 404),
      '/profile': (signedIn) => json(signedIn ? 200 : 500, signedIn ? {} : { message: 'Internal server error' }),
    });
    expect((await proveSignIn(client, signInCandidates(['/orders/7'], []), headers)).accepted).toBe('GET /orders/7');
    expect((await proveSignIn(client, signInCandidates(['/profile'], []), headers)).accepted).toBe('GET /profile');
  });

  it('counts a read that fails alike both ways (a 404) neither for the credential nor against it', async () => {
    const client = app({
      '/missing/1': () => json(404),
      '/me': () => json(401, { message: 'sign in first' }),
    });
    expect(await proveSignIn(client, signInCandidates(['/missing/1', '/me'], []), headers)).toEqual({
      accepted: null,
      refused: { path: 'GET /me', status: 401, body: { message: 'sign in first' }, tried: ['GET /me'] },
    });
  });

  it('is not refused where a request knows who asks (403 signed in, 401 signed out): the account lacks a role there', async () => {
    const client = app({ '/admin': (signedIn) => json(signedIn ? 403 : 401) });
    expect(await proveSignIn(client, signInCandidates(['/admin'], []), headers)).toEqual({
      accepted: null,
      refused: null,
    });
  });

  it('is neither proved nor refused where nothing is refused signed out', async () => {
    const client = app({ '/health': () => json(200) });
    expect(await proveSignIn(client, signInCandidates(['/health'], []), headers)).toEqual({
      accepted: null,
      refused: null,
    });
  });

  it('keeps a --header key on both sides: only the sign-in’s own headers are left out signed out', async () => {
    const client = app({
      '/me': (signedIn, sent) => json(sent['x-api-key'] !== 'k1' ? 400 : signedIn ? 200 : 401),
    });
    const both = { signedIn: { authorization: 'Bearer good', 'x-api-key': 'k1' }, signedOut: { 'x-api-key': 'k1' } };
    expect((await proveSignIn(client, signInCandidates(['/me'], []), both)).accepted).toBe('GET /me');
  });
});

describe('the way the app takes a credential', () => {
  it('is the one a read refused signed out answers 2xx with', async () => {
    const client = {
      async request(_m: string, path: string, _b?: unknown, sent: Record<string, string> = {}) {
        if (path !== '/me') return { status: 200, headers: {}, body: {} };
        return { status: sent.cookie === 'sid=abc' ? 200 : 401, headers: {}, body: {} };
      },
    };
    const ways: Record<string, string>[] = [{ authorization: 'Bearer t' }, { cookie: 'sid=abc' }];
    const candidates = signInCandidates(['/health', '/me'], []);
    expect(await acceptedWay(client, candidates, ways, {})).toEqual({ cookie: 'sid=abc' });
  });

  it('is none where no read is refused signed out', async () => {
    const client = { request: async () => ({ status: 200, headers: {}, body: {} }) };
    expect(await acceptedWay(client, signInCandidates(['/health'], []), [{ cookie: 'a=1' }], {})).toBeNull();
  });
});
