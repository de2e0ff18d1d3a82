import { buildSchema, parse, validate } from 'graphql';
import { rootFields } from '../../../../bench/own-app/graphql/graphql-schema.js';
import { operationVariables, planGraphql, signInOperations } from '../../../../bench/own-app/graphql/graphql.js';
import { operationsOf } from '../../../../bench/own-app/graphql/graphql-operations.js';
import { graphqlUpload, uploadedFile } from '../../../../bench/own-app/bodies/upload-form.js';
import {
  createMutations,
  withCreatedItem,
  derivedVariables,
  FILE,
  graphqlListItems,
  withoutFiles,
  listQueries,
  mutationRefusal,
  operationEntity,
} from '../../../../bench/own-app/graphql/graphql-values.js';

const OWN_ID = '11111111-2222-4333-8444-555555555555';
const OTHER_ID = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
/** Each list query as first asked, empty: every row its answers hold later, the bench made. */
const madeByBench = (lists: Map<string, unknown>) =>
  new Map<string, unknown>([...lists.keys()].map((list) => [list, { data: { [list]: [] } }]));
/** What getManyMemberList listed before the bench made anything: the signed-in member alone. */
const BEFORE = new Map<string, unknown>([
  ['getManyMemberList', { data: { getManyMemberList: { data: [{ id: OWN_ID }], count: 1 } } }],
]);
/** The signed-in principal: a member whose uuid the token names. */
const GUARD = {
  principal: [{ value: OWN_ID, kind: 'account' as const, source: "the token's id" }],
  claims: [],
  preexisting: BEFORE,
};

/** A code-first API as TypeORM boilerplates write it: paged lists, input objects, an enum, uploads, a JSON filter. */
const SCHEMA = buildSchema(`
  scalar JSON
  scalar Upload
  enum Role { admin user }
  type Member { id: ID! name: String! role: Role! }
  type MemberPage { data: [Member!]! count: Int! }
  input Paging { page: Int! size: Int! }
  input ListInput { where: JSON paging: Paging }
  input NewMember { name: String! email: String! role: Role! teamId: String nickname: String }
  input MemberChange { name: String role: Role }
  input OneInput { where: JSON! }
  input PhotoInput { caption: String! photo: Upload }
  type Query {
    getManyMemberList(input: ListInput): MemberPage!
    getOneMember(input: OneInput!): Member!
    me: Member!
  }
  type Mutation {
    createMember(input: NewMember!): Member!
    updateMember(id: String!, input: MemberChange!): JSON
    deleteMember(id: String!): JSON
    uploadAvatar(file: Upload!): String!
    uploadPhotos(files: [Upload!]!, input: PhotoInput!): [String!]!
    signOut: Boolean!
    changePassword(old: String!, next: String!): Boolean!
  }
`);
const FIELDS = rootFields(SCHEMA);
const field = (name: string) => FIELDS.find((f) => f.name === name)!;
const LIST_ANSWER = { data: { getManyMemberList: { data: [{ id: OWN_ID }, { id: OTHER_ID }], count: 2 } } };
const SOURCES = {
  params: {},
  lists: new Map<string, unknown>([['getManyMemberList', LIST_ANSWER]]),
  preexisting: BEFORE,
  listed: listQueries(FIELDS),
  avoidFor: () => [OWN_ID],
};

describe('createMutations: what can make an id a list query lacked', () => {
  const only = (items: unknown[]) =>
    new Map<string, unknown>([
      ['getManyMemberList', { data: { getManyMemberList: { data: items, count: items.length } } }],
    ]);

  it('pairs a list query that held only the principal, or nothing, with the mutation that creates its entity', () => {
    expect(createMutations(FIELDS, only([{ id: OWN_ID }]), GUARD)).toEqual([
      { list: 'getManyMemberList', create: 'createMember' },
    ]);
    expect(createMutations(FIELDS, only([]), GUARD)).toEqual([{ list: 'getManyMemberList', create: 'createMember' }]);
  });

  it('adds what the mutation answered to its list query’s items, where asking the list again may hit a cache', () => {
    const lists = withCreatedItem(
      only([{ id: OWN_ID }]),
      { list: 'getManyMemberList', create: 'createMember' },
      { data: { createMember: { id: OTHER_ID, name: 'n' } } },
    );
    expect(graphqlListItems('getManyMemberList', lists.get('getManyMemberList'))).toEqual([
      { id: OWN_ID },
      { id: OTHER_ID, name: 'n' },
    ]);
    expect(createMutations(FIELDS, lists, GUARD)).toEqual([]);
  });

  it('asks for none when the list holds another, or did not answer', () => {
    expect(createMutations(FIELDS, SOURCES.lists, GUARD)).toEqual([]);
    expect(createMutations(FIELDS, new Map(), GUARD)).toEqual([]);
  });
});

