import { buildSchema, graphql } from 'graphql';
import { rootFields } from '../../../../bench/own-app/graphql/graphql-schema.js';
import { askApp } from '../../../../bench/own-app/plan/ask-app.js';
import { planWith } from '../../../../bench/own-app/plan/app-plan.js';
import type { OwnAppContext } from '../../../../bench/own-app/plan/app-context.js';

// A schema-first app on an empty database: a user needs a role, an order a user, so each create waits for the one
// before it. The answers come from graphql's own execution over an in-memory store.
const SCHEMA = buildSchema(`
  type Role { id: ID! name: String }
  type User { id: ID! name: String role: Role }
  type Order { id: ID! client: String user: User }
  input RoleData { name: String }
  input UserData { name: String idRole: String }
  input OrderData { client: String idUser: String }
  type Query { getRoles: [Role] getUsers: [User] getOrders: [Order] }
  type Mutation { createRole(input: RoleData): Role createUser(input: UserData): User createOrder(input: OrderData): Order }
`);

function emptyApp() {
  const rows = { role: [] as { id: string }[], user: [] as { id: string }[], order: [] as { id: string }[] };
  const insert = (table: keyof typeof rows, needs: keyof typeof rows | null, reference?: string) => {
    if (needs && !rows[needs].some((r) => r.id === reference)) throw new Error(`${needs} ${reference} does not exist`);
    const row = { id: `${table}-${rows[table].length + 1}` };
    rows[table].push(row);
    return row;
  };
  const root = {
    getRoles: () => rows.role,
    getUsers: () => rows.user,
    getOrders: () => rows.order,
    createRole: () => insert('role', null),
    createUser: ({ input }: { input: { idRole?: string } }) => insert('user', 'role', input?.idRole),
    createOrder: ({ input }: { input: { idUser?: string } }) => insert('order', 'user', input?.idUser),
  };
  const client = {
    async request(_method: string, _path: string, body?: unknown) {
      const { query, variables } = body as { query: string; variables?: Record<string, unknown> };
      const answer = await graphql({ schema: SCHEMA, source: query, rootValue: root, variableValues: variables });
      return { status: 200, headers: {}, body: JSON.parse(JSON.stringify(answer)) };
    },
  };
  return { rows, client };
}

const context = {
  flags: {
    module: 'app.module.js',
    setup: null,
    listRoutes: false,
    params: {},
    traffic: null,
    bodies: [],
    headers: {},
  },
  discovered: {
    routes: [],
    versioning: null,
    graphql: { path: '/graphql', driver: 'ApolloDriver', fastifyIntegration: null, fields: rootFields(SCHEMA) },
  },
  user: { scenarios: [], prepare: null },
  traffic: null,
  authenticate: null,
  fileOperations: [],
  scan: { findings: [], fileTypes: [] },
} as unknown as OwnAppContext;

describe('askApp: the creates an empty database needs before ids can be taken', () => {
  it('goes on while a round creates something, sending again a create that lacked an id another create makes', async () => {
    const { rows, client } = emptyApp();
    const lines: string[] = [];
    const { graphqlLists } = await askApp(context, client, { headers: {}, params: {} }, (line) => lines.push(line));
    const why = (list: string) => `since the list query ${list} held no id its routes could take`;
    expect(lines).toEqual([
      `GraphQL mutation createRole sent once, ${why('getRoles')}: it created one`,
      `GraphQL mutation createUser sent once, ${why('getUsers')}: it answered GraphQL errors: role undefined does not exist`,
      `GraphQL mutation createOrder sent once, ${why('getOrders')}: it answered GraphQL errors: user undefined does not exist`,
      `GraphQL mutation createUser sent again, with the ids an earlier create made, ${why('getUsers')}: it created one`,
      `GraphQL mutation createOrder sent again, with the ids an earlier create made, ${why('getOrders')}: it created one`,
    ]);
    expect(rows.order).toEqual([{ id: 'order-1' }]);
    expect(graphqlLists!.get('getOrders')).toEqual({
      data: { getOrders: [{ id: 'order-1', client: null, user: null }] },
    });
  });

  it('stops once a round creates nothing, each create sent at most once', async () => {
    const refusing = { request: async () => ({ status: 500, headers: {}, body: 'down' }) };
    const lines: string[] = [];
    const empty = new Map<string, unknown>([['getRoles', { data: { getRoles: [] } }]]);
    await askApp(context, refusing, { headers: {}, params: {} }, (l) => lines.push(l), {
      lists: new Map(),
      graphqlLists: empty,
    });
    expect(lines).toEqual([
      'GraphQL mutation createRole sent once, since the list query getRoles held no id its routes could take: it answered 500',
    ]);
  });

  it('reads the sign-in’s witness again after the creates, which may change the principal', async () => {
    // project_5: the upload sent for GET /user/:userId's id set the account's image; POST /auth/register, the first
    // write checked after it, was blamed for imagePath: null → "…png"
    const { client: graphqlClient } = emptyApp();
    let imagePath: string | null = null;
    const client = {
      async request(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
        if (path !== '/user/me') return graphqlClient.request(method, path, body);
        if (!headers?.authorization) return { status: 401, headers: {}, body: { message: 'Unauthorized' } };
        return { status: 200, headers: {}, body: { id: 1, imagePath } };
      },
    };
    const witness = { path: '/user/me', status: 200, body: { id: 1, imagePath: null }, varies: [] };
    const signedIn = { headers: { authorization: 'Bearer t' }, params: {} };
    const empty = new Map<string, unknown>([['getRoles', { data: { getRoles: [{ id: 'role-1' }] } }]]);
    imagePath = 'bb4074cd.png';
    const created = await askApp(context, client, signedIn, () => {}, {
      lists: new Map(),
      graphqlLists: empty,
      witness,
    });
    expect(created.witness).toMatchObject({
      path: '/user/me',
      status: 200,
      body: { id: 1, imagePath: 'bb4074cd.png' },
    });
  });
});

