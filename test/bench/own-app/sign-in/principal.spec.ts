import {
  answerChanges,
  findWitness,
  lostSignInReason,
  principalRecord,
  watchSignIn,
  witnessPaths,
} from '../../../../bench/own-app/sign-in/principal.js';
import { principalValues } from '../../../../bench/own-app/sign-in/principal-values.js';
import type { AppClient } from '../../../../bench/own-app/sign-in/authenticate.js';
import { ADMIN_TOKEN } from './principals.js';

/** An app in memory: answers GET /me with its account and role until a write removes the account or the role's rights. */
function accountApp() {
  let account: string | null = 'reader';
  let permissions = ['notes:read', 'notes:write'];
  let logins = 0;
  let requests = 0;
  const client: AppClient = {
    async request(method, path, _body, headers = {}) {
      const signedIn = headers.authorization === 'Bearer t' && account !== null;
      if (method === 'POST' && path === '/login') {
        logins++;
        return account ? { status: 201, headers: {}, body: { token: 't' } } : { status: 401, headers: {}, body: {} };
      }
      if (method === 'DELETE' && path === '/me' && signedIn) account = null;
      if (method === 'PATCH' && path === '/roles/r-1' && signedIn) permissions = [];
      if (path === '/me' || path === '/items')
        return {
          status: signedIn ? 200 : 401,
          headers: {},
          body: signedIn
            ? {
                data: {
                  id: 'u-1',
                  account,
                  role: { id: 'r-1', permissions },
                  lastLoginAt: `2026-11-27T00:0${logins}:00Z`,
                },
                requestId: ++requests,
              }
            : {},
        };
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
    expect(await findWitness(client, ['/health', '/me'], headers)).toMatchObject({ path: '/me', status: 200 });
  });

  it('keeps the witness’s answer, and leaves out what changed between two reads with nothing written', async () => {
    const witness = await findWitness(accountApp().client, ['/me'], headers);
    expect(witness?.body).toMatchObject({ data: { role: { id: 'r-1' } } });
    expect(witness?.varies).toEqual(['requestId']);
  });

  it('says nothing while the account is there, and why once a write removed it', async () => {
    const { client, authenticate } = accountApp();
    const witness = await findWitness(client, ['/me'], headers);
    const changed = watchSignIn({ authenticate, headers, witness });
    expect(await changed(client)).toBeNull();
    await client.request('DELETE', '/me', undefined, headers);
    expect(await changed(client)).toEqual({
      lost: true,
      why: "GET /me answered 401 with the sign-in's headers, 200 before",
    });
    expect(await watchSignIn({ authenticate, headers, witness: null })(client)).toEqual({
      lost: true,
      why: 'authenticate() failed: login answered 401',
    });
  });

  it('finds a write that leaves the sign-in working but changes what it may do, by the witness’s answer', async () => {
    const { client, authenticate } = accountApp();
    const witness = await findWitness(client, ['/me'], headers);
    const changed = watchSignIn({ authenticate, headers, witness });
    // authenticate() moves lastLoginAt each time: a time, not a change of the principal
    expect(await changed(client)).toBeNull();
    expect(await changed(client)).toBeNull();
    await client.request('PATCH', '/roles/r-1', {}, headers);
    const change = await changed(client);
    expect(change).toEqual({ lost: false, why: 'GET /me answered data.role.permissions: 2 items → 0' });
    // the next write is compared with the changed answer, not blamed for the change again
    expect(await changed(client)).toBeNull();
    expect(lostSignInReason(change!, 'PATCH /roles/r-1')).toMatch(
      /^the signed-in principal's answer changed after PATCH \/roles\/r-1 \(GET \/me answered data\.role\.permissions: 2 items → 0\): it changes the principal or what it may do, so it is not timed/,
    );
  });

  it('takes a list witness for whether the sign-in still works, never for who it is: a create grows the list', async () => {
    const notes = ['welcome'];
    const client = {
      async request(method: string, path: string, body?: unknown, sent: Record<string, string> = {}) {
        if (!sent.authorization) return { status: 401, headers: {}, body: null };
        if (method === 'POST') notes.push(String((body as { title: string }).title));
        return { status: method === 'POST' ? 201 : 200, headers: {}, body: notes.map((title) => ({ title })) };
      },
    };
    const witness = await findWitness(client, ['/notes'], headers);
    const watch = watchSignIn({ authenticate: null, headers, witness });
    await client.request('POST', '/notes', { title: 'another' }, headers);
    expect(await watch(client)).toBeNull();
    expect(await watchSignIn({ authenticate: null, headers: {}, witness })(client)).toMatchObject({ lost: true });
  });
});