describe('the entity an operation is named for', () => {
  it('strips verbs, quantifiers and list suffixes, singular', () => {
    expect(operationEntity('updateMember')).toBe('member');
    expect(operationEntity('getOneMember')).toBe('member');
    expect(operationEntity('getManyMemberList')).toBe('member');
    expect(operationEntity('books')).toBe('book');
    expect(operationEntity('createUserRole')).toBe('userrole');
  });
});

describe('which mutations are not derived', () => {
  it('leaves out one that deletes, signs out or changes a password, and derives the others', () => {
    expect(mutationRefusal('deleteMember')).toMatch(/deletes \(deleteMember\): only its first request/);
    expect(mutationRefusal('removeFiles')).toMatch(/deletes/);
    expect(mutationRefusal('signOut')).toMatch(/signs out or changes what the account signs in with/);
    expect(mutationRefusal('logout')).toMatch(/signs out/);
    expect(mutationRefusal('changePassword')).toMatch(/signs out or changes/);
    expect(mutationRefusal('deleteMe')).toMatch(/signs out or changes/);
    expect(mutationRefusal('createMember')).toBeNull();
    expect(mutationRefusal('updateMember')).toBeNull();
  });
});

describe('variables derived from the schema', () => {
  it('fills an input object within its types: free text unique per request, the e-mail as one, the enum’s first value', () => {
    const derived = derivedVariables(field('createMember'), SOURCES);
    expect(derived).toEqual({
      variables: {
        input: {
          name: 'name{{unique}}',
          email: 'b{{unique}}@example.com',
          role: 'admin',
          nickname: 'nickname{{unique}}',
        },
      },
    });
  });

  it('leaves out an optional id no list names, and names a required one with its flag', () => {
    expect('variables' in derivedVariables(field('createMember'), SOURCES)).toBe(true);
    const lonely = derivedVariables(field('updateMember'), { ...SOURCES, lists: new Map() });
    expect(lonely).toEqual({
      missing: '$id names an existing member (getManyMemberList listed none): give --params id=VALUE',
    });
  });

  it('takes an id from the list query of the operation’s entity, skipping the signed-in account’s own', () => {
    expect(derivedVariables(field('updateMember'), SOURCES)).toEqual({
      variables: { id: OTHER_ID, input: { name: 'name{{unique}}', role: 'admin' } },
    });
  });

  it('never gives a mutation the signed-in account’s own id, even when the list holds nothing else', () => {
    const onlyOwn = new Map([['getManyMemberList', { data: { getManyMemberList: { data: [{ id: OWN_ID }] } } }]]);
    expect(derivedVariables(field('updateMember'), { ...SOURCES, lists: onlyOwn })).toEqual({
      missing:
        "$id names an existing member (getManyMemberList listed only the signed-in principal's own): give --params id=VALUE for another member, or the operation in --graphql-queries FILE with the principal's own to change it (on an account you can lose)",
    });
  });

  it('prefers --params, typed as the argument wants', () => {
    const given = derivedVariables(field('getOneMember'), { ...SOURCES, params: { input: '{"where":{"id":"7"}}' } });
    expect(given).toEqual({ variables: { input: { where: { id: '7' } } } });
  });

  it('takes a field inside an input object from --params by its name, as the line naming it says', () => {
    expect(derivedVariables(field('getOneMember'), { ...SOURCES, params: { where: '{"id":"7"}' } })).toEqual({
      variables: { input: { where: { id: '7' } } },
    });
  });

  it('filters a JSON where by an id its entity’s list query answered', () => {
    expect(derivedVariables(field('getOneMember'), SOURCES)).toEqual({
      variables: { input: { where: { id: OTHER_ID } } },
    });
  });

  it('names a scalar it cannot make up', () => {
    expect(derivedVariables(field('getOneMember'), { ...SOURCES, lists: new Map() })).toEqual({
      missing: '$where is a JSON, which the bench cannot make up: give it as JSON in --params where=JSON',
    });
  });

  it('gives an Upload a file, two for a list of them, wherever it sits', () => {
    expect(derivedVariables(field('uploadAvatar'), SOURCES)).toEqual({ variables: { file: FILE } });
    expect(derivedVariables(field('uploadPhotos'), SOURCES)).toEqual({
      variables: { files: [FILE, FILE], input: { caption: 'caption{{unique}}', photo: FILE } },
    });
  });

  it('sends null where each file goes, and names those places as the multipart request’s map does', () => {
    expect(withoutFiles({ files: [FILE, FILE], input: { caption: 'c', photo: FILE }, id: 7 })).toEqual({
      variables: { files: [null, null], input: { caption: 'c', photo: null }, id: 7 },
      files: ['variables.files.0', 'variables.files.1', 'variables.input.photo'],
    });
    expect(withoutFiles({ id: 7 })).toEqual({ variables: { id: 7 }, files: [] });
  });

  it('reads a list query’s items under the root field, paged or not', () => {
    expect(graphqlListItems('getManyMemberList', LIST_ANSWER)).toEqual([{ id: OWN_ID }, { id: OTHER_ID }]);
    expect(graphqlListItems('members', { data: { members: [{ id: 1 }] } })).toEqual([{ id: 1 }]);
    expect(graphqlListItems('members', { errors: [{ message: 'no' }] })).toEqual([]);
  });
});

