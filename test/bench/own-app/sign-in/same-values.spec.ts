import type { AppClient } from '../../../../bench/own-app/sign-in/authenticate.js';
import type { BodySchema } from '../../../../bench/own-app/bodies/body-schema.js';
import type { Route } from '../../../../bench/own-app/routes/discover.js';
import { resolveIds } from '../../../../bench/own-app/routes/id-sources.js';
import {
  currentValuesBody,
  currentValuesChanged,
  currentValuesRequests,
  keepValuesOthersRead,
  madeFrom,
  signInFieldNames,
} from '../../../../bench/own-app/sign-in/same-values.js';

const USER_ID = '3f0e9c57-2a51-4f7e-9a54-6f1d2b3c4d5e';

/** brocoders' AuthUpdateDto: what PATCH /auth/me takes. */
const PROFILE: BodySchema = {
  type: 'object',
  properties: {
    photo: { type: 'object', properties: { id: { type: 'string' } } },
    firstName: { type: 'string' },
    lastName: { type: 'string' },
    email: { type: 'string', format: 'email' },
    password: { type: 'string', minLength: 6 },
    oldPassword: { type: 'string' },
  },
};
const write = (method: string, path: string, schema: BodySchema): Route => ({
  method,
  path,
  handler: `${method} ${path}`,
  version: null,
  body: { schema, sources: ['class-validator'] },
});
/** GET /auth/me's answer: the account as it is. */
const ME = {
  id: USER_ID,
  email: 'admin@example.com',
  firstName: 'Super',
  lastName: 'Admin',
  photo: null,
  role: { id: 1, name: 'Admin' },
  updatedAt: '2026-11-27T06:00:00.000Z',
};

