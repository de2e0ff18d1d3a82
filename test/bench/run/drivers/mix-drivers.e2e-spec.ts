import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadDriver } from '../../../../bench/run/drivers/registry.js';
import { interleave } from '../../../../bench/model/mix.js';

// A server that answers everything (201 to a POST) and counts what arrived, per method, path, header and body, so the test sees what
// the generator really sent rather than what it says it sent.
let server: Server;
let origin: string;
const received = new Map<string, number>();

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const key = `${req.method} ${req.url} who=${String(req.headers['x-who'] ?? '')} enc=${req.headers['accept-encoding'] ?? ''} ${body}`;
      received.set(key, (received.get(key) ?? 0) + 1);
      res.statusCode = req.method === 'POST' ? 201 : 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => received.clear());

const CONNECTIONS = 10;
const REQUESTS = {
  catalog: {
    route: 'catalog',
    method: 'GET',
    path: '/catalog?page=1',
    headers: {},
    body: undefined,
    expectedStatus: 200,
  },
  secure: {
    route: 'secure',
    method: 'GET',
    path: '/secure',
    headers: { 'x-who': 'token' },
    body: undefined,
    expectedStatus: 200,
  },
  purchases: {
    route: 'purchases',
    method: 'POST',
    path: '/purchases',
    headers: { 'content-type': 'application/json' },
    body: '{"items":[]}',
    expectedStatus: 201,
  },
};
const cycle = interleave([
  { route: 'catalog', weight: 3 },
  { route: 'secure', weight: 2 },
  { route: 'purchases', weight: 1 },
]);

describe.each(['wrk', 'autocannon'])('%s going round a mix', (name) => {
  it('sends each route with its own method, headers and body plus the run headers, in the weights, counted per route', async () => {
    const driver = await loadDriver(name);
    const result = await driver.run({
      url: `${origin}/`,
      method: 'GET',
      headers: { 'accept-encoding': 'gzip' },
      body: undefined,
      sequence: cycle.map((route) => REQUESTS[route as keyof typeof REQUESTS]),
      connections: CONNECTIONS,
      durationSec: 1,
      expectedStatus: 200,
      pipelining: 1,
    });
    const arrived = Object.fromEntries(received);
    expect(Object.keys(arrived).sort()).toEqual([
      'GET /catalog?page=1 who= enc=gzip ',
      'GET /secure who=token enc=gzip ',
      'POST /purchases who= enc=gzip {"items":[]}',
    ]);
    const sent = result.sentByRoute ?? {};
    const total = Object.values(sent).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(600);
    // the POSTs' 201 counts as throughput beside the GETs' 200
    expect(result.unexpectedStatus).toBe(0);
    expect(result.rps * result.durationSec).toBeCloseTo(result.requests, 6);
    // counted as sent but never answered: what was in flight when the run ended, a request or two per connection
    expect(total - result.requests).toBeGreaterThanOrEqual(0);
    expect(total - result.requests).toBeLessThanOrEqual(2 * CONNECTIONS);
    expect(Math.abs(sent.catalog - arrived['GET /catalog?page=1 who= enc=gzip '])).toBeLessThanOrEqual(2 * CONNECTIONS);
    expect(sent.catalog / total).toBeCloseTo(3 / 6, 1);
    expect(sent.secure / total).toBeCloseTo(2 / 6, 1);
    expect(sent.purchases / total).toBeCloseTo(1 / 6, 1);
  });
});
