import { planOwnApp } from '../../../../bench/own-app/routes/app-config.js';
import {
  answeredByCreates,
  entityReferences,
  listRequests,
  resolveIds,
} from '../../../../bench/own-app/routes/id-sources.js';
import { createRoutes, createdKey } from '../../../../bench/own-app/routes/created-ids.js';
import {
  REFUSED_SIGNED_OUT,
  listItems,
  signedOutKey,
  valueFromList,
} from '../../../../bench/own-app/routes/list-answers.js';
import { withValues } from '../../../../bench/own-app/bodies/pinned-values.js';
import { exampleValue } from '../../../../bench/own-app/bodies/example-body.js';
import { tokenClaimValues } from '../../../../bench/own-app/sign-in/principal-values.js';
import type { Route } from '../../../../bench/own-app/routes/discover.js';

const ROLE_ID = '0d4c6a8e-1b2f-4c3d-8e9f-a1b2c3d4e5f6';
const USER_ID = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const OWN_ID = '11111111-2222-4333-8444-555555555555';
/** The signed-in account, as principal.js reads it from the token. */
const SIGNED_IN = { value: OWN_ID, kind: 'account' as const, source: "the token's sub" };

const route = (method: string, path: string, schema?: Route['body']): Route => ({
  method,
  path,
  handler: `${method} ${path}`,
  version: null,
  body: schema ?? null,
});

/** A user DTO as TypeORM boilerplates write it: a relation DTO for the role, a uuid for the photo. */
const CREATE_USER = route('POST', '/api/v1/users', {
  sources: ['class-validator'],
  schema: {
    type: 'object',
    properties: {
      email: { type: 'string', format: 'email' },
      role: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } }, required: ['id'] },
      photoId: { type: 'string', format: 'uuid' },
      teamIds: { type: 'array', items: { type: 'integer' } },
      avatar: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } } },
    },
    required: ['email', 'role', 'photoId'],
  },
});
const ROUTES = [
  route('GET', '/api/v1/roles'),
  route('GET', '/api/v1/users'),
  route('GET', '/api/v1/users/:id'),
  route('GET', '/api/v1/teams'),
  CREATE_USER,
];
const LISTS = new Map<string, unknown>([
  ['/api/v1/roles', [{ id: ROLE_ID, name: 'admin' }]],
  // the signed-in user first, as an admin's list often is
  ['/api/v1/users', { data: [{ id: OWN_ID }, { id: USER_ID }], hasNextPage: false }],
  ['/api/v1/teams', { items: [{ id: 4 }] }],
]);

describe('entityReferences', () => {
  it('names the entity a path parameter, a relation DTO, an *Id field and an id list point at', () => {
    expect(entityReferences(ROUTES[2])).toEqual([
      expect.objectContaining({ kind: 'param', name: 'id', entity: 'user' }),
    ]);
    expect(entityReferences(CREATE_USER).map((r) => [r.name, r.entity, r.many])).toEqual([
      ['role.id', 'role', false],
      ['photoId', 'photo', false],
      ['teamIds', 'team', true],
      ['avatar.id', 'avatar', false],
    ]);
  });
});