describe('currentValuesBody: a body that changes nothing', () => {
  it('sets each field the DTO takes to what GET of the same path answers, leaving out what signs in', () => {
    expect(currentValuesBody(write('PATCH', '/api/v1/auth/me', PROFILE), ME)).toEqual({
      value: { firstName: 'Super', lastName: 'Admin' },
    });
  });

  it('reads the entity where the answer wraps it ({ success, data })', () => {
    const body = currentValuesBody(write('PATCH', '/api/v1/auth/profile', PROFILE), { success: true, data: ME });
    expect(body).toEqual({ value: { firstName: 'Super', lastName: 'Admin' } });
  });

  it('leaves out the fields authenticate()’s sign-in sends, whatever their name', () => {
    const schema: BodySchema = { properties: { handle: { type: 'string' }, bio: { type: 'string' } } };
    const body = currentValuesBody(write('PATCH', '/me', schema), { handle: 'root', bio: 'hi' }, ['handle']);
    expect(body).toEqual({ value: { bio: 'hi' } });
  });

  it('sends a relation as its id, and a list of them as ids', () => {
    const schema: BodySchema = {
      properties: {
        photo: { type: 'object', properties: { id: { type: 'string' } } },
        tags: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } },
      },
    };
    const answer = {
      photo: { id: 'p1', path: '/a.png' },
      tags: [
        { id: 1, name: 'a' },
        { id: 2, name: 'b' },
      ],
    };
    expect(currentValuesBody(write('PATCH', '/me', schema), answer)).toEqual({
      value: { photo: { id: 'p1' }, tags: [{ id: 1 }, { id: 2 }] },
    });
  });

  it('is refused when the answer does not hold a list the DTO takes: a handler may read its absence as none', () => {
    const schema: BodySchema = {
      properties: { name: { type: 'string' }, permissionIds: { type: 'array', items: { type: 'string' } } },
    };
    const answer = { name: 'Admin', rolePermissions: [{ permission: { id: 'p' } }] };
    expect(currentValuesBody(write('PATCH', '/roles/:id', schema), answer)).toEqual({
      why: 'GET /roles/:id does not answer permissionIds as its body takes it',
    });
  });

  it('lets a PATCH leave out an optional relation the answer leaves out altogether, never a required one or in a PUT', () => {
    // brocoders' GET /auth/me drops a null photo from its answer, so PATCH /auth/me stayed protected
    const { photo: _photo, ...withoutPhoto } = ME;
    expect(currentValuesBody(write('PATCH', '/api/v1/auth/me', PROFILE), withoutPhoto)).toEqual({
      value: { firstName: 'Super', lastName: 'Admin' },
    });
    expect(
      currentValuesBody(write('PATCH', '/api/v1/auth/me', { ...PROFILE, required: ['photo'] }), withoutPhoto),
    ).toEqual({
      why: 'GET /api/v1/auth/me does not answer photo as its body takes it',
    });
    expect(currentValuesBody(write('PUT', '/api/v1/auth/me', PROFILE), withoutPhoto)).toMatchObject({
      why: expect.stringContaining('photo'),
    });
    // a relation the answer holds as something else than { id } is no value to send, and not left out
    expect(currentValuesBody(write('PATCH', '/api/v1/auth/me', PROFILE), { ...ME, photo: 'a.png' })).toEqual({
      why: 'GET /api/v1/auth/me does not answer photo as its body takes it',
    });
  });

  it('lets a PATCH leave out a plain field the answer lacks, but not a PUT, which replaces the whole', () => {
    const schema: BodySchema = { properties: { firstName: { type: 'string' }, nickname: { type: 'string' } } };
    expect(currentValuesBody(write('PATCH', '/me', schema), { firstName: 'A' })).toEqual({
      value: { firstName: 'A' },
    });
    expect(currentValuesBody(write('PUT', '/me', schema), { firstName: 'A' })).toEqual({
      why: 'GET /me does not answer nickname as its body takes it',
    });
  });

  it('takes a wrapped body’s fields from the same object in the answer, a PUT sending the nulls it holds', () => {
    // RealWorld's PUT /api/user: `{ user: { username, email, password, bio, image } }`, GET /api/user the same
    const schema: BodySchema = {
      properties: {
        user: {
          type: 'object',
          properties: {
            username: { type: 'string' },
            email: { type: 'string', format: 'email' },
            password: { type: 'string', minLength: 6 },
            bio: { type: 'string' },
            image: { type: 'string' },
          },
        },
      },
    };
    const answer = { user: { username: 'jake', email: 'jake@jake.jake', token: 'jwt', bio: 'I work', image: null } };
    expect(currentValuesBody(write('PUT', '/api/user', schema), answer)).toEqual({
      value: { user: { bio: 'I work', image: null } },
    });
    expect(currentValuesBody(write('PATCH', '/api/user', schema), answer)).toEqual({
      value: { user: { bio: 'I work' } },
    });
  });

  it('leaves out what a wrapped sign-in sends, not its wrapper (RealWorld signs in with { user: { email, password } })', () => {
    const schema: BodySchema = {
      properties: { user: { type: 'object', properties: { handle: { type: 'string' }, bio: { type: 'string' } } } },
    };
    const signIn = signInFieldNames({ user: { handle: 'jake', password: 'pw' } });
    expect(signIn).toEqual(['handle', 'password']);
    expect(
      currentValuesBody(write('PUT', '/api/user', schema), { user: { handle: 'jake', bio: 'I work' } }, signIn),
    ).toEqual({ value: { user: { bio: 'I work' } } });
  });

  it('is refused when every field it could send signs in', () => {
    const schema: BodySchema = { properties: { email: { type: 'string' }, password: { type: 'string' } } };
    expect(currentValuesBody(write('PATCH', '/me', schema), ME)).toEqual({
      why: 'every field its body takes that GET /me answers signs in (a password, an e-mail)',
    });
  });
});

describe('currentValuesRequests', () => {
  it('asks the GET at each PATCH or PUT’s own path, filled as the write is', () => {
    const routes: Route[] = [
      { method: 'GET', path: '/me', handler: 'me', version: null },
      write('PATCH', '/me', PROFILE),
      { method: 'GET', path: '/roles/:id', handler: 'role', version: null },
      write('PATCH', '/roles/:id', PROFILE),
      write('PATCH', '/settings', PROFILE),
    ];
    const params = (route: Route): Record<string, string> => (route.path === '/roles/:id' ? { id: '7' } : {});
    expect(currentValuesRequests(routes, params)).toEqual(['/me', '/roles/7']);
  });
});