/** The plan of FIELDS alone, signed in, with the lists SOURCES holds. */
const schemaPlan = (extra: Partial<Parameters<typeof planGraphql>[0]> = {}) =>
  planGraphql({
    api: { path: '/graphql', driver: 'ApolloDriver', fastifyIntegration: null, fields: FIELDS },
    fileOperations: [],
    params: {},
    headers: { authorization: 'Bearer t' },
    logged: new Map(),
    lists: SOURCES.lists,
    guard: GUARD,
    ...extra,
  });

describe('planGraphql on the schema alone', () => {
  const plan = schemaPlan();
  const row = (name: string) => plan.routes.find((r) => r.handler.endsWith(` ${name}`))!;

  it('times each operation it can fill, mutations included, and says why for each of the others', () => {
    expect(plan.scenarios.map((s) => s.name)).toEqual([
      'graphql-get-many-member-list',
      'graphql-get-one-member',
      'graphql-me',
      'graphql-create-member',
      'graphql-update-member',
      'graphql-upload-avatar',
      'graphql-upload-photos',
    ]);
    expect(row('deleteMember').notMeasured).toMatch(/deletes/);
    expect(row('signOut').notMeasured).toMatch(/signs out/);
    expect(row('changePassword').notMeasured).toMatch(/signs out or changes/);
  });

  it('sends documents the schema accepts, with the derived variables', async () => {
    for (const scenario of plan.scenarios) {
      const body = typeof scenario.body === 'string' ? (await multipartParts(scenario)).operations : scenario.body;
      expect(validate(SCHEMA, parse((body as { query: string }).query))).toEqual([]);
    }
    const update = plan.scenarios.find((s) => s.name === 'graphql-update-member')!;
    expect(update.body).toEqual({
      query: 'mutation BenchUpdateMember($id: String!, $input: MemberChange!) { updateMember(id: $id, input: $input) }',
      variables: { id: OTHER_ID, input: { name: 'name{{unique}}', role: 'admin' } },
    });
  });
});

