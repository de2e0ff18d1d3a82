import {
  cookieHeader,
  credentialWays,
  flagAuthenticate,
  signInFromFlag,
  tokenIn,
} from '../../../../bench/own-app/sign-in/sign-in-flag.js';

const jwt = (claims: object) =>
  [{ alg: 'HS256', typ: 'JWT' }, claims]
    .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
    .join('.') + '.c2lnbmF0dXJl';
const ACCESS = jwt({ sub: 1 });
const REFRESH = jwt({ sub: 1, refresh: true });

describe('the token a sign-in answers', () => {
  it('is a JWT at any depth of the body: { data: { tokens: { accessToken } } }', () => {
    expect(tokenIn({ data: { user: { id: 1, name: 'Ann' }, tokens: { accessToken: ACCESS } } })).toBe(ACCESS);
  });

  it('is the access token, not the refresh token, whichever comes first', () => {
    expect(tokenIn({ refreshToken: REFRESH, accessToken: ACCESS })).toBe(ACCESS);
    expect(tokenIn({ data: { login: { refresh_token: REFRESH, access_token: ACCESS } } })).toBe(ACCESS);
  });

  it('is a JWT whatever its key is called, and a JWT-shaped token whose header is {}', () => {
    expect(tokenIn({ result: { value: ACCESS } })).toBe(ACCESS);
    expect(tokenIn({ token: 'e30.eyJzdWIiOiIxIn0.c2ln' })).toBe('e30.eyJzdWIiOiIxIn0.c2ln');
  });

  it('is an opaque string under a key that names a token, where there is no JWT', () => {
    expect(tokenIn({ session: { token: 'a1b2c3' }, user: { name: 'Ann' } })).toBe('a1b2c3');
  });

  it('is none in an answer with no JWT and no token key (a dotted version string is no JWT)', () => {
    expect(tokenIn({ user: { name: 'Ann', version: '1.2.3' }, ok: true })).toBeNull();
    expect(tokenIn('signed in')).toBeNull();
  });
});

describe('the cookies a sign-in sets', () => {
  it('are sent back as one cookie header, several set-cookie headers (joined by commas) and their dates told apart', () => {
    const header =
      'sid=s%3Aabc; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; HttpOnly, theme=dark; Path=/; SameSite=Lax';
    expect(cookieHeader(header)).toBe('sid=s%3Aabc; theme=dark');
  });

  it('are none without a set-cookie, or where it only clears one', () => {
    expect(cookieHeader(undefined)).toBeNull();
    expect(cookieHeader('sid=; Max-Age=0')).toBeNull();
  });

  it('come beside a token in the body as a second way of sending the credential, before the token’s other schemes', () => {
    const ways = credentialWays({ headers: { 'set-cookie': 'sid=abc; HttpOnly' }, body: { accessToken: ACCESS } });
    expect(ways).toEqual([
      { way: 'bearer', headers: { authorization: `Bearer ${ACCESS}` } },
      { way: 'cookie', headers: { cookie: 'sid=abc' } },
      { way: 'token-scheme', headers: { authorization: `Token ${ACCESS}` } },
      { way: 'bare', headers: { authorization: ACCESS } },
    ]);
  });
});

type Answer = { status: number; headers: Record<string, string>; body: unknown };
function client(answer: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Answer) {
  const sent: string[] = [];
  return {
    sent,
    async request(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
      sent.push(`${method} ${path}`);
      return answer(method, path, body, headers);
    },
  };
}

