import { buildSchema, parse } from 'graphql';
import { rootFields } from '../../../../bench/own-app/graphql/graphql-schema.js';
import { graphqlTraffic, operationVariables, planGraphql } from '../../../../bench/own-app/graphql/graphql.js';
import { operationsOf, schemaOperations } from '../../../../bench/own-app/graphql/graphql-operations.js';
import { graphqlErrors, withoutErrors } from '../../../../bench/own-app/graphql/graphql-answers.js';
import { parseTraffic } from '../../../../bench/own-app/routes/traffic.js';
import { routeLines } from '../../../../bench/own-app/routes/discover.js';

const SCHEMA = buildSchema(`
  type Author { id: ID! name: String! books(first: Int!): [Book!]! }
  type Book { id: ID! title: String! author: Author! }
  input BookFilter { title: String }
  type Query {
    books(limit: Int): [Book!]!
    book(id: ID!): Book
    search(filter: BookFilter!): [Book!]!
    count: Int!
  }
  type Mutation { addBook(title: String!): Book! deleteBook(id: ID!): Boolean! signOut: Boolean! }
  type Subscription { bookAdded: Book! }
`);
const API = {
  path: '/graphql',
  driver: 'ApolloDriver',
  fastifyIntegration: { package: '@as-integrations/fastify', installed: true },
  fields: rootFields(SCHEMA),
};

describe('the schema’s root fields', () => {
  it('reads each root field with its arguments and a selection of its leaves, two levels deep', () => {
    const book = API.fields.find((f) => f.name === 'book');
    expect(book).toEqual({
      kind: 'query',
      name: 'book',
      args: [{ name: 'id', type: 'ID!', required: true, input: false, schema: { type: 'string', scalar: 'ID' } }],
      // Author.books takes a required argument, so it is not asked
      selection: '{ id title author { id name } }',
      lists: null,
    });
    expect(API.fields.find((f) => f.name === 'books')?.lists).toBe('Book');
    expect(API.fields.map((f) => `${f.kind} ${f.name}`)).toEqual([
      'query books',
      'query book',
      'query search',
      'query count',
      'mutation addBook',
      'mutation deleteBook',
      'mutation signOut',
      'subscription bookAdded',
    ]);
  });

  it('makes an operation of each root query and mutation, its required arguments as variables; a mutation that deletes or signs out waits', () => {
    const operations = schemaOperations(API.fields);
    const byName = (name: string) => operations.find((op) => op.name === name)!;
    expect(byName('book').document).toBe('query BenchBook($id: ID!) { book(id: $id) { id title author { id name } } }');
    expect(byName('count').document).toBe('query BenchCount { count }');
    // every generated document is valid against the schema
    for (const op of operations) expect(() => parse(op.document)).not.toThrow();
    expect(byName('search').unfillable).toBeNull();
    expect(byName('addBook').document).toBe(
      'mutation BenchAddBook($title: String!) { addBook(title: $title) { id title author { id name } } }',
    );
    expect(byName('addBook').unfillable).toBeNull();
    expect(byName('deleteBook').unfillable).toMatch(/a mutation that deletes \(deleteBook\).*--graphql-queries FILE/);
    expect(byName('signOut').unfillable).toMatch(/signs out .*\(signOut\).*--graphql-queries FILE/);
    expect(byName('bookAdded').unfillable).toMatch(/a subscription/);
  });
});

describe('operations from a --graphql-queries file', () => {
  const TEXT = `
    query BookTitles { books(limit: 5) { title } }
    mutation AddBook($title: String!, $year: Int) { addBook(title: $title) { id } }
  `;
  const operations = operationsOf(parse(TEXT), TEXT, 'ops.graphql');

  it('names each operation, its root field and its variables with their types', () => {
    expect(operations.map((op) => [op.name, op.kind, op.field, op.operationName])).toEqual([
      ['BookTitles', 'query', 'books', 'BookTitles'],
      ['AddBook', 'mutation', 'addBook', 'AddBook'],
    ]);
    expect(operations[1].variables).toEqual([
      { name: 'title', type: 'String!', required: true },
      { name: 'year', type: 'Int', required: false },
    ]);
  });

  it('refuses a file of several operations where one has no name', () => {
    const text = '{ books { id } } query Two { count }';
    expect(() => operationsOf(parse(text), text, 'ops.graphql')).toThrow(/name each operation/);
  });

  it('fills variables from --params, typed as declared, and names the ones missing', () => {
    expect(operationVariables(operations[1], { title: 'Dune', year: '1965' })).toEqual({
      variables: { title: 'Dune', year: 1965 },
    });
    expect(operationVariables(operations[1], {})).toEqual({ missing: ['$title (String!)'] });
  });
});