describe('an e-mail that must name an existing account', () => {
  const FORGOT = route('POST', '/api/v1/auth/forgot/password', {
    sources: ['class-validator'],
    schema: { type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] },
  });
  const REGISTER = route('POST', '/api/v1/auth/email/register', FORGOT.body!);
  const routes = [route('GET', '/api/v1/users'), FORGOT, REGISTER];
  const users = new Map<string, unknown>([
    [
      '/api/v1/users',
      {
        data: [
          { id: OWN_ID, email: 'admin@example.com' },
          { id: USER_ID, email: 'john@example.com' },
        ],
      },
    ],
  ]);
  const signedIn = [SIGNED_IN, { value: 'admin@example.com', kind: 'account' as const, source: "the token's email" }];

  /** john signed up in this run: the admin alone was there before */
  const before = new Map<string, unknown>([['/api/v1/users', { data: [{ id: OWN_ID, email: 'admin@example.com' }] }]]);

  it('takes a forgot-password’s e-mail from the accounts list, another than the principal’s', () => {
    expect(entityReferences(FORGOT)).toEqual([expect.objectContaining({ name: 'email', entity: 'user' })]);
    const ids = resolveIds({ routes, lists: users, preexisting: before, params: {}, principal: signedIn });
    expect(ids.get(FORGOT)?.fields).toEqual({ email: 'john@example.com' });
    expect(exampleValue(withValues(FORGOT.body!.schema, ids.get(FORGOT)!.fields))).toEqual({
      email: 'john@example.com',
    });
  });

  it('never an account that was there before the run: a reset sets its password (issue 52 §2)', () => {
    // Tony133's forgot-password sets a random password on the account its e-mail names
    const ids = resolveIds({ routes, lists: users, preexisting: users, params: {}, principal: signedIn });
    expect(ids.get(FORGOT)).toMatchObject({ fields: {}, lacking: [routes[0]] });
    expect(createRoutes(ids, routes)).toEqual([{ list: routes[0], create: REGISTER }]);
  });

  it('leaves a sign-up’s e-mail to be made up: it must be new', () => {
    expect(entityReferences(REGISTER)).toEqual([]);
  });
});

describe('list answers', () => {
  it('finds the items in a bare list, under data or items, and in edges', () => {
    expect(listItems([{ id: 1 }])).toEqual([{ id: 1 }]);
    expect(listItems({ data: [{ id: 2 }], total: 1 })).toEqual([{ id: 2 }]);
    expect(listItems({ data: { items: [{ id: 3 }] } })).toEqual([{ id: 3 }]);
    expect(listItems({ edges: [{ node: { id: 4 } }] })).toEqual([{ id: 4 }]);
    expect(listItems({ ok: true })).toEqual([]);
  });

  it('skips the signed-in account when another item is there', () => {
    expect(valueFromList(LISTS.get('/api/v1/users'), ['id'], [OWN_ID])).toBe(USER_ID);
    expect(valueFromList([{ id: OWN_ID }], ['id'], [OWN_ID])).toBe(OWN_ID);
    // a write never takes the account's own
    expect(valueFromList([{ id: OWN_ID }], ['id'], [OWN_ID], true)).toBeNull();
  });

  it('asks each list route once', () => {
    expect(listRequests(ROUTES, {}).sort()).toEqual(['/api/v1/roles', '/api/v1/teams', '/api/v1/users']);
    expect(listRequests(ROUTES, { id: '9' })).not.toContain('/api/v1/users');
  });
});