describe('an operation with Upload arguments, as a GraphQL multipart request', () => {
  const plan = schemaPlan({ uploadParser: { rule: 'app.use(graphql-upload)', where: 'src/main.ts:41' } });
  const scenario = (name: string) => plan.scenarios.find((s) => s.name === name)!;

  it('sends the operation, the map and a real file per Upload, signed in, with a header Apollo’s CSRF check lets through', async () => {
    const sent = scenario('graphql-upload-photos');
    expect(sent.headers).toEqual({
      authorization: 'Bearer t',
      'content-type': expect.stringMatching(/^multipart\/form-data; boundary=/),
      'apollo-require-preflight': 'true',
    });
    const { names, operations, map, files } = await multipartParts(sent);
    // the spec's order: operations, map, then the files
    expect(names).toEqual(['operations', 'map', '0', '1', '2']);
    expect(operations).toEqual({
      query: expect.stringContaining('uploadPhotos(files: $files, input: $input)'),
      variables: { files: [null, null], input: { caption: 'caption{{unique}}', photo: null } },
    });
    expect(map).toEqual({ 0: ['variables.files.0'], 1: ['variables.files.1'], 2: ['variables.input.photo'] });
    const gif = uploadedFile(graphqlUpload(['variables.file'], null));
    for (const file of files) {
      expect(file).toMatchObject({ name: 'photo.gif', type: 'image/gif' });
      expect(Buffer.from(await file.arrayBuffer()).equals(gif)).toBe(true);
    }
  });

  it('names what it sent on the operation’s row, with where the app parses it on Express', () => {
    expect(plan.routes.find((r) => r.handler === 'GraphQL mutation uploadAvatar')).toMatchObject({
      scenario: 'graphql-upload-avatar',
      upload: {
        filename: 'photo.gif',
        variables: ['variables.file'],
        interceptor: 'app.use(graphql-upload)',
        where: 'src/main.ts:41',
      },
    });
  });

  it('sends a file where a --graphql-queries operation declares an Upload variable', () => {
    const [op] = operationsOf(
      parse('mutation Avatar($file: Upload!, $tags: [Upload!]!) { uploadAvatar(file: $file) }'),
      '',
      'ops.graphql',
    );
    expect(operationVariables(op, {})).toEqual({ variables: { file: FILE, tags: [FILE, FILE] } });
  });
});

/** A multipart scenario's parts, read back as a server reads them (the platform's own form parser). */
async function multipartParts(scenario: Record<string, unknown>) {
  const headers = scenario.headers as Record<string, string>;
  const form = await new Response(Buffer.from(scenario.body as string, 'latin1'), {
    headers: { 'content-type': headers['content-type'] },
  }).formData();
  const names = [...form.keys()];
  return {
    names,
    operations: JSON.parse(form.get('operations') as string),
    map: JSON.parse(form.get('map') as string),
    files: names.slice(2).map((name) => form.get(name) as File),
  };
}

describe('the sign-in operation authenticate() sent', () => {
  const SIGN_IN = buildSchema(`
    input Credentials { username: String! password: String! }
    type Session { jwt: String! }
    type Query { me: String }
    type Mutation { signIn(input: Credentials!): Session! }
  `);
  const sent = {
    method: 'POST',
    url: '/graphql',
    value: {
      query: 'mutation SignIn($input: Credentials!) { signIn(input: $input) { jwt } }',
      variables: { input: { username: 'bench', password: 'pw' } },
    },
  };
  const plan = (fileOperations: ReturnType<typeof signInOperations>) =>
    planGraphql({
      api: { path: '/graphql', driver: 'ApolloDriver', fastifyIntegration: null, fields: rootFields(SIGN_IN) },
      fileOperations,
      params: {},
      headers: {},
      logged: new Map(),
      signInRequests: [sent],
    });

  it('is measured as it was sent, where derived credentials would name no account', () => {
    const p = plan([]);
    expect(p.routes.find((r) => r.handler === 'GraphQL mutation signIn')).toMatchObject({
      scenario: 'graphql-sign-in',
    });
    expect(p.scenarios.find((s) => s.name === 'graphql-sign-in')?.body).toEqual(sent.value);
  });

  it('gives way to the same field in --graphql-queries, and reads nothing from other requests', () => {
    const file = signInOperations([sent], '/graphql', []);
    expect(signInOperations([sent], '/graphql', file)).toEqual([]);
    expect(signInOperations([{ ...sent, url: '/api/login' }], '/graphql', [])).toEqual([]);
    expect(file[0]).toMatchObject({ name: 'signIn', kind: 'mutation', field: 'signIn' });
  });
});