describe('authenticate() made of --sign-in', () => {
  const request = { method: 'POST', url: '/api/auth/login', value: { email: 'a@b.c', password: 'pw' } };
  const never = async () => null;

  it('sends the sign-in as given and returns its nested token as a Bearer header', async () => {
    const app = client((_m, _p, body) => ({
      status: (body as { password: string }).password === 'pw' ? 201 : 401,
      headers: {},
      body: { data: { accessToken: ACCESS } },
    }));
    expect(await flagAuthenticate(request, never)(app)).toEqual({ authorization: `Bearer ${ACCESS}` });
    expect(app.sent).toEqual(['POST /api/auth/login']);
  });

  it('throws what the sign-in answered where the app refuses it', async () => {
    const app = client(() => ({ status: 401, headers: {}, body: { message: 'wrong e-mail or password' } }));
    await expect(flagAuthenticate(request, never)(app)).rejects.toThrow(
      '--sign-in POST /api/auth/login answered 401 {"message":"wrong e-mail or password"}',
    );
  });

  it('throws a GraphQL sign-in’s errors, which come with a 200', async () => {
    const mutation = { method: 'POST', url: '/graphql', value: { query: 'mutation { login { token } }' } };
    const app = client(() => ({ status: 200, headers: {}, body: { errors: [{ message: 'Invalid credentials' }] } }));
    await expect(flagAuthenticate(mutation, never)(app)).rejects.toThrow(
      '--sign-in POST /graphql answered 200 Invalid credentials',
    );
  });

  it('throws where the answer holds no credential, saying where it looked', async () => {
    const app = client(() => ({ status: 200, headers: {}, body: { ok: true } }));
    await expect(flagAuthenticate(request, never)(app)).rejects.toThrow(
      'answered 200 without a token (no JWT at any depth of its body, no token key) or a set-cookie: {"ok":true}',
    );
  });

  it('sends only the way the app takes, where the answer holds a token and cookies, and asks which only once', async () => {
    const app = client(() => ({
      status: 200,
      headers: { 'set-cookie': 'sid=abc; HttpOnly' },
      body: { token: ACCESS },
    }));
    const asked: Record<string, string>[][] = [];
    const choose = async (_client: unknown, ways: Record<string, string>[]) => {
      asked.push(ways);
      return ways[1];
    };
    const authenticate = flagAuthenticate(request, choose);
    expect(await authenticate(app)).toEqual({ cookie: 'sid=abc' });
    expect(await authenticate(app)).toEqual({ cookie: 'sid=abc' });
    expect(asked).toHaveLength(1);
  });

  it('sends the token under the scheme the app takes: RealWorld’s Token …', async () => {
    const app = client(() => ({ status: 200, headers: {}, body: { user: { email: 'a@b.c', token: ACCESS } } }));
    const choose = async (_client: unknown, ways: Record<string, string>[]) =>
      ways.find((way) => way.authorization?.startsWith('Token ')) ?? null;
    expect(await flagAuthenticate(request, choose)(app)).toEqual({ authorization: `Token ${ACCESS}` });
  });

  it('sends both where no request tells which the app takes', async () => {
    const app = client(() => ({ status: 200, headers: { 'set-cookie': 'sid=abc' }, body: { token: ACCESS } }));
    expect(await flagAuthenticate(request, never)(app)).toEqual({
      authorization: `Bearer ${ACCESS}`,
      cookie: 'sid=abc',
    });
  });
});

describe('what signs in', () => {
  const discovered = { routes: [], versioning: null };
  const setup = { authenticate: async () => ({}), source: '/app/setup.js' };

  it('is the setup’s authenticate() without the flag', () => {
    expect(signInFromFlag(null, discovered, setup)).toBe(setup);
  });

  it('is the flag, named as messages name it', () => {
    const chosen = signInFromFlag({ method: 'POST', url: '/login', value: {} }, discovered, {
      authenticate: null,
      source: null,
    });
    expect(chosen.source).toBe('--sign-in POST /login');
    expect(chosen.authenticate).toBeTypeOf('function');
  });

  it('is refused as both, with one line', () => {
    expect(() => signInFromFlag({ method: 'POST', url: '/login', value: {} }, discovered, setup)).toThrow(
      '--sign-in POST /login and authenticate() in /app/setup.js both sign in: give one',
    );
  });
});