describe('resolveIds', () => {
  const ids = resolveIds({ routes: ROUTES, lists: LISTS, params: {}, principal: [SIGNED_IN] });

  it('fills a path parameter from its collection’s list', () => {
    expect(ids.get(ROUTES[2])?.params).toEqual({ id: USER_ID });
  });

  it('fills a relation DTO, an id list, says which required reference found no list, and leaves out an optional one', () => {
    expect(ids.get(CREATE_USER)).toEqual({
      params: {},
      fields: { 'role.id': ROLE_ID, teamIds: 4 },
      unfilled: ['photoId names an existing photo (no GET route lists photos): give --params photoId=VALUE'],
      omit: ['avatar'],
      lacking: [],
      creates: [],
    });
    const body = exampleValue(withValues(CREATE_USER.body!.schema, {}, ['avatar'])) as Record<string, unknown>;
    expect(body).not.toHaveProperty('avatar');
    expect(body).toHaveProperty('photoId');
  });

  it('takes a field from --params by its path or camel name, over the list', () => {
    const given = resolveIds({ routes: ROUTES, lists: LISTS, params: { roleId: 'r1', photoId: 'p1' } });
    expect(given.get(CREATE_USER)?.fields).toMatchObject({ 'role.id': 'r1', photoId: 'p1' });
  });

  it('never points a write’s path at what the sign-in’s token carries (its role), where reads and a body field may', () => {
    const token = `h.${Buffer.from(JSON.stringify({ sub: OWN_ID, roleId: ROLE_ID })).toString('base64url')}.s`;
    const claims = tokenClaimValues({ authorization: `Bearer ${token}` });
    expect(claims).toEqual([OWN_ID, ROLE_ID]);
    const roleRoutes = [
      route('GET', '/api/v1/roles'),
      route('GET', '/api/v1/roles/:id'),
      route('PATCH', '/api/v1/roles/:id'),
      CREATE_USER,
    ];
    const own = resolveIds({
      routes: roleRoutes,
      lists: LISTS,
      preexisting: LISTS,
      params: {},
      principal: [SIGNED_IN],
      claims,
    });
    expect(own.get(roleRoutes[1])?.params).toEqual({ id: ROLE_ID });
    expect(own.get(roleRoutes[2])).toMatchObject({
      params: {},
      unfilled: [
        ":id names an existing role (GET /api/v1/roles listed only rows that were there before the run, and no POST /api/v1/roles made one of the bench's own): PATCH /api/v1/roles/:id would change your data; give --params id=VALUE for a row you can lose",
      ],
      lacking: [roleRoutes[0]],
    });
    expect(own.get(CREATE_USER)?.fields).toMatchObject({ 'role.id': ROLE_ID });
  });

  it('names which of the principal’s values the list held, and where it was read', () => {
    const role = { value: ROLE_ID, kind: 'role' as const, source: "GET /auth/profile's data.role.id" };
    const roleRoutes = [route('GET', '/api/v1/roles'), route('PATCH', '/api/v1/roles/:id')];
    const own = resolveIds({
      routes: roleRoutes,
      lists: LISTS,
      preexisting: LISTS,
      params: {},
      principal: [SIGNED_IN, role],
    });
    expect(own.get(roleRoutes[1])?.unfilled[0]).toMatch(
      /^:id names an existing role \(GET \/api\/v1\/roles listed only the signed-in principal's own \(GET \/auth\/profile's data\.role\.id\) and rows that were there before the run\): give --params id=VALUE for another role, or --time-write 'PATCH \/api\/v1\/roles\/:id'/,
    );
  });

  it('reads an int id as the principal’s own only where the list differs by principal, never because numbers are equal', () => {
    // user 1 signed in (the token's sub); role 1 is a role the bench made, numbered as the accounts are
    const token = `h.${Buffer.from(JSON.stringify({ sub: 1 })).toString('base64url')}.s`;
    const claims = tokenClaimValues({ authorization: `Bearer ${token}` });
    const principal = [{ value: '1', kind: 'account' as const, source: "the token's sub" }];
    const roleRoutes = [route('GET', '/roles'), route('PATCH', '/roles/:id')];
    const made = (signedOut: unknown) =>
      resolveIds({
        routes: roleRoutes,
        lists: new Map<string, unknown>([
          ['/roles', [{ id: 1 }]],
          [signedOutKey('/roles'), signedOut],
        ]),
        preexisting: new Map([['/roles', []]]),
        params: {},
        principal,
        claims,
      }).get(roleRoutes[1]);
    expect(made([{ id: 1 }])?.params).toEqual({ id: '1' });
    expect(made(REFUSED_SIGNED_OUT)?.params).toEqual({ id: '1' });

    // the accounts list: user 1 and 2, there before the run
    const userRoutes = [route('GET', '/users'), route('PATCH', '/users/:id')];
    const users = [{ id: 1 }, { id: 2 }];
    const held = (signedOut: unknown) =>
      resolveIds({
        routes: userRoutes,
        lists: new Map<string, unknown>([
          ['/users', users],
          [signedOutKey('/users'), signedOut],
        ]),
        preexisting: new Map([['/users', users]]),
        params: {},
        principal,
        claims,
      }).get(userRoutes[1])?.unfilled[0];
    expect(held(users)).toContain('GET /users listed only rows that were there before the run');
    expect(held([{ id: 2 }])).toContain(
      "GET /users listed only the signed-in principal's own (the token's sub) and rows that were there before the run",
    );
  });

  it('gives a write the id its list’s create answered where the list does not show that row, and never says no create made one', () => {
    const userRoutes = [route('GET', '/users'), route('POST', '/users'), route('PATCH', '/users/:id')];
    const before = [{ id: 1, status: 'ACTIVATE' }];
    const patch = (created?: unknown, principal = [] as (typeof SIGNED_IN)[]) =>
      resolveIds({
        routes: userRoutes,
        lists: new Map<string, unknown>([
          ['/users', before],
          ...(created === undefined ? [] : [[createdKey('/users'), created] as [string, unknown]]),
        ]),
        preexisting: new Map([['/users', before]]),
        params: {},
        principal,
      }).get(userRoutes[2]);
    expect(patch({ id: 8, status: 'status1' })?.params).toEqual({ id: '8' });
    expect(patch()?.unfilled[0]).toContain("and no POST /users made one of the bench's own");
    const named = patch({ ok: true })?.unfilled[0];
    expect(named).toContain('and the create the bench sent for it answered no id, _id, uuid a write could take');
    expect(named).not.toContain('no POST /users made one');
    // the principal's own, or a row listed before the run, is never taken for a write, whatever a create answered
    expect(patch({ id: 1 })?.params).toEqual({});
    expect(patch({ id: 7 }, [{ ...SIGNED_IN, value: '7' }])?.params).toEqual({});
  });

  it('gives a --time-write write the principal’s own id when the list holds nothing else', () => {
    const roleRoutes = [route('GET', '/api/v1/roles'), route('PATCH', '/api/v1/roles/:id')];
    const timed = resolveIds({
      routes: roleRoutes,
      lists: LISTS,
      params: {},
      principal: [{ value: ROLE_ID, kind: 'role', source: "the token's roleId" }],
      timeWrites: ['PATCH /api/v1/roles/:id'],
    });
    expect(timed.get(roleRoutes[1])?.params).toEqual({ id: ROLE_ID });
  });

  it('puts the values in the derived body, typed as the field wants', () => {
    const body = exampleValue(withValues(CREATE_USER.body!.schema, { 'role.id': ROLE_ID, teamIds: '4' })) as Record<
      string,
      unknown
    >;
    expect(body.role).toEqual({ id: ROLE_ID });
    expect(body.teamIds).toEqual([4]);
  });
});

