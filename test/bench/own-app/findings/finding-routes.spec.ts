import { oneRowPerLine, routeLabel } from '../../../../bench/own-app/findings/finding-routes.js';
import { routeEntry } from '../../support/own-app-record.js';

describe('routeLabel: a route as the findings name it', () => {
  it('names a GraphQL operation beside its endpoint', () => {
    const operation = routeEntry({
      method: 'POST',
      path: '/graphql',
      handler: 'GraphQL mutation updateUser',
      scenario: 'graphql-update-user',
      graphql: 'mutation',
    });
    expect(routeLabel(operation)).toBe('POST /graphql · mutation updateUser');
  });

  it('leaves the endpoint’s own row and a REST route as method and path', () => {
    const endpoint = routeEntry({
      method: 'POST',
      path: '/graphql',
      handler: 'GraphQL endpoint (ApolloDriver)',
      scenario: null,
      graphql: 'endpoint',
    });
    expect(routeLabel(endpoint)).toBe('POST /graphql');
    expect(routeLabel(routeEntry({ method: 'GET', path: '/users/:id', scenario: 'users-id' }))).toBe('GET /users/:id');
  });
});

describe('oneRowPerLine', () => {
  type Row = { source: string; where: string | null; route: string | null };
  const interceptor: Row = { source: 'code', where: 'src/files.controller.ts:52', route: 'POST /files' };
  const answered: Row = { source: 'request', where: 'src/files.controller.ts:52', route: 'POST /files' };

  it('leaves out the scan’s row at a line a route’s own answers are said at', () => {
    expect(oneRowPerLine([interceptor], [answered])).toEqual([]);
  });

  it('keeps the scan’s row at that line for another route, and where no answer is said at a line', () => {
    const other = { ...interceptor, route: 'POST /avatars' };
    const unplaced: Row = { source: 'request', where: null, route: 'POST /files' };
    expect(oneRowPerLine([interceptor, other], [answered])).toEqual([other]);
    expect(oneRowPerLine([interceptor], [unplaced])).toEqual([interceptor]);
  });
});
