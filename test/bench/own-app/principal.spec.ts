import { planOwnApp } from '../../../bench/own-app/app-config.js';
import {
  findWitness,
  principalChange,
  principalValues,
  signInLost,
  witnessCandidates,
} from '../../../bench/own-app/principal.js';
import type { AppClient } from '../../../bench/own-app/authenticate.js';

const USER_ID = '3f0e9c57-2a51-4f7e-9a54-6f1d2b3c4d5e';
/** A JWT as passport-jwt apps issue it: the signed-in user's id in `id`, the signature not read. */
const TOKEN = `h.${Buffer.from(JSON.stringify({ id: USER_ID, role: 'admin' })).toString('base64url')}.sig`;
const SIGNED_IN = { headers: { authorization: `Bearer ${TOKEN}` }, params: {} };

const change = (method: string, path: string, url = path, body?: unknown) =>
  principalChange({ method, path }, url, body, principalValues(SIGNED_IN));

describe('principalValues', () => {
  it('reads the account from the bearer token and from authenticate()’s params named for a user', () => {
    const values = principalValues({
      headers: SIGNED_IN.headers,
      params: { userId: '42', slug: 'welcome' },
    });
    expect(values).toEqual(expect.arrayContaining([USER_ID, '42', TOKEN]));
    expect(values).not.toContain('welcome');
  });
});

describe('principalChange: writes that would lose the sign-in', () => {
  it('a DELETE of a path ending in /me removes the signed-in account', () => {
    expect(change('DELETE', '/api/v1/auth/me')).toMatch(/ends in \/me: it removes the signed-in account/);
  });

  it('a PATCH of /me changes it', () => {
    expect(change('PATCH', '/api/v1/auth/me')).toMatch(/changes the signed-in account/);
  });

  it('a write to the user the token names, and to its password, is the account', () => {
    expect(change('PATCH', '/api/v1/users/:id', `/api/v1/users/${USER_ID}`)).toMatch(/:id is the account/);
    expect(change('POST', '/users/:id/password', `/users/${USER_ID}/password`)).toMatch(/:id is the account/);
  });

  it('a write to another user, or a sub-resource of the signed-in one, is not', () => {
    expect(change('PATCH', '/api/v1/users/:id', '/api/v1/users/0b8e-other')).toBeNull();
    expect(change('POST', '/users/:id/posts', `/users/${USER_ID}/posts`)).toBeNull();
  });

  it('a password or e-mail change is, a sign-in or sign-up with an e-mail is not', () => {
    expect(change('POST', '/auth/change-password')).toMatch(/a password change/);
    expect(change('PATCH', '/account/email/:token', '/account/email/abc')).toMatch(/an e-mail change/);
    expect(change('POST', '/api/v1/auth/email/login')).toBeNull();
    expect(change('POST', '/api/v1/auth/email/register')).toBeNull();
  });

  it('a body with the old and new password is a password change', () => {
    expect(change('PUT', '/settings', '/settings', { oldPassword: 'a', newPassword: 'b' })).toMatch(/oldPassword/);
  });

  it('reads are never protected', () => {
    expect(change('GET', '/api/v1/auth/me')).toBeNull();
  });
});

describe('planOwnApp with a signed-in principal', () => {
  const routes = [
    { method: 'GET', path: '/api/v1/auth/me', handler: 'Auth.me', version: null },
    { method: 'DELETE', path: '/api/v1/auth/me', handler: 'Auth.remove', version: null },
    { method: 'POST', path: '/api/v1/notes', handler: 'Notes.create', version: null },
  ];
  const plan = (timeWrites: string[] = []) =>
    planOwnApp({
      discovered: { routes, versioning: null },
      params: {},
      traffic: null,
      trafficFile: null,
      configScenarios: [],
      principal: principalValues(SIGNED_IN),
      timeWrites,
    });

  it('lists DELETE /me as not measured, with why and the flag that times it anyway', () => {
    const entry = plan().routes.find((r) => r.handler === 'Auth.remove');
    expect(entry).toMatchObject({ scenario: null });
    expect(entry?.notMeasured).toMatch(/removes the signed-in account/);
    expect(entry?.notMeasured).toContain("--time-write 'DELETE /api/v1/auth/me'");
    expect(plan().scenarios.map((s) => s.name)).toEqual(['api-v1-auth-me', 'post-api-v1-notes']);
  });

  it('times it when --time-write names it', () => {
    const entry = plan(['DELETE /api/v1/auth/me']).routes.find((r) => r.handler === 'Auth.remove');
    expect(entry).toMatchObject({ scenario: 'delete-api-v1-auth-me', notMeasured: null });
  });
});

/** An app in memory: answers GET /me with its account until a DELETE /me removes it. */
function accountApp() {
  let account: string | null = 'reader';
  const client: AppClient = {
    async request(method, path, _body, headers = {}) {
      const signedIn = headers.authorization === 'Bearer t' && account !== null;
      if (method === 'POST' && path === '/login')
        return account ? { status: 201, headers: {}, body: { token: 't' } } : { status: 401, headers: {}, body: {} };
      if (method === 'DELETE' && path === '/me' && signedIn) account = null;
      if (path === '/me' || path === '/items')
        return { status: signedIn ? 200 : 401, headers: {}, body: signedIn ? { account } : {} };
      return { status: 404, headers: {}, body: {} };
    },
  };
  const authenticate = async (c: AppClient) => {
    const { status } = await c.request('POST', '/login', {});
    if (status !== 201) throw new Error(`login answered ${status}`);
    return { authorization: 'Bearer t' };
  };
  return { client, authenticate };
}

describe('the sign-in tried again after a write', () => {
  const headers = { authorization: 'Bearer t' };

  it('picks a /me read that answers signed in and refuses without the headers as the witness', async () => {
    const { client } = accountApp();
    expect(witnessCandidates(['/items', '/health', '/me'])).toEqual(['/me', '/items', '/health']);
    expect(await findWitness(client, ['/health', '/me'], headers)).toEqual({ path: '/me', status: 200 });
  });

  it('says nothing while the account is there, and why once a write removed it', async () => {
    const { client, authenticate } = accountApp();
    const witness = await findWitness(client, ['/me'], headers);
    expect(await signInLost({ client, authenticate, headers, witness })).toBeNull();
    await client.request('DELETE', '/me', undefined, headers);
    expect(await signInLost({ client, authenticate, headers, witness })).toBe(
      "GET /me answered 401 with the sign-in's headers, 200 before",
    );
    expect(await signInLost({ client, authenticate, headers, witness: null })).toBe(
      'authenticate() failed: login answered 401',
    );
  });
});

describe('an int id in the token', () => {
  // monstar-lab's starter signs { sub: user.id } with an int id
  const signedIn = {
    headers: { authorization: `Bearer h.${Buffer.from(JSON.stringify({ sub: 1 })).toString('base64url')}.s` },
    params: { id: '1' },
  };
  const intChange = (path: string, url: string) =>
    principalChange({ method: 'PATCH', path }, url, { password: 'x' }, principalValues(signedIn));

  it('names the account under a users collection', () => {
    expect(intChange('/api/v1/users/:id', '/api/v1/users/1')).toMatch(/:id is the account/);
  });

  it('does not make article 1 the account', () => {
    expect(intChange('/api/v1/articles/:id', '/api/v1/articles/1')).toBeNull();
  });
});
