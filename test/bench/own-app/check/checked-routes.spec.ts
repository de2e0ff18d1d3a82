import { checkedRoutes } from '../../../../bench/own-app/check/checked-routes.js';
import { routeCompatibility, routeEntry } from '../../support/own-app-record.js';

describe('checkedRoutes', () => {
  it('takes a route that differs out of the run, keeping the scenario its check ran as', () => {
    const planned = [
      routeEntry({
        method: 'POST',
        path: '/graphql',
        handler: 'GraphQL mutation uploadFile',
        scenario: 'graphql-upload-file',
        request: 'POST /graphql mutation uploadFile',
        graphql: 'mutation',
      }),
    ];
    const found = routeCompatibility({
      scenario: 'graphql-upload-file',
      request: 'POST /graphql',
      same: false,
      difference: 'status 200 → 415',
      expect: null,
    });
    const [route] = checkedRoutes(planned, { startFailure: null, routes: [found] }, new Map());
    expect(route).toMatchObject({
      scenario: null,
      checked: 'graphql-upload-file',
      notMeasured: 'differs on Fastify: status 200 → 415',
    });
  });
});
