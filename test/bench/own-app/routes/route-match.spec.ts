import { fillPath, parameterNames, routeMatcher, routePattern } from '../../../../bench/own-app/routes/route-match.js';
import type { Route } from '../../../../bench/own-app/routes/discover.js';

const route = (method: string, path: string): Route => ({ method, path, handler: 'Mock.any', version: null });

describe('routePattern', () => {
  it('names a trailing wildcard of Express 4 as Nest does, so a route registered as /mock/* is requested at /mock/', () => {
    expect(routePattern('/mock/*')).toBe('/mock/{*path}');
    expect(fillPath(route('GET', '/mock/*'), {})).toEqual({ path: '/mock/' });
  });

  it('reads an optional parameter and a parameter with a regex of Express 4', () => {
    expect(fillPath(route('GET', '/users/:id?'), {})).toEqual({ path: '/users' });
    expect(fillPath(route('GET', '/users/:id(\\d+)/card'), { id: '7' })).toEqual({ path: '/users/7/card' });
  });

  it('asks for a wildcard in the middle of a path like any parameter', () => {
    expect(parameterNames('/a/*/b')).toEqual(['wildcard1']);
  });

  it('matches what it cannot read as a pattern as the literal path, never throwing', () => {
    expect(routeMatcher([route('GET', '/weird(')])({ method: 'GET', url: '/weird(' })?.route.path).toBe('/weird(');
  });
});

describe('routeMatcher', () => {
  it('matches a request below a legacy wildcard route', () => {
    const match = routeMatcher([route('GET', '/mock/*')]);
    expect(match({ method: 'GET', url: '/mock/a/b' })?.params).toEqual({ path: ['a', 'b'] });
  });
});