describe('createRoutes: what can make an id a list lacked', () => {
  const routes = [
    route('GET', '/api/articles'),
    route('GET', '/api/articles/:slug'),
    route('POST', '/api/articles'),
    route('GET', '/api/tags'),
    route('GET', '/api/tags/:id'),
    route('GET', '/api/roles'),
    route('PATCH', '/api/roles/:id'),
    route('POST', '/api/roles'),
  ];

  it('pairs a list that was empty, or held only the principal’s own, with the POST to its path', () => {
    const lists = new Map<string, unknown>([
      ['/api/articles', { data: [] }],
      ['/api/tags', []],
      ['/api/roles', [{ id: ROLE_ID }]],
    ]);
    const ids = resolveIds({ routes, lists, preexisting: lists, params: {}, principal: [], claims: [ROLE_ID] });
    expect(createRoutes(ids, routes)).toEqual([
      { list: routes[0], create: routes[2] },
      { list: routes[5], create: routes[7] },
    ]);
  });

  it('asks for none when each list gave what its routes need, or did not answer at all', () => {
    const lists = new Map<string, unknown>([['/api/roles', [{ id: ROLE_ID }, { id: 'made-by-the-bench' }]]]);
    const preexisting = new Map<string, unknown>([['/api/roles', [{ id: ROLE_ID }]]]);
    expect(createRoutes(resolveIds({ routes, lists, preexisting, params: {}, claims: [ROLE_ID] }), routes)).toEqual([]);
  });
});

