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

  it('names a 401 on both adapters as the app refusing the account where another request proved the sign-in', () => {
    const planned = [
      routeEntry({ method: 'GET', path: '/user/:id', handler: 'UserController.findOne', scenario: 'user-id' }),
      routeEntry({
        method: 'POST',
        path: '/user',
        handler: 'UserController.create',
        scenario: 'post-user',
        body: 'derived',
      }),
    ];
    const refused = (scenario: string, request: string) =>
      routeCompatibility({
        scenario,
        request,
        same: true,
        difference: null,
        expect: null,
        express: { status: 401, contentType: 'application/json', error: null, body: '{}', refusal: 'Unauthorized.' },
        notMeasured:
          'answers 401 on both adapters: Unauthorized.; give it other --params, a --body, or a --config scenario with what it needs',
      });
    const compatibility = {
      startFailure: null,
      routes: [refused('user-id', 'GET /user/1'), refused('post-user', 'POST /user')],
    };
    const [read, write] = checkedRoutes(planned, compatibility, new Map(), 'GET /user');
    expect(read.notMeasured).toBe(
      'answers 401 on both adapters (Unauthorized), where GET /user answered 2xx with the same sign-in: the app refuses this account here (a guard, a role, or a value in the body it checks, such as a current password); sign in as an account it takes',
    );
    expect(write.notMeasured).toMatch(
      /the app refuses this account here .*; sign in as an account it takes, or a --body with the value it checks$/,
    );
    // without a proved sign-in the advice stays
    expect(checkedRoutes(planned, compatibility, new Map())[0].notMeasured).toContain('give it other --params');
  });
});
