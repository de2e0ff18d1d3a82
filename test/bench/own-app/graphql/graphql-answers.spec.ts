import { compare } from '../../../../bench/own-app/check/compatibility.js';
import { graphqlErrors, graphqlRefusals } from '../../../../bench/own-app/graphql/graphql-answers.js';
import { routeEntry } from '../../support/own-app-record.js';

/** Apollo Server 3's answer to a create whose INSERT failed: its errors carry the SQL, far past what the report keeps. */
const duplicate = (attempt: number) =>
  JSON.stringify({
    errors: [
      {
        message: 'duplicate key value violates unique constraint "REL_94e634a7fa0b42d0e4425f449b"',
        path: ['createProduct'],
        extensions: {
          code: 'INTERNAL_SERVER_ERROR',
          exception: {
            query: 'INSERT INTO "products"("id", "name", "id_recipe") VALUES (DEFAULT, $1, $2) RETURNING "id"',
            parameters: [`name${attempt}`, 1],
          },
        },
      },
    ],
    data: null,
  });
/** The endpoint's entry for one mutation, as the route list holds each operation. */
const mutationRoute = (name: string, scenario: string) =>
  routeEntry({ method: 'POST', path: '/graphql', handler: `GraphQL mutation ${name}`, scenario, graphql: 'mutation' });
const answer = (body: string) => ({ status: 200, contentType: 'application/json', body, error: null, setCookies: [] });

describe('graphqlErrors on an answer the report kept only the start of', () => {
  it('reads the messages the start holds, and a message the cut ends', () => {
    const kept = compare('op', 'POST /graphql', answer(duplicate(1)), answer(duplicate(2)), answer(duplicate(3)));
    expect(kept.express.body).toMatch(/…$/);
    expect(graphqlErrors(kept.express.body)).toBe(
      'duplicate key value violates unique constraint "REL_94e634a7fa0b42d0e4425f449b"',
    );
    expect(graphqlErrors(`{"errors":[{"message":"a long one, cut …`)).toBe('a long one, cut …');
  });

  it('reads nothing from a cut answer without errors, or from text that was not cut', () => {
    expect(graphqlErrors(`{"data":{"products":[{"name":"errors"}]…`)).toBeNull();
    expect(graphqlErrors('not json')).toBeNull();
  });

  it('refuses an operation whose errors outgrew what the check kept, before it is timed', () => {
    const checked = compare(
      'graphql-create-product',
      'POST /graphql',
      answer(duplicate(1)),
      answer(duplicate(2)),
      answer(duplicate(3)),
    );
    // the answers vary (each request's own values), so no body is held and the check's kept body is all there is
    expect(checked.expect).toMatchObject({ status: 200 });
    expect(checked.expect?.body).toBeUndefined();
    const routes = [mutationRoute('createProduct', 'graphql-create-product')];
    expect(graphqlRefusals(routes, [checked]).get('graphql-create-product')).toMatch(
      /^answers GraphQL errors on both adapters: duplicate key value violates unique constraint/,
    );
  });

  it('quotes the errors of an operation that failed alike on both adapters, not the server’s log', () => {
    const failed = (body: string) => ({ ...answer(body), status: 500, error: '[object Object]' });
    const errors = '{"errors":[{"message":"The \\"path\\" argument must be of type string"}],"data":null}';
    const checked = compare('graphql-upload-files', 'POST /graphql', failed(errors), failed(errors), failed(errors));
    expect(checked).toMatchObject({ same: true, expect: null });
    const routes = [mutationRoute('uploadFiles', 'graphql-upload-files')];
    expect(graphqlRefusals(routes, [checked]).get('graphql-upload-files')).toMatch(
      /^answers 500 with GraphQL errors on both adapters: The "path" argument must be of type string; /,
    );
    // one that differs keeps its own row
    const differs = compare('graphql-upload-files', 'POST /graphql', failed(errors), answer('{}'), failed(errors));
    expect(graphqlRefusals(routes, [differs]).size).toBe(0);
  });

  it('does not time an operation whose first request succeeded and whose next, on Fastify, answered errors', () => {
    const created = answer('{"data":{"createProduct":{"id":"p1"}}}');
    const checked = compare(
      'graphql-create-product',
      'POST /graphql',
      created,
      answer(duplicate(2)),
      answer(duplicate(3)),
    );
    // its answers vary, so they were not compared: alike, held to Express's status alone
    expect(checked).toMatchObject({ same: true, bodyVaries: true, expect: { status: 200 } });
    const routes = [mutationRoute('createProduct', 'graphql-create-product')];
    expect(graphqlRefusals(routes, [checked]).get('graphql-create-product')).toMatch(
      /^answered without GraphQL errors on Express, then with them on Fastify, asked second: duplicate key value/,
    );
  });
});