describe('a parameter no GET route lists, from what its create answered', () => {
  // brocoders/nestjs-boilerplate's local files: an upload, and a read of the file it stored, with no list between
  const UPLOAD = route('POST', '/api/v1/files/upload');
  const READ = route('GET', '/api/v1/files/:path');
  const FILES = [UPLOAD, READ];

  it('asks the upload once, since its answer names the file', () => {
    expect(answeredByCreates(FILES)).toBe(true);
    expect(resolveIds({ routes: FILES, lists: new Map(), params: {} }).get(READ)).toMatchObject({
      creates: [UPLOAD],
      unfilled: [expect.stringContaining('POST /api/v1/files/upload was not asked')],
    });
  });

  it('takes the segment after the collection from the link the upload answered', () => {
    const answer = { file: { id: 'f1', path: 'http://localhost:3001/api/v1/files/a1b2.gif' } };
    const lists = new Map([[createdKey('/api/v1/files/upload'), answer]]);
    expect(resolveIds({ routes: FILES, lists, params: {} }).get(READ)).toMatchObject({
      params: { path: 'a1b2.gif' },
      creates: [],
      unfilled: [],
    });
  });

  it('says the upload answered nothing it could take', () => {
    const lists = new Map([[createdKey('/api/v1/files/upload'), { ok: true }]]);
    expect(resolveIds({ routes: FILES, lists, params: {} }).get(READ)?.unfilled).toEqual([
      ':path names an existing file (no GET route lists files; POST /api/v1/files/upload answered none under path): give --params path=VALUE',
    ]);
  });

  it('never takes a POST under the collection that makes nothing (a logout, a refresh) for one', () => {
    const auth = [
      route('POST', '/api/v1/auth/logout'),
      route('POST', '/api/v1/auth/refresh'),
      route('GET', '/api/v1/auth/:provider'),
    ];
    expect(answeredByCreates(auth)).toBe(false);
  });

  it('leaves a parameter its collection lists to the list', () => {
    expect(answeredByCreates(ROUTES)).toBe(false);
  });
});

describe('a list route found by its path, not its collection alone', () => {
  it('fills GET /products/:id from GET /product, the list of another controller named for the entity in the singular', () => {
    const routes = [route('GET', '/product'), route('GET', '/products/:id')];
    const lists = new Map<string, unknown>([['/product', [{ id: 42, name: 'tea' }]]]);
    expect(resolveIds({ routes, lists, params: {} }).get(routes[1])?.params).toEqual({ id: '42' });
  });

  it('asks each list named for the entity, and takes the id from the one whose answer holds one', () => {
    const routes = [route('GET', '/products'), route('GET', '/catalog/product'), route('GET', '/products/:id')];
    expect(listRequests(routes, {})).toEqual(['/products', '/catalog/product']);
    // the collection answers a count, not a list: its name alone gives no id
    const lists = new Map<string, unknown>([
      ['/products', { total: 1 }],
      ['/catalog/product', { items: [{ id: 7, name: 'tea' }] }],
    ]);
    expect(resolveIds({ routes, lists, params: {} }).get(routes[2])?.params).toEqual({ id: '7' });
  });
});

describe('planOwnApp with ids from the app', () => {
  const plan = (lists: Map<string, unknown>) =>
    planOwnApp({
      discovered: { routes: ROUTES, versioning: null },
      params: {},
      traffic: null,
      trafficFile: null,
      configScenarios: [],
      ids: resolveIds({ routes: ROUTES, lists, params: {}, principal: [SIGNED_IN] }),
    });

  it('measures GET /users/:id with an id the list answered, and the write with the role it listed', () => {
    const p = plan(LISTS);
    expect(p.routes.find((r) => r.path === '/api/v1/users/:id')?.request).toBe(`GET /api/v1/users/${USER_ID}`);
    const write = p.scenarios.find((s) => s.name === 'post-api-v1-users') as { body: { role: unknown } } | undefined;
    expect(write?.body.role).toEqual({ id: ROLE_ID });
  });

  it('says why a parameter stayed empty when its list had nothing, with the flag', () => {
    const entry = plan(new Map()).routes.find((r) => r.path === '/api/v1/users/:id');
    expect(entry?.notMeasured).toBe(
      ':id names an existing user (GET /api/v1/users listed none): give --params id=VALUE',
    );
  });
});

