import type { RouteRequest } from '../../../../bench/run/drivers/registry.js';
import { countOf, expectedStatuses } from '../../../../bench/run/drivers/statuses.js';

const request = (route: string, expectedStatus: number): RouteRequest => ({
  route,
  method: expectedStatus === 201 ? 'POST' : 'GET',
  path: `/${route}`,
  headers: {},
  body: undefined,
  expectedStatus,
});

describe('the statuses a mix counts as throughput', () => {
  it("are each route's own, once each, in the order the sequence first asks for them", () => {
    const sequence = [request('products', 200), request('orders', 201), request('products', 200), request('x', 202)];
    expect(expectedStatuses(sequence)).toEqual([200, 201, 202]);
  });
});

describe('countOf', () => {
  const counts = { 200: 90, 201: 8, 404: 2 };

  it('counts the answers with one status, or with one of several', () => {
    expect(countOf(counts, 200)).toBe(90);
    expect(countOf(counts, [200, 201])).toBe(98);
  });

  it('counts a status no answer had as none', () => {
    expect(countOf(counts, [500, 503])).toBe(0);
  });
});