describe('a schema-first SDL: nullable arguments, ids named id-first, joins of two entities', () => {
  const ROLE = '0b8f3a52-5f43-4e3a-9c1e-6a7b8c9d0e1f';
  const ORDER = '1c9e4b63-6a54-4f4b-8d2f-7b8c9d0e1f2a';
  const PRODUCT = '2daf5c74-7b65-4a5c-9e3a-8c9d0e1f2a3b';
  const SDL = buildSchema(`
    type Role { id: ID! name: String }
    type User { id: ID! username: String role: Role }
    type Order { id: ID! client: String }
    type Product { id: ID! name: String }
    type OrderProduct { order: Order product: Product }
    input UserData { username: String, idRole: String }
    input OrderProductData { idOrder: String idProduct: String }
    type Query {
      getRoles: [Role]
      getUsers(limit: Int): [User]
      getOrders: [Order]
      getProducts: [Product]
      getOrdersProducts: [OrderProduct]
    }
    type Mutation {
      createUser(input: UserData): User
      editUser(id: ID, input: UserData): User
      editOrderProduct(id_ord: ID, id_pro: ID, input: OrderProductData): OrderProduct
    }
  `);
  const fields = rootFields(SDL);
  const byName = (name: string) => fields.find((f) => f.name === name)!;
  const lists = new Map<string, unknown>([
    ['getRoles', { data: { getRoles: [{ id: ROLE, name: 'admin' }] } }],
    ['getUsers', { data: { getUsers: [{ id: OTHER_ID, username: 'u' }] } }],
    ['getOrders', { data: { getOrders: [{ id: OTHER_ID }, { id: ORDER }] } }],
    ['getProducts', { data: { getProducts: [{ id: OTHER_ID }, { id: PRODUCT }] } }],
    ['getOrdersProducts', { data: { getOrdersProducts: [{ order: { id: ORDER }, product: { id: PRODUCT } }] } }],
  ]);
  const sources = {
    params: {},
    lists,
    preexisting: madeByBench(lists),
    listed: listQueries(fields),
    avoidFor: () => [OWN_ID],
  };

  it('names a compound list’s entity as its create does: getOrdersProducts lists what createOrderProduct makes', () => {
    expect(operationEntity('getOrdersProducts')).toBe(operationEntity('createOrderProduct'));
    expect(operationEntity('getPricesSizes')).toBe('pricesize');
  });

  it('sends a mutation its nullable id and input, and a query without its optional filters', () => {
    const plan = planGraphql({
      api: { path: '/graphql', driver: 'ApolloDriver', fastifyIntegration: null, fields },
      fileOperations: [],
      params: {},
      headers: {},
      logged: new Map(),
      lists,
      guard: { ...GUARD, preexisting: madeByBench(lists) },
    });
    const body = (name: string) => plan.scenarios.find((s) => s.name === name)!.body as { query: string };
    expect(body('graphql-edit-user')).toEqual({
      query:
        'mutation BenchEditUser($id: ID, $input: UserData) { editUser(id: $id, input: $input) { id username role { id name } } }',
      variables: { id: OTHER_ID, input: { username: 'username{{unique}}', idRole: ROLE } },
    });
    expect(body('graphql-get-users').query).toBe('query BenchGetUsers { getUsers { id username role { id name } } }');
    for (const scenario of plan.scenarios) expect(validate(SDL, parse(body(String(scenario.name)).query))).toEqual([]);
  });

  it('fills an input field named id-first (idRole) from its entity’s list', () => {
    expect(derivedVariables(byName('createUser'), sources)).toEqual({
      variables: { input: { username: 'username{{unique}}', idRole: ROLE } },
    });
  });

  it('takes a join’s pair from one item of its own list, where the first order and product may not be a pair', () => {
    expect(derivedVariables(byName('editOrderProduct'), sources)).toMatchObject({
      variables: { id_ord: ORDER, id_pro: PRODUCT },
    });
  });

  it('keeps the pair its root names in its input: another item’s pair is a duplicate key', () => {
    expect(derivedVariables(byName('editOrderProduct'), sources)).toEqual({
      variables: { id_ord: ORDER, id_pro: PRODUCT, input: { idOrder: ORDER, idProduct: PRODUCT } },
    });
    // an input's id for another entity still comes from that entity's list
    expect(derivedVariables(byName('editUser'), sources)).toEqual({
      variables: { id: OTHER_ID, input: { username: 'username{{unique}}', idRole: ROLE } },
    });
  });

  it('names a nullable id no list holds with its flag, rather than sending the mutation without it', () => {
    expect(derivedVariables(byName('editUser'), { ...sources, lists: new Map() })).toEqual({
      missing: '$id names an existing user (getUsers listed none): give --params id=VALUE',
    });
  });
});