describe('a mutation is planned with a row the bench made, never one there before (issue 52 §2)', () => {
  // leosuncin/nest-graphql-example: updateTask took the first task `tasks` listed and renamed the user's own
  const TASKS = buildSchema(`
    type Task { id: ID! title: String }
    input NewTask { title: String! }
    type Query { tasks: [Task] }
    type Mutation { addTask(input: NewTask!): Task updateTask(id: ID!, title: String): Task }
  `);
  const tasks = [{ id: 'theirs-1', title: 'Write report' }];
  const client = {
    async request(_method: string, _path: string, body?: unknown) {
      const { query, variables } = body as { query: string; variables?: Record<string, unknown> };
      const rootValue = {
        tasks: () => tasks,
        addTask: ({ input }: { input: { title: string } }) => {
          const task = { id: `made-${tasks.length + 1}`, title: input.title };
          tasks.push(task);
          return task;
        },
      };
      const answer = await graphql({ schema: TASKS, source: query, rootValue, variableValues: variables });
      return { status: 200, headers: {}, body: JSON.parse(JSON.stringify(answer)) };
    },
  };
  const app = {
    ...context,
    discovered: { ...context.discovered, graphql: { ...context.discovered.graphql!, fields: rootFields(TASKS) } },
  } as OwnAppContext;

  it('sends addTask once and gives updateTask the task it made', async () => {
    const lines: string[] = [];
    const known = await askApp(app, client, { headers: {}, params: {} }, (line) => lines.push(line));
    expect(lines).toEqual([
      'GraphQL mutation addTask sent once, since the list query tasks held no id its routes could take: it created one',
    ]);
    const plan = planWith(app, { headers: {}, params: {} }, known);
    const update = plan.scenarios.find((s) => s.description === 'GraphQL mutation updateTask')!;
    expect((update.body as { variables: unknown }).variables).toMatchObject({ id: 'made-2' });
  });
});

describe('askApp: a create whose row its list does not show (a list of active users only)', () => {
  const route = (method: string, path: string, schema?: object) => ({
    method,
    path,
    handler: `UsersController ${method} ${path}`,
    version: null,
    body: schema ? { sources: ['class-validator'], schema } : null,
  });
  const USER = { type: 'object', properties: { name: { type: 'string' }, status: { type: 'string' } } };
  const routes = [route('GET', '/users'), route('POST', '/users', USER), route('PATCH', '/users/:id', USER)];
  const app = { ...context, discovered: { routes, versioning: null, graphql: null } } as unknown as OwnAppContext;

  it('gives PATCH /users/:id the id POST /users answered, never a row that was there before', async () => {
    const users = [{ id: 1, name: 'there before', status: 'ACTIVATE' }];
    const client = {
      async request(method: string, path: string, body?: unknown) {
        if (method === 'POST') {
          const made = { id: 8, ...(body as object) };
          users.push(made as (typeof users)[number]);
          return { status: 201, headers: {}, body: made };
        }
        if (path === '/users') return { status: 200, headers: {}, body: users.filter((u) => u.status === 'ACTIVATE') };
        return { status: 404, headers: {}, body: null };
      },
    };
    const lines: string[] = [];
    const known = await askApp(app, client, { headers: {}, params: {} }, (line) => lines.push(line));
    expect(lines).toEqual(['POST /users sent once, since GET /users held no id its routes could take: it created one']);
    const plan = planWith(app, { headers: {}, params: {} }, known);
    const patch = plan.routes.find((r) => r.method === 'PATCH');
    expect(plan.scenarios.find((s) => s.name === patch?.scenario)?.path).toBe('/users/8');
  });
});