describe('planGraphql', () => {
  const TEXT = 'query BookTitles { books(limit: 5) { title } }';
  const plan = planGraphql({
    api: API,
    fileOperations: operationsOf(parse(TEXT), TEXT, 'ops.graphql'),
    params: { id: '3' },
    headers: { authorization: 'Bearer t' },
    logged: new Map([
      ['BookTitles', 30],
      ['GetBook', 10],
      ['Unknown', 5],
      ['', 2],
    ]),
  });
  const row = (handler: string) => plan.routes.find((r) => r.handler === handler)!;

  it('lists the endpoint, each operation as a scenario with the sign-in’s headers, and why the others are not', () => {
    expect(row('GraphQL endpoint (ApolloDriver)')).toMatchObject({ method: 'POST', path: '/graphql', logged: 2 });
    expect(row('GraphQL query BookTitles')).toMatchObject({ scenario: 'graphql-book-titles', logged: 30 });
    // the file's operation on books stands in for the schema's own
    expect(plan.routes.some((r) => r.handler === 'GraphQL query books')).toBe(false);
    expect(row('GraphQL query book')).toMatchObject({ scenario: 'graphql-book', logged: 10 });
    expect(plan.scenarios.find((s) => s.name === 'graphql-book')).toEqual({
      name: 'graphql-book',
      description: 'GraphQL query book',
      method: 'POST',
      path: '/graphql',
      headers: { authorization: 'Bearer t' },
      body: {
        query: 'query BenchBook($id: ID!) { book(id: $id) { id title author { id name } } }',
        variables: { id: '3' },
      },
    });
    expect(row('GraphQL operation Unknown')).toMatchObject({ scenario: null, logged: 5 });
    expect(row('GraphQL operation Unknown').notMeasured).toMatch(/--graphql-queries/);
  });

  it('names the package a driver lacks on Fastify', () => {
    const missing = planGraphql({
      api: { ...API, fastifyIntegration: { package: '@as-integrations/fastify', installed: false } },
      fileOperations: [],
      params: {},
      headers: {},
      logged: new Map(),
    });
    expect(missing.routes[0].notMeasured).toBe(
      "ApolloDriver serves GraphQL on Fastify through @as-integrations/fastify, which is not installed beside the app: Fastify cannot serve it; run npm i @as-integrations/fastify in the app's folder",
    );
  });

  it('lists the endpoint in --list-routes with its operations', () => {
    expect(routeLines({ routes: [], versioning: null, graphql: API })).toEqual([
      'POST /graphql (GraphQL, ApolloDriver: 4 queries, 3 mutations, 1 subscription)',
    ]);
  });
});

describe('answers and logs', () => {
  it('reads errors out of an answer, and the check fails on them', () => {
    expect(graphqlErrors('{"errors":[{"message":"sign in first"}],"data":null}')).toBe('sign in first');
    expect(graphqlErrors({ data: { books: [] } })).toBeNull();
    expect(withoutErrors('{"data":{"count":1}}')).toBeNull();
    expect(withoutErrors('{"errors":[{"message":"boom"}]}')).toBe('answered GraphQL errors: boom');
  });

  it('takes operation names from a logged body or the URL, and counts them per name', () => {
    const log = parseTraffic(
      [
        JSON.stringify({ req: { method: 'POST', url: '/graphql', body: { operationName: 'BookTitles' } } }),
        JSON.stringify({ req: { method: 'POST', url: '/graphql' } }),
        '127.0.0.1 - - [26/Nov/2026:10:00:00 +0000] "GET /graphql?operationName=BookTitles&query=x HTTP/1.1" 200 12',
      ].join('\n'),
    );
    expect(log.requests.map((r) => r.operation)).toEqual(['BookTitles', undefined, 'BookTitles']);
    expect(graphqlTraffic(log, '/graphql')).toEqual(
      new Map([
        ['BookTitles', 2],
        ['', 1],
      ]),
    );
  });
});