describe('answerChanges', () => {
  it('names each changed field with both values, and leaves out times and the fields given', () => {
    const before = { id: 1, status: 'active', updatedAt: '2026-11-27T00:00:00Z', seen: 3 };
    const after = { id: 1, status: 'disabled', updatedAt: '2026-11-27T00:05:00Z', seen: 4 };
    expect(answerChanges(before, after, ['seen'])).toEqual(['status: "active" → "disabled"']);
  });
});

describe('the witness compares the principal’s whole record', () => {
  const headers = { authorization: 'Bearer t' };
  /** GET /user/profile answers the account; PATCH /user/change-username renames it; a limiter may answer 429. */
  function profileApp() {
    const account = { id: 1, username: 'admin', role: { id: 1, name: 'admin' } };
    let limited = false;
    const client: AppClient = {
      async request(method, path, body, sent = {}) {
        if (!sent.authorization) return { status: 401, headers: {}, body: {} };
        if (limited) return { status: 429, headers: {}, body: { message: 'ThrottlerException: Too Many Requests' } };
        if (method === 'PATCH') Object.assign(account, body);
        return { status: 200, headers: {}, body: structuredClone(account) };
      },
    };
    return { client, limit: () => (limited = true) };
  }

  it('reports a change as the field, before and after', async () => {
    const { client } = profileApp();
    const witness = await findWitness(client, ['/user/profile'], headers);
    const watch = watchSignIn({ authenticate: null, headers, witness });
    await client.request('PATCH', '/user/change-username', { username: 'username7hpwb7c3' }, headers);
    expect(await watch(client)).toEqual({
      lost: false,
      why: 'GET /user/profile answered username: "admin" → "username7hpwb7c3"',
    });
  });

  it('a 429 is not the same: the record could not be read, and the write is not called harmless', async () => {
    const { client, limit } = profileApp();
    const witness = await findWitness(client, ['/user/profile'], headers);
    const watch = watchSignIn({ authenticate: null, headers, witness });
    limit();
    const change = await watch(client);
    expect(change).toEqual({
      lost: false,
      unread: true,
      why: "GET /user/profile answered 429 with the sign-in's headers, 200 before",
    });
    expect(lostSignInReason(change!, 'POST /role/assign')).toMatch(
      /^the signed-in principal's record could not be read after POST \/role\/assign \(GET \/user\/profile answered 429/,
    );
  });

  it('compares every read of who is signed in, not only the proving one: a rename /auth/me does not show', async () => {
    const account = { id: 1, username: 'admin', role: { id: 1 } };
    const client: AppClient = {
      async request(method, path, body, sent = {}) {
        if (!sent.authorization) return { status: 401, headers: {}, body: {} };
        if (method === 'PATCH') Object.assign(account, body);
        if (path === '/auth/me') return { status: 200, headers: {}, body: { id: account.id, role: account.role } };
        if (path === '/user/profile') return { status: 200, headers: {}, body: structuredClone(account) };
        return { status: 200, headers: {}, body: [] };
      },
    };
    const paths = witnessPaths('/auth/me', ['/auth/me', '/items', '/user/profile']);
    expect(paths).toEqual(['/auth/me', '/user/profile']);
    const witness = await findWitness(client, paths, headers);
    expect(witness).toMatchObject({ path: '/auth/me', others: [{ path: '/user/profile', status: 200 }] });
    const watch = watchSignIn({ authenticate: null, headers, witness });
    expect(await watch(client)).toBeNull();
    await client.request('PATCH', '/user/change-username', { username: 'username7hpwb7c3' }, headers);
    expect(await watch(client)).toEqual({
      lost: false,
      why: 'GET /user/profile answered username: "admin" → "username7hpwb7c3"',
    });
  });

  it('in a list, the record holding the principal’s id is compared, not the list', () => {
    const principal = principalValues({ headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, params: {} });
    const users = {
      data: [
        { id: 2, username: 'other' },
        { id: 1, username: 'admin' },
      ],
    };
    expect(principalRecord('/users', users, principal)).toEqual({ id: 1, username: 'admin' });
    expect(principalRecord('/users', { data: [{ id: 2 }] }, principal)).toBeNull();
  });
});