describe('ids from root queries that list an entity by their type, not their name', () => {
  const TEAMS = buildSchema(`
    type Team { id: ID! name: String! }
    type TeamEdge { cursor: String! node: Team! }
    type PageInfo { hasNextPage: Boolean! endCursor: String }
    type TeamConnection { edges: [TeamEdge!]! pageInfo: PageInfo! }
    type ProjectOutput { id: Int! title: String! }
    type Query {
      myTeams: [Team!]!
      teamsPage(first: Int): TeamConnection!
      myProjects: [ProjectOutput!]!
      me: Team!
    }
    input NewMember { teamId: ID! email: String! }
    type Mutation {
      addMember(input: NewMember!): Team!
      renameTeam(teamId: ID!, name: String!): Team!
      archiveProject(projectId: Int!): Boolean!
    }
  `);
  const fields = rootFields(TEAMS);
  const byName = (name: string) => fields.find((f) => f.name === name)!;

  it('takes myTeams as the list of teams, a connection’s nodes as its items, and a UserOutput-style type by its entity', () => {
    expect(listQueries(fields)).toEqual([
      { field: 'myTeams', entity: 'team' },
      { field: 'teamsPage', entity: 'team' },
      { field: 'myProjects', entity: 'project' },
      { field: 'me', entity: 'me' },
    ]);
  });

  it('asks a connection down to its nodes’ ids, its edges and node not counted as levels', () => {
    expect(byName('teamsPage').selection).toBe(
      '{ edges { cursor node { id name } } pageInfo { hasNextPage endCursor } }',
    );
  });

  it('fills a team id from what myTeams answered, and one from a connection’s edges where only it lists them', () => {
    const mine = { params: {}, avoidFor: () => [], listed: listQueries(fields) };
    const listed = new Map<string, unknown>([['myTeams', { data: { myTeams: [{ id: 't-7', name: 'core' }] } }]]);
    expect(
      derivedVariables(byName('renameTeam'), { ...mine, lists: listed, preexisting: madeByBench(listed) }),
    ).toMatchObject({
      variables: { teamId: 't-7' },
    });
    const paged = new Map<string, unknown>([
      ['teamsPage', { data: { teamsPage: { edges: [{ cursor: 'c', node: { id: 't-9', name: 'ops' } }] } } }],
    ]);
    expect(
      derivedVariables(byName('addMember'), { ...mine, lists: paged, preexisting: madeByBench(paged) }),
    ).toMatchObject({
      variables: { input: { teamId: 't-9' } },
    });
    const projects = new Map<string, unknown>([['myProjects', { data: { myProjects: [{ id: 4, title: 'x' }] } }]]);
    expect(
      derivedVariables(byName('archiveProject'), { ...mine, lists: projects, preexisting: madeByBench(projects) }),
    ).toEqual({
      variables: { projectId: 4 },
    });
  });
});