describe('keepValuesOthersRead: a write to another account leaves what other routes send of it', () => {
  const USERS = [
    { id: 1, email: 'admin@example.com', firstName: 'Super' },
    { id: 2, email: 'john.doe@example.com', firstName: 'John' },
  ];
  const userSchema: BodySchema = {
    properties: { email: { type: 'string', format: 'email' }, firstName: { type: 'string' } },
  };
  const forgot = write('POST', '/auth/forgot/password', { properties: { email: { type: 'string', format: 'email' } } });
  const update = write('PATCH', '/users/:id', userSchema);
  const list: Route = { method: 'GET', path: '/users', handler: 'list', version: null };
  const kept = (routes: Route[]) => {
    const lists = new Map<string, unknown>([['/users', { data: USERS }]]);
    const principal = [
      { value: '1', kind: 'account' as const, source: "the token's id" },
      { value: 'admin@example.com', kind: 'account' as const, source: "GET /auth/me's email" },
    ];
    // user 2 is one the bench made: it was not there before the run
    const preexisting = new Map<string, unknown>([['/users', { data: [USERS[0]] }]]);
    const ids = resolveIds({ routes, lists, preexisting, params: {}, principal });
    return keepValuesOthersRead({ ids, routes, lists, params: {} }).get(update);
  };

  it('leaves out the e-mail of the user PATCH /users/:id changes when forgot-password sends that e-mail', () => {
    // brocoders answers 422 emailAlreadyExists to a user's own e-mail (its id compared as a string to a number)
    expect(kept([list, update, forgot])).toMatchObject({ params: { id: '2' }, fields: {}, omit: ['email'] });
  });

  it('sends a PUT, which replaces the whole, the e-mail the user holds', () => {
    const replace = write('PUT', '/users/:id', userSchema);
    const routes = [list, replace, forgot];
    const lists = new Map<string, unknown>([['/users', { data: USERS }]]);
    const principal = [
      { value: '1', kind: 'account' as const, source: "the token's id" },
      { value: 'admin@example.com', kind: 'account' as const, source: "GET /auth/me's email" },
    ];
    const preexisting = new Map<string, unknown>([['/users', { data: [USERS[0]] }]]);
    const ids = resolveIds({ routes, lists, preexisting, params: {}, principal });
    expect(keepValuesOthersRead({ ids, routes, lists, params: {} }).get(replace)?.fields).toEqual({
      email: 'john.doe@example.com',
    });
  });

  it('leaves the body derived when no other route takes a value from that user', () => {
    expect(kept([list, update])).toMatchObject({ fields: {}, omit: [] });
  });
});