describe('the sign-in route’s body', () => {
  const LOGIN = route('POST', '/api/v1/auth/login', {
    sources: ['class-validator'],
    schema: { type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] },
  });
  const plan = (bodies: { method: string; url: string; value: unknown; source?: 'authenticate()' }[]) =>
    planOwnApp({
      discovered: { routes: [LOGIN], versioning: null },
      params: {},
      traffic: null,
      trafficFile: null,
      configScenarios: [],
      bodies,
    });
  const signedInWith = {
    method: 'POST',
    url: '/api/v1/auth/login',
    value: { email: 'a@b.c' },
    source: 'authenticate()' as const,
  };

  it('is the one authenticate() signed in with, said so, where the derived one would be refused', () => {
    const p = plan([signedInWith]);
    expect(p.routes[0]).toMatchObject({ body: 'authenticate()', scenario: 'post-api-v1-auth-login' });
    expect(p.scenarios[0]).toMatchObject({ body: { email: 'a@b.c' } });
  });

  it('is --body’s when both give one', () => {
    const p = plan([{ method: 'POST', url: '/api/v1/auth/login', value: { email: 'x@y.z' } }, signedInWith]);
    expect(p.routes[0]).toMatchObject({ body: '--body' });
    expect(p.scenarios[0]).toMatchObject({ body: { email: 'x@y.z' } });
  });
});

describe('resolveIds: the user’s rows are read, never written', () => {
  const list = { method: 'GET', path: '/category', handler: 'Category.list', version: null };
  const read = { method: 'GET', path: '/category/:uuid', handler: 'Category.one', version: null };
  const write = { method: 'PUT', path: '/category/:uuid', handler: 'Category.update', version: null };
  const create = { method: 'POST', path: '/category', handler: 'Category.create', version: null };
  const theirs = {
    data: [
      { uuid: '3dbdc5ea-learning', status: 'todo' },
      { uuid: '495de618-chores', status: 'todo' },
    ],
  };
  const status = { method: 'PUT', path: '/category/:uuid/:status', handler: 'Category.status', version: null };
  const routes = [list, read, write, create];

  it('a write takes no row that was there before the run: its list is to get one the bench made', () => {
    const first = new Map([['/category', theirs]]);
    const ids = resolveIds({ routes, lists: first, preexisting: first, params: {} });
    expect(ids.get(read)?.params).toEqual({ uuid: '3dbdc5ea-learning' });
    expect(ids.get(write)?.params).toEqual({});
    expect(ids.get(write)?.lacking).toEqual([list]);
    expect(ids.get(write)?.unfilled[0]).toBe(
      ":uuid names an existing category (GET /category listed only rows that were there before the run, and no POST /category made one of the bench's own): PUT /category/:uuid would change your data; give --params uuid=VALUE for a row you can lose",
    );
  });

  it('a value after the row’s own id (/:uuid/:status) names no row: it is taken as listed', () => {
    const relisted = new Map([['/category', { data: [...theirs.data, { uuid: 'b4be3ba8-made', status: 'todo' }] }]]);
    const ids = resolveIds({
      routes: [list, status, create],
      lists: relisted,
      preexisting: new Map([['/category', theirs]]),
      params: {},
    });
    expect(ids.get(status)?.params).toEqual({ uuid: 'b4be3ba8-made', status: 'todo' });
  });

  it('once the bench made one, the write takes it', () => {
    const relisted = { data: [...theirs.data, { uuid: 'b4be3ba8-made-by-bench' }] };
    const ids = resolveIds({
      routes,
      lists: new Map([['/category', relisted]]),
      preexisting: new Map([['/category', theirs]]),
      params: {},
    });
    expect(ids.get(write)?.params).toEqual({ uuid: 'b4be3ba8-made-by-bench' });
  });
});

