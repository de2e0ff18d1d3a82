import { planOwnApp } from '../../../../bench/own-app/routes/app-config.js';
import { principalValues } from '../../../../bench/own-app/sign-in/principal-values.js';
import {
  askSignedOut,
  mutationPrincipalChange,
  principalChange,
} from '../../../../bench/own-app/sign-in/principal-writes.js';
import type { AppClient } from '../../../../bench/own-app/sign-in/authenticate.js';
import { SIGNED_IN, TOKEN, USER_ID, adminPrincipal } from './principals.js';

const change = (method: string, path: string, url = path, body?: unknown) =>
  principalChange({ method, path }, url, body, principalValues(SIGNED_IN));

describe('principalChange: writes that would lose the sign-in', () => {
  it('a DELETE of a path ending in /me removes the signed-in account', () => {
    expect(change('DELETE', '/api/v1/auth/me')).toMatch(/ends in \/me: it removes the signed-in account/);
  });

  it('a sign-out ends the session the token names, whatever the method', () => {
    expect(change('POST', '/api/v1/auth/logout')).toMatch(
      /ends in \/logout: it ends the session the sign-in's token names/,
    );
    expect(change('DELETE', '/auth/sign-out')).toMatch(/ends in \/sign-out/);
    expect(change('POST', '/auth/logout-all/:id', '/auth/logout-all/7')).toBeNull();
  });

  it('a PUT of /user, RealWorld’s signed-in user, changes it; a POST there creates another', () => {
    expect(change('PUT', '/api/user')).toMatch(/ends in \/user: it changes the signed-in account/);
    expect(change('POST', '/api/user')).toBeNull();
  });

  it('a PUT of the profile a path parameter names is the account’s only where that is its id (issue 52 §2)', () => {
    expect(change('PUT', '/api/users/:userId/profile', '/api/users/0b8e-other/profile')).toBeNull();
    expect(change('PUT', '/api/users/:userId/profile', `/api/users/${USER_ID}/profile`)).toMatch(
      /:userId is the account/,
    );
    expect(change('PUT', '/api/profile')).toMatch(/ends in \/profile: it changes the signed-in account/);
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

  it('a reset or recovery of another account, named by its e-mail, a one-time secret or its id, is not', () => {
    // kei-k23's and brocoders' recovery routes: the body names the account, derived values never the principal's
    expect(
      change('POST', '/v1/auth/otp/send/forgot-password', undefined, {
        email: 'x-{{unique}}@example.com',
        userType: 'ADMIN',
      }),
    ).toBeNull();
    expect(change('POST', '/api/v1/auth/forgot/password', undefined, { email: 'x-{{unique}}@example.com' })).toBeNull();
    expect(
      change('POST', '/v1/auth/reset-password', undefined, { accessToken: 'made-up', newPassword: 'Aa1aaaaa' }),
    ).toBeNull();
    expect(
      change('POST', '/api/v1/auth/reset/password', undefined, { password: 'Aa1aaaaa', hash: 'made-up' }),
    ).toBeNull();
    expect(
      change('POST', '/v1/auth/user-register-password-setup', undefined, {
        password: 'Aa1aaaaa',
        confirmPassword: 'Aa1aaaaa',
        userId: '5e1a0c2b-other',
      }),
    ).toBeNull();
  });

  it('the same routes sent the principal’s own token, id or e-mail are its change', () => {
    expect(
      change('POST', '/v1/auth/reset-password', undefined, { accessToken: TOKEN, newPassword: 'Aa1aaaaa' }),
    ).toMatch(/a password change/);
    expect(
      change('POST', '/v1/auth/user-register-password-setup', undefined, { password: 'Aa1aaaaa', userId: USER_ID }),
    ).toMatch(/a password change/);
  });

  it('a new e-mail or password with nothing naming another account is the signed-in one’s', () => {
    expect(change('PATCH', '/v1/auth/email', undefined, { email: 'new-{{unique}}@example.com' })).toMatch(
      /an e-mail change/,
    );
    expect(change('PATCH', '/v1/auth/change-password', undefined, { currentPassword: 'a', newPassword: 'b' })).toMatch(
      /currentPassword/,
    );
    expect(change('POST', '/v1/settings', undefined, { newPassword: 'b' })).toMatch(/newPassword/);
  });

  it('reads are never protected', () => {
    expect(change('GET', '/api/v1/auth/me')).toBeNull();
  });
});

describe('planOwnApp with a signed-in principal', () => {
  /** What PATCH /me takes: a name, and what signs in. */
  const profile = {
    properties: { firstName: { type: 'string' as const }, email: { type: 'string' as const, format: 'email' } },
  };
  const routes = [
    { method: 'GET', path: '/api/v1/auth/me', handler: 'Auth.me', version: null },
    { method: 'DELETE', path: '/api/v1/auth/me', handler: 'Auth.remove', version: null },
    {
      method: 'PATCH',
      path: '/api/v1/auth/me',
      handler: 'Auth.update',
      version: null,
      body: { schema: profile, sources: ['class-validator'] },
    },
    { method: 'POST', path: '/api/v1/notes', handler: 'Notes.create', version: null },
  ];
  /** GET /me's answer: the account as it is. */
  const ME = { id: USER_ID, email: 'admin@example.com', firstName: 'Super' };
  /** PATCH /me's handler takes a profile image, as Kei-K23's does (FileInterceptor('profileImage')). */
  const uploads = new Map([
    [
      'Auth.update',
      {
        fields: [{ field: 'profileImage', count: 1 }],
        filename: 'bench.png',
        type: 'image/png',
        bytes: 64,
        interceptor: "FileInterceptor('profileImage')",
        where: 'src/auth.controller.ts:9',
      },
    ],
  ]);
  const plan = (
    timeWrites: string[] = [],
    current?: Map<string, unknown>,
    bodies: { method: string; url: string; value: unknown }[] = [],
  ) =>
    planOwnApp({
      discovered: { routes, versioning: null },
      params: {},
      traffic: null,
      trafficFile: null,
      configScenarios: [],
      principal: principalValues(SIGNED_IN),
      timeWrites,
      current,
      bodies,
      uploads,
    });
  const entry = (planned: ReturnType<typeof plan>, handler: string) =>
    planned.routes.find((r) => r.handler === handler);

  it('lists DELETE /me as not measured, with why and the flag that times it anyway', () => {
    const remove = entry(plan(), 'Auth.remove');
    expect(remove).toMatchObject({ scenario: null });
    expect(remove?.notMeasured).toMatch(/removes the signed-in account/);
    expect(remove?.notMeasured).toContain("--time-write 'DELETE /api/v1/auth/me'");
    expect(plan().scenarios.map((s) => s.name)).toEqual(['api-v1-auth-me', 'post-api-v1-notes']);
  });

  it('times it when --time-write names it', () => {
    expect(entry(plan(['DELETE /api/v1/auth/me']), 'Auth.remove')).toMatchObject({
      scenario: 'delete-api-v1-auth-me',
      notMeasured: null,
    });
  });

  it('times PATCH /me sent the account’s own current values, never its e-mail, and says where they came from', () => {
    const planned = plan([], new Map([['/api/v1/auth/me', ME]]));
    expect(entry(planned, 'Auth.update')).toMatchObject({
      scenario: 'patch-api-v1-auth-me',
      notMeasured: null,
      body: 'current values',
      bodySources: ['GET /api/v1/auth/me'],
    });
    const scenario = planned.scenarios.find((s) => s.name === 'patch-api-v1-auth-me');
    // as JSON, without the image its handler takes: a new file would change what the values leave as it was
    expect(scenario?.body).toEqual({ firstName: 'Super' });
    expect(scenario?.headers ?? {}).not.toHaveProperty('content-type');
    expect(entry(planned, 'Auth.update')).not.toHaveProperty('upload');
  });

  it('keeps PATCH /me protected when GET /me gave no answer, saying so beside the flag', () => {
    expect(entry(plan(), 'Auth.update')?.notMeasured).toMatch(
      /changes the signed-in account.*sending it its own current values, which would change nothing, was not possible: no GET \/api\/v1\/auth\/me answered its current values to send it; to time it anyway .*--time-write 'PATCH \/api\/v1\/auth\/me'/,
    );
  });

  it('keeps DELETE /me protected with no word of current values, and a --body PATCH as the user wrote it', () => {
    const current = new Map([['/api/v1/auth/me', ME]]);
    expect(entry(plan([], current), 'Auth.remove')?.notMeasured).not.toContain('current values');
    const given = plan([], current, [{ method: 'PATCH', url: '/api/v1/auth/me', value: { email: 'x@example.com' } }]);
    expect(entry(given, 'Auth.update')).toMatchObject({
      scenario: null,
      notMeasured: expect.stringContaining('--time-write'),
    });
  });
});

describe('public writes that read no body (vndevteam’s stubs under /forgot-password)', () => {
  const bodiless = (method: string, path: string, handler: string) => ({
    method,
    path,
    handler,
    version: null,
    body: null,
  });
  const routes = [
    bodiless('POST', '/api/v1/auth/forgot-password', 'Auth.forgotPassword'),
    bodiless('POST', '/api/v1/auth/verify/email/resend', 'Auth.resendVerifyEmail'),
    bodiless('POST', '/api/v1/users/me/change-password', 'Users.changePassword'),
    bodiless('POST', `/api/v1/users/:id/reset-password`, 'Users.resetPassword'),
    {
      method: 'POST',
      path: '/api/v1/auth/change-password',
      handler: 'Auth.changePassword',
      version: null,
      body: { schema: { properties: { newPassword: { type: 'string' as const } } }, sources: ['class-validator'] },
    },
  ];
  const plan = (publicWrites?: Set<string>) =>
    planOwnApp({
      discovered: { routes, versioning: null },
      params: { id: USER_ID },
      traffic: null,
      trafficFile: null,
      configScenarios: [],
      headers: SIGNED_IN.headers,
      principal: principalValues(SIGNED_IN),
      publicWrites,
    });
  /** The app: its stubs are public, the signed-in account's own routes refuse a request without the token. */
  const app = () => {
    const sent: { line: string; headers: Record<string, string> }[] = [];
    const client: AppClient = {
      async request(method, path, body, headers = {}) {
        sent.push({ line: `${method} ${path}`, headers });
        const open = path.startsWith('/api/v1/auth/') && body === undefined;
        return open || headers.authorization
          ? { status: 201, headers: {}, body: 'forgot-password' }
          : { status: 401, headers: {}, body: {} };
      },
    };
    return { client, sent };
  };

  it('asks, signed out and with no body, only the bodiless writes whose path names no account of the principal', () => {
    expect(plan().signedOutAsks).toEqual([
      { route: 'POST /api/v1/auth/forgot-password', line: 'POST /api/v1/auth/forgot-password', headers: {} },
      { route: 'POST /api/v1/auth/verify/email/resend', line: 'POST /api/v1/auth/verify/email/resend', headers: {} },
      {
        route: 'POST /api/v1/users/me/change-password',
        line: 'POST /api/v1/users/me/change-password',
        headers: {},
      },
    ]);
  });

  it('times those that answered 2xx signed out, sent signed out; the signed-in account’s own stay protected', async () => {
    const { client, sent } = app();
    const publicWrites = await askSignedOut(client, plan().signedOutAsks);
    expect(sent.every(({ headers }) => !('authorization' in headers))).toBe(true);
    expect([...publicWrites]).toEqual(['POST /api/v1/auth/forgot-password', 'POST /api/v1/auth/verify/email/resend']);
    const planned = plan(publicWrites);
    const entry = (handler: string) => planned.routes.find((r) => r.handler === handler);
    expect(entry('Auth.forgotPassword')).toMatchObject({
      scenario: 'post-api-v1-auth-forgot-password',
      signedOut: true,
    });
    const scenario = planned.scenarios.find((s) => s.name === 'post-api-v1-auth-forgot-password');
    expect(scenario?.headers ?? {}).not.toHaveProperty('authorization');
    expect(entry('Auth.resendVerifyEmail')).toMatchObject({ notMeasured: null, signedOut: true });
    expect(entry('Users.changePassword')?.notMeasured).toMatch(/a password change.*--time-write/);
    expect(entry('Users.resetPassword')?.notMeasured).toMatch(/\/reset-password.*--time-write/);
    expect(entry('Auth.changePassword')?.notMeasured).toMatch(/a password change \(\/change-password\).*--time-write/);
  });
});

describe('ids that name what the sign-in may do', () => {
  const ROLE_ID = '0d7c1a6e-9b1f-4d2a-8e3c-5f6a7b8c9d0e';
  const ORG_ID = '6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d';
  /** kei-k23's admin token: { sub, subjectType, adminId, roleId } */
  const adminToken = `h.${Buffer.from(JSON.stringify({ sub: USER_ID, subjectType: 'ADMIN', adminId: USER_ID, roleId: ROLE_ID })).toString('base64url')}.s`;
  const admin = { headers: { authorization: `Bearer ${adminToken}` }, params: {} };

  it('reads the role id from the token, and a write to that role is not timed', () => {
    const principal = principalValues(admin);
    expect(principal).toContainEqual({ value: ROLE_ID, kind: 'role', source: "the token's roleId" });
    expect(principalChange({ method: 'PATCH', path: '/v1/roles/:id' }, `/v1/roles/${ROLE_ID}`, {}, principal)).toBe(
      `:id is the signed-in account's role (the token's roleId): it changes it`,
    );
  });

  it('leaves a write to another role, and a read of its own, to be timed', () => {
    const principal = principalValues(admin);
    expect(
      principalChange({ method: 'PATCH', path: '/v1/roles/:id' }, '/v1/roles/8f1e2d3c-other', {}, principal),
    ).toBeNull();
    expect(principalChange({ method: 'GET', path: '/v1/roles/:id' }, `/v1/roles/${ROLE_ID}`, {}, principal)).toBeNull();
  });

  it('reads the role and organisation from a /me answer, not the ids of other things in it', () => {
    const witness = {
      path: '/auth/profile',
      status: 200,
      body: {
        success: true,
        data: {
          id: 7,
          email: 'admin@example.com',
          role: { id: 3, name: 'Super Admin', rolePermissions: [{ id: 90 }] },
          organizationId: ORG_ID,
          avatar: { id: 55 },
        },
      },
      varies: [],
    };
    const principal = principalValues({ headers: {}, params: {} }, witness);
    expect(principal).toEqual([
      { value: '7', kind: 'account', source: "GET /auth/profile's data.id" },
      { value: 'admin@example.com', kind: 'account', source: "GET /auth/profile's data.email" },
      { value: '3', kind: 'role', source: "GET /auth/profile's data.role.id" },
      { value: ORG_ID, kind: 'organisation', source: "GET /auth/profile's data.organizationId" },
    ]);
    // a short id names the role only under a roles collection
    expect(
      principalChange({ method: 'PUT', path: '/roles/:id/permissions' }, '/roles/3/permissions', {}, principal),
    ).toMatch(/^:id is the signed-in account's role/);
    expect(principalChange({ method: 'PATCH', path: '/articles/:id' }, '/articles/3', {}, principal)).toBeNull();
    expect(
      principalChange({ method: 'DELETE', path: '/tenants/:id' }, `/tenants/${ORG_ID}`, undefined, principal),
    ).toMatch(/organisation/);
  });

  it('reads a list witness’s answer for nothing: its ids are other accounts’', () => {
    const witness = { path: '/users', status: 200, body: { data: { id: 9 } }, varies: [] };
    expect(principalValues({ headers: {}, params: {} }, witness)).toEqual([]);
  });

  it('takes a role or tenant id from authenticate()’s params', () => {
    expect(principalValues({ headers: {}, params: { tenantId: 'acme', slug: 'x' } })).toEqual([
      { value: 'acme', kind: 'organisation', source: "authenticate()'s params.tenantId" },
    ]);
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

const adminChange = (method: string, path: string, body?: unknown, url = path) =>
  principalChange({ method, path }, url, body, adminPrincipal());

describe('principalChange: a write that names the principal, or changes a name, a role or a right', () => {
  it('a username change of the signed-in account, sent a unique one, is listed', () => {
    expect(adminChange('PATCH', '/user/change-username', { username: 'username{{unique}}' })).toMatch(
      /^a username change \(\/user\/change-username\), and nothing it sends names another account/,
    );
    expect(adminChange('PUT', '/me/username', { username: 'x' })).toMatch(/^a username change/);
    expect(adminChange('POST', '/account/rename', { name: 'x' })).toMatch(/^a name change/);
  });

  it('a role assigned to the principal’s own id is listed, one assigned to another account is sent', () => {
    expect(adminChange('POST', '/role/assign', { userId: 1, roleId: 7 })).toBe(
      "its body's userId is the account authenticate() signed in (the token's sub): it changes it",
    );
    expect(adminChange('POST', '/role/assign', { userId: 7, roleId: 7 })).toBeNull();
    expect(adminChange('POST', '/role/assign', { roleId: 7 })).toMatch(/^a role change \(\/role\/assign\)/);
    expect(adminChange('PUT', '/user/roles', { roles: ['viewer'] })).toMatch(/^a role change/);
  });

  it('a write whose body names the principal by its e-mail or username is listed', () => {
    expect(adminChange('PATCH', '/members/:id', { email: 'admin@example.com' }, '/members/9')).toMatch(
      /^its body's email is the account authenticate\(\) signed in \(GET \/user\/profile's email\)/,
    );
    expect(adminChange('DELETE', '/sessions', { username: 'admin' })).toMatch(/its body's username/);
  });

  it('a create that names its owner by the principal’s id changes no account, nor does a sign-in with its e-mail', () => {
    expect(adminChange('POST', '/orders', { userId: 1, productId: 1 })).toBeNull();
    expect(adminChange('POST', '/auth/login', { email: 'admin@example.com', password: 'pw' })).toBeNull();
  });

  it('creating a role, or a product numbered as the principal, is not a role change', () => {
    expect(adminChange('POST', '/role', { name: 'viewer' })).toBeNull();
    expect(adminChange('PATCH', '/products/:id', { name: 'x' }, '/products/1')).toBeNull();
  });
});

const adminMutation = (name: string, variables: Record<string, unknown>) =>
  mutationPrincipalChange(name, variables, adminPrincipal());

describe('mutationPrincipalChange: a GraphQL mutation judged as a REST write is', () => {
  it('a username or name change of the signed-in account is listed, another entity’s name is not', () => {
    expect(adminMutation('changeUsername', { username: 'username{{unique}}' })).toBe(
      "a username change (mutation changeUsername), and nothing it sends names another account: it changes the signed-in account's",
    );
    expect(adminMutation('updateUserName', { name: 'x' })).toMatch(/^a username change/);
    expect(adminMutation('renameUser', { name: 'x' })).toMatch(/^a name change/);
    expect(adminMutation('updateProductName', { id: 3, name: 'x' })).toBeNull();
  });

  it('a role assigned to the principal’s own id is listed, one assigned to another account is sent', () => {
    expect(adminMutation('assignRole', { userId: 1, roleId: 7 })).toBe(
      "its variables' userId is the account authenticate() signed in (the token's sub): it changes it",
    );
    expect(adminMutation('assignRoleToUser', { input: { userId: 7, roleId: 7 } })).toBeNull();
    expect(adminMutation('grantPermission', { permission: 'x' })).toMatch(/^a permission change/);
    expect(adminMutation('updateUserRoles', { roles: ['viewer'] })).toMatch(/^a role change/);
  });

  it('its own id names the principal only for an entity of its kind: user 1 and role 1, not product 1', () => {
    expect(adminMutation('updateUser', { id: 1, input: { bio: 'x' } })).toBe(
      "its user id is the account authenticate() signed in (the token's sub): it changes it",
    );
    expect(adminMutation('updateRole', { id: '1', input: { name: 'x' } })).toBe(
      "its role id is the signed-in account's role (GET /user/profile's role.id): it changes it",
    );
    expect(adminMutation('updateRole', { id: '5', input: { name: 'x' } })).toBeNull();
    expect(adminMutation('updateProduct', { id: 1, input: { name: 'x' } })).toBeNull();
    expect(adminMutation('updateUser', { where: { id: 1 }, input: { bio: 'x' } })).toMatch(/^its user id is/);
    expect(adminMutation('updateUser', { id: 2, input: { bio: 'x' } })).toBeNull();
  });

  it('the account’s own (updateMe, updateMyProfile) is listed; a write to what it owns is not', () => {
    expect(adminMutation('updateMe', { input: { bio: 'x' } })).toMatch(
      /^mutation updateMe is the signed-in account's own/,
    );
    expect(adminMutation('updateMyProfile', { input: { bio: 'x' } })).toMatch(/is the signed-in account's own/);
    expect(adminMutation('updateMyTeam', { input: { name: 'x' } })).toBeNull();
  });

  it('variables that name the account by its e-mail or prove its password are listed; a sign-in, a create are not', () => {
    expect(adminMutation('updateMember', { id: 9, input: { email: 'admin@example.com' } })).toMatch(
      /^its variables' email is the account authenticate\(\) signed in \(GET \/user\/profile's email\)/,
    );
    expect(adminMutation('updateUser', { input: { currentPassword: 'pw', bio: 'x' } })).toMatch(/a password change/);
    expect(adminMutation('login', { email: 'admin@example.com', password: 'pw' })).toBeNull();
    expect(adminMutation('createOrder', { input: { ownerId: 1, productId: 1 } })).toBeNull();
    expect(adminMutation('createRole', { input: { name: 'viewer' } })).toBeNull();
  });
});
