import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  acceptedAgain,
  authenticateExport,
  loadSetup,
  refusedSignInMessage,
} from '../../../../bench/own-app/sign-in/authenticate.js';

interface RecordingApp {
  request(method: string, path: string, body?: unknown): Promise<{ status: number; headers: {}; body: unknown }>;
  sent: string[];
}

/** An app where a sign-up creates its account once and a sign-in answers as often as it is asked. */
function accountsApp(): RecordingApp {
  const accounts = new Set<string>();
  const sent: string[] = [];
  return {
    sent,
    async request(method, path, body) {
      sent.push(`${method} ${path}`);
      const email = (body as { email: string }).email;
      if (path === '/auth/signup') {
        if (accounts.has(email)) return { status: 409, headers: {}, body: { message: `${email} is taken` } };
        accounts.add(email);
        return { status: 201, headers: {}, body: {} };
      }
      return { status: accounts.has(email) ? 200 : 401, headers: {}, body: { token: 't' } };
    },
  };
}

describe('the requests authenticate() sent, as bodies for the routes they went to', () => {
  it('keeps a sign-in the app accepts again and drops a sign-up it refuses the second time', async () => {
    const app = accountsApp();
    const signUp = { method: 'POST', url: '/auth/signup', value: { email: 'a@b.c', password: 'pw' } };
    const signIn = { method: 'POST', url: '/auth/login', value: { email: 'a@b.c', password: 'pw' } };
    await app.request(signUp.method, signUp.url, signUp.value);
    await app.request(signIn.method, signIn.url, signIn.value);

    expect(await acceptedAgain(app, [signUp, signIn])).toEqual([signIn]);
    expect(app.sent).toEqual(['POST /auth/signup', 'POST /auth/login', 'POST /auth/signup', 'POST /auth/login']);
  });
});

describe('a sign-in sent with a header the app requires', () => {
  it('is tried again with the same headers (an accept header a GraphQL app insists on)', async () => {
    const app = {
      async request(_method: string, _path: string, _body?: unknown, headers: Record<string, string> = {}) {
        return { status: headers.accept === 'application/graphql-response+json' ? 200 : 406, headers: {}, body: {} };
      },
    };
    const signIn = {
      method: 'POST',
      url: '/graphql',
      value: { query: 'mutation { signIn }' },
      headers: { accept: 'application/graphql-response+json' },
    };
    expect(await acceptedAgain(app, [signIn])).toEqual([signIn]);
  });
});

describe('headers the app refused everywhere, said once as the sign-in’s mistake', () => {
  const refusal = {
    path: 'GET /api/v1/auth/me',
    status: 401,
    body: { message: 'Unauthorized', statusCode: 401 },
    tried: ['GET /api/v1/auth/me', 'GET /api/v1/orders', 'POST /graphql query me'],
  };

  it('names what authenticate() returned, every request tried, the first one’s answer, and the header to return', () => {
    const message = refusedSignInMessage('dist/setup.js', { token: 'eyJhbGciOiJIUzI1NiJ9.payload.sig' }, refusal);
    expect(message).toBe(
      'dist/setup.js: the app refused the headers authenticate() returned (token: "eyJhbGciOiJI…") on every request ' +
        'it refuses signed out (GET /api/v1/auth/me, GET /api/v1/orders, POST /graphql query me): GET /api/v1/auth/me ' +
        'answered 401 {"message":"Unauthorized","statusCode":401} with them, as without them; return the header the ' +
        'app reads, e.g. { authorization: `Bearer ${token}` } for passport-jwt’s fromAuthHeaderAsBearerToken()',
    );
  });

  it('says an authorization header without its scheme is missing "Bearer"', () => {
    expect(refusedSignInMessage('setup.js', { authorization: 'abc.def.ghi' }, refusal)).toContain(
      'its authorization has no scheme: return { authorization: `Bearer ${token}` }',
    );
  });

  it('never suggests the Bearer header it was given', () => {
    const message = refusedSignInMessage('setup.js', { authorization: 'Bearer abc.def.ghi' }, refusal);
    expect(message).not.toContain('return the header the app reads, e.g. { authorization: `Bearer');
    expect(message).toContain('the app reads the credential from elsewhere (another header, a cookie');
  });

  it('names --sign-in’s request where the flag signed in', () => {
    const message = refusedSignInMessage('--sign-in POST /auth/login', { cookie: 'sid=abc' }, refusal);
    expect(message).toMatch(
      /^the app refused the headers --sign-in POST \/auth\/login signed in with \(cookie: "sid=abc"\)/,
    );
    expect(message).toContain('for another header, authenticate() in --nest-setup returns it');
  });
});

describe('the setup module, imported in the bench’s process for authenticate()', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-setup-folder-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is imported from the app’s folder, so what it reads by relative path (its .env) is found', async () => {
    writeFileSync(join(dir, 'settings.txt'), 'from the app’s folder');
    const setup = join(dir, 'setup.mjs');
    writeFileSync(
      setup,
      [
        "import { readFileSync } from 'node:fs';",
        "export const settings = readFileSync('settings.txt', 'utf8');",
        'export async function authenticate() { return { authorization: `Bearer ${settings}` }; }',
      ].join('\n'),
    );
    const before = process.cwd();
    expect(authenticateExport(await loadSetup(setup, dir), setup)).toBeTypeOf('function');
    expect(process.cwd()).toBe(before);
  });

  it('that does not load is refused naming the file, the folder and its error', async () => {
    const setup = join(dir, 'broken.mjs');
    writeFileSync(setup, "throw new Error('DATABASE_HOST has failed the following constraints: isString');\n");
    await expect(loadSetup(setup, dir)).rejects.toThrow(
      `--nest-setup ${setup}: it does not load in the bench's process, run in ${dir}: DATABASE_HOST has failed`,
    );
  });
});