describe('resolveIds: a write changes only a row the bench made (issue 52 §2)', () => {
  const named = route('GET', '/product');
  const patch = route('PATCH', '/products/:id');
  const read = route('GET', '/products/:id');
  const theirs = [{ id: 1 }, { id: 2 }];

  it('takes no row that was there before from a list named for the entity, not only from its collection', () => {
    const first = new Map<string, unknown>([['/product', theirs]]);
    const ids = resolveIds({ routes: [named, read, patch], lists: first, preexisting: first, params: {} });
    expect(ids.get(read)?.params).toEqual({ id: '1' });
    expect(ids.get(patch)).toMatchObject({ params: {}, lacking: [named] });
    const relisted = new Map<string, unknown>([['/product', [...theirs, { id: 3 }]]]);
    expect(
      resolveIds({ routes: [named, patch], lists: relisted, preexisting: first, params: {} }).get(patch)?.params,
    ).toEqual({ id: '3' });
  });

  it('takes nothing from a list that did not answer before the bench made anything: its rows cannot be told apart', () => {
    const lists = new Map<string, unknown>([['/product', theirs]]);
    const ids = resolveIds({ routes: [named, patch], lists, preexisting: new Map(), params: {} });
    expect(ids.get(patch)).toMatchObject({ params: {}, lacking: [] });
    expect(ids.get(patch)?.unfilled[0]).toBe(
      ":id names an existing product (GET /product did not answer before the bench made anything, so the rows that were there before the run cannot be told from the bench's own): PATCH /products/:id could change your data; give --params id=VALUE for a row you can lose",
    );
  });

  it('makes an account with the app’s sign-up where no POST goes to the list of accounts', () => {
    const users = route('GET', '/api/users');
    const update = route('PUT', '/api/users/:userId');
    const register = route('POST', '/api/auth/register');
    const routes = [users, update, route('POST', '/api/auth/login'), register];
    const first = new Map<string, unknown>([['/api/users', [{ id: 1 }]]]);
    const ids = resolveIds({ routes, lists: first, preexisting: first, params: {} });
    expect(createRoutes(ids, routes)).toEqual([{ list: users, create: register }]);
    const products = [route('GET', '/product'), patch, register];
    const theirProducts = new Map<string, unknown>([['/product', theirs]]);
    const productIds = resolveIds({ routes: products, lists: theirProducts, preexisting: theirProducts, params: {} });
    expect(createRoutes(productIds, products)).toEqual([]);
  });
});

describe('an account no GET route lists, from the bench’s own sign-up (issue 52 §2)', () => {
  // RealWorld: GET /api/profiles/:username and its follow; POST /api/users signs up and answers { user: { username } }
  const signUp = route('POST', '/api/users');
  const profile = route('GET', '/api/profiles/:username');
  const follow = route('POST', '/api/profiles/:username/follow');
  const routes = [route('POST', '/api/users/login'), signUp, profile, follow];

  it('asks the sign-up once, and takes the username its answer names', () => {
    expect(resolveIds({ routes, lists: new Map(), params: {} }).get(follow)).toMatchObject({ creates: [signUp] });
    const answer = { user: { username: 'username1x2y', email: 'a1x2y@example.com', token: 'h.p.s' } };
    const lists = new Map([[createdKey('/api/users'), answer]]);
    const ids = resolveIds({ routes, lists, params: {} });
    expect(ids.get(profile)?.params).toEqual({ username: 'username1x2y' });
    expect(ids.get(follow)?.params).toEqual({ username: 'username1x2y' });
  });
});