describe('keepValuesOthersRead: a write keeps what its path id is made from', () => {
  /** RealWorld's UpdateArticleReqDto: `{ article: { title, description, body, tagList } }`, each optional. */
  const ARTICLE: BodySchema = {
    type: 'object',
    required: ['article'],
    properties: {
      article: {
        type: 'object',
        properties: {
          title: { type: 'string' },
          description: { type: 'string' },
          body: { type: 'string' },
          tagList: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  };
  const SLUG = 'how-to-train-your-dragon-x1b2c3';
  const HELD = {
    slug: SLUG,
    title: 'How to Train Your Dragon',
    description: 'Ever wonder how?',
    body: 'It takes a Jacobian',
    tagList: [],
  };
  const list: Route = { method: 'GET', path: '/api/articles', handler: 'Articles.findAll', version: null };
  const read: Route = { method: 'GET', path: '/api/articles/:slug', handler: 'Articles.getArticle', version: null };
  const comments: Route = {
    method: 'GET',
    path: '/api/articles/:slug/comments',
    handler: 'Articles.getComments',
    version: null,
  };
  /** The same as class-validator reads RealWorld's UpdateArticleDto: it requires none of them (@IsOptional). */
  const OPTIONAL: BodySchema = {
    ...ARTICLE,
    properties: { article: { ...ARTICLE.properties!.article, required: [] } },
  };
  const keptFor = (
    method: string,
    given: { lists?: [string, unknown][]; params?: Record<string, string>; current?: [string, unknown][] },
    schema: BodySchema = ARTICLE,
  ) => {
    const update = write(method, '/api/articles/:slug', schema);
    const routes = [list, read, comments, update];
    const lists = new Map<string, unknown>(given.lists ?? []);
    const params = given.params ?? {};
    // the articles listed are the bench's own: there were none before the run
    const preexisting = new Map<string, unknown>([['/api/articles', { articles: [] }]]);
    const ids = resolveIds({ routes, lists, preexisting, params });
    return keepValuesOthersRead({ ids, routes, lists, params, current: new Map(given.current ?? []) }).get(update);
  };

  it('sends a PUT the title its slug is made from, so the slug still names the article after it', () => {
    const kept = keptFor('PUT', { lists: [['/api/articles', { articles: [HELD], articlesCount: 1 }]] });
    expect(kept).toMatchObject({ params: { slug: SLUG }, fields: { 'article.title': 'How to Train Your Dragon' } });
    expect(Object.keys(kept?.fields ?? {})).toEqual(['article.title']);
  });

  it('leaves an optional title out of a PUT: RealWorld makes a new slug from any title it is sent, its own too', () => {
    const kept = keptFor('PUT', { lists: [['/api/articles', { articles: [HELD], articlesCount: 1 }]] }, OPTIONAL);
    expect(kept).toMatchObject({ params: { slug: SLUG }, fields: {}, omit: ['article.title'] });
  });

  it('leaves the title out of a PATCH', () => {
    const kept = keptFor('PATCH', { lists: [['/api/articles', { articles: [HELD] }]] });
    expect(kept).toMatchObject({ fields: {}, omit: ['article.title'] });
  });

  it('reads the article from the GET at the write’s path where authenticate() gave the slug', () => {
    const kept = keptFor('PUT', {
      params: { slug: SLUG },
      // as RealWorld answers it, beside the signed-in account
      current: [[`/api/articles/${SLUG}`, { article: HELD, currentUser: { id: 8, username: 'jake', bio: null } }]],
    });
    expect(kept?.fields).toEqual({ 'article.title': 'How to Train Your Dragon' });
  });

  it('leaves the derived body as it is where no field makes the id', () => {
    const other = { ...HELD, slug: 'article-17' };
    expect(keptFor('PUT', { lists: [['/api/articles', { articles: [other] }]] })).toMatchObject({
      fields: {},
      omit: [],
    });
  });
});

describe('madeFrom: an id made from a value', () => {
  it('finds a title in its slug, punctuation and case aside', () => {
    expect(madeFrom('whats-new-in-nest-11-ab12cd', "What's New in Nest 11?")).toBe(true);
    expect(madeFrom('how-to-train-your-dragon', 'How to Train Your Dragon')).toBe(true);
  });

  it('does not read an initial or a short number as what an id is made from', () => {
    expect(madeFrom('article-17', '17')).toBe(false);
    expect(madeFrom('how-to-train-your-dragon', 'Dragons')).toBe(false);
    expect(madeFrom('3f0e9c57-2a51-4f7e-9a54-6f1d2b3c4d5e', 'f0e')).toBe(false);
  });
});

describe('currentValuesChanged', () => {
  const client = (body: unknown, status = 200): AppClient => ({
    request: async () => ({ status, headers: {}, body }),
  });
  const read = { path: '/api/v1/auth/me', before: ME, headers: {} };

  it('is null when the entity answers as before but for its times', async () => {
    expect(await currentValuesChanged(client({ ...ME, updatedAt: '2026-11-27T07:00:00.000Z' }), read)).toBeNull();
  });

  it('is null when the answer holds a token signed anew for each read (RealWorld GET /api/user: user.token)', async () => {
    const signed = (iat: number) =>
      `h.${Buffer.from(JSON.stringify({ id: 7, username: 'bench', iat, exp: iat + 3600, jti: `j${iat}` })).toString('base64url')}.s${iat}`;
    const user = { user: { username: 'bench', bio: 'hi', image: null, token: signed(1_790_000_000) } };
    const again = { user: { ...user.user, token: signed(1_790_000_004) } };
    expect(await currentValuesChanged(client(again), { ...read, path: '/api/user', before: user })).toBeNull();
  });

  it('names what a token says once it says another thing', async () => {
    const signed = (claims: object) =>
      `h.${Buffer.from(JSON.stringify({ iat: 1_790_000_000, ...claims })).toString('base64url')}.s`;
    const before = { user: { bio: 'hi', token: signed({ id: 7, role: 'admin' }) } };
    const after = { user: { bio: 'hi', token: signed({ id: 7, role: 'reader' }) } };
    expect(await currentValuesChanged(client(after), { ...read, path: '/api/user', before })).toEqual({
      lost: false,
      why: 'GET /api/user answered user.token.role: "admin" → "reader" after it was sent its own current values',
    });
  });

  it('names what changed', async () => {
    expect(await currentValuesChanged(client({ ...ME, lastName: 'Other' }), read)).toEqual({
      lost: false,
      why: 'GET /api/v1/auth/me answered lastName: "Admin" → "Other" after it was sent its own current values',
    });
  });
});