describe('mutations judged against the signed-in principal as REST writes are', () => {
  const SDL = buildSchema(`
    type User { id: Int! username: String! }
    type Product { id: Int! name: String! }
    type Query { products: [Product!]! users: [User!]! }
    type Mutation {
      createUser(username: String!): User!
      createProduct(name: String!): Product!
      changeUsername(username: String!): User!
      assignRole(userId: Int!, roleId: Int!): Boolean!
      updateProduct(id: Int!, name: String!): Product!
      updateUser(id: Int!, bio: String): User!
    }
  `);
  /** user 1 signs in; product 1 is another row, one the bench made */
  const admin = {
    principal: [{ value: '1', kind: 'account' as const, source: "the token's sub" }],
    claims: [],
    preexisting: new Map<string, unknown>([
      ['products', { data: { products: [] } }],
      ['users', { data: { users: [{ id: 1, username: 'admin' }] } }],
    ]),
  };
  const plan = planGraphql({
    api: { path: '/graphql', driver: 'ApolloDriver', fastifyIntegration: null, fields: rootFields(SDL) },
    fileOperations: [],
    params: { userId: '1', roleId: '2' },
    headers: {},
    logged: new Map(),
    lists: new Map<string, unknown>([
      ['products', { data: { products: [{ id: 1, name: 'p' }] } }],
      ['users', { data: { users: [{ id: 1, username: 'admin' }] } }],
    ]),
    guard: admin,
  });
  const row = (name: string) => plan.routes.find((r) => r.handler === `GraphQL mutation ${name}`)!;
  const variables = (name: string) =>
    (plan.scenarios.find((s) => s.name === name)?.body as { variables?: unknown } | undefined)?.variables;

  it('lists a rename of the signed-in account, and a role assigned to its id, with how to time them anyway', () => {
    expect(row('changeUsername')).toMatchObject({ scenario: null });
    expect(row('changeUsername').notMeasured).toBe(
      "a username change (mutation changeUsername), and nothing it sends names another account: it changes the signed-in account's, so timing it could lose the sign-in, or what it may do, for every other route; to time it anyway (on an account you can lose), give it as a named operation in --graphql-queries FILE",
    );
    expect(row('assignRole').notMeasured).toMatch(
      /^its variables' userId is the account authenticate\(\) signed in \(the token's sub\): it changes it, so timing it/,
    );
  });

  it('takes product 1 though user 1 signs in, and never user 1 for a write: an id is its own only for its kind', () => {
    expect(variables('graphql-update-product')).toEqual({ id: 1, name: expect.any(String) });
    expect(row('updateUser').scenario).toBeNull();
    expect(row('updateUser').notMeasured).toMatch(/users listed only the signed-in principal's own/);
  });

  it('makes a user where the users list held only the principal, and no product where product 1 is there', () => {
    const lists = new Map<string, unknown>([
      ['products', { data: { products: [{ id: 1, name: 'p' }] } }],
      ['users', { data: { users: [{ id: 1, username: 'admin' }] } }],
    ]);
    expect(createMutations(rootFields(SDL), lists, admin)).toEqual([{ list: 'users', create: 'createUser' }]);
  });
});

describe('a mutation changes only a row the bench made (issue 52 §2)', () => {
  // leosuncin/nest-graphql-example: updateTask took the first task `tasks` listed, one that was there before the run
  const SDL = buildSchema(`
    type Task { id: ID! title: String! completed: Boolean! }
    input NewTask { title: String! }
    input TaskChange { title: String completed: Boolean }
    type Query { tasks: [Task!]! }
    type Mutation { addTask(input: NewTask!): Task! updateTask(id: ID!, input: TaskChange!): Task! }
  `);
  const fields = rootFields(SDL);
  const byName = (name: string) => fields.find((f) => f.name === name)!;
  const theirs = new Map<string, unknown>([
    ['tasks', { data: { tasks: [{ id: '1', title: 'Write report', completed: false }] } }],
  ]);
  const guard = { principal: [], claims: [], preexisting: theirs };
  const sources = { params: {}, lists: theirs, preexisting: theirs, listed: listQueries(fields), avoidFor: () => [] };

  it('lists the update where the list held only rows that were there before, and makes one of its own', () => {
    expect(derivedVariables(byName('updateTask'), sources)).toEqual({
      missing:
        "$id names an existing task (tasks listed only rows that were there before the run, and no mutation made one of the bench's own): the mutation would change your data; give --params id=VALUE for a row you can lose",
    });
    expect(createMutations(fields, theirs, guard)).toEqual([{ list: 'tasks', create: 'addTask' }]);
  });

  it('takes the row its create answered', () => {
    const made = withCreatedItem(
      theirs,
      { list: 'tasks', create: 'addTask' },
      { data: { addTask: { id: '4', title: 'title1', completed: false } } },
    );
    expect(derivedVariables(byName('updateTask'), { ...sources, lists: made })).toMatchObject({
      variables: { id: '4' },
    });
    expect(createMutations(fields, made, guard)).toEqual([]);
  });

  it('takes nothing from a list not answered before the bench made anything', () => {
    expect(derivedVariables(byName('updateTask'), { ...sources, preexisting: new Map() })).toEqual({
      missing:
        "$id names an existing task (tasks did not answer before the bench made anything, so the rows that were there before the run cannot be told from the bench's own): give --params id=VALUE for a row you can lose",
    });
  });
});
