import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadDriver } from '../../../../bench/run/drivers/registry.js';

// A server per test that counts the connections it accepted and the requests it answered, so the test sees what the
// generator really did rather than what it says it did (and no connection of an earlier test lands in its count).
let server: Server;
let url: string;
let accepted = 0;
let answered = 0;

beforeEach(async () => {
  accepted = 0;
  answered = 0;
  server = createServer((_req, res) => {
    answered++;
    res.end('Hello World!');
  });
  server.on('connection', () => accepted++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterEach(() => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(resolve));
});

const CONNECTIONS = 8;
/** Connections still open or opening when a run ends, and wrk's own check of the address before it. */
const IN_FLIGHT_AT_END = CONNECTIONS + 1;
const run = async (name: string, load: { requestsPerConnection?: number; connectionRate?: number }, seconds = 1) =>
  (await loadDriver(name)).run({
    url,
    method: 'GET',
    headers: {},
    body: undefined,
    connections: CONNECTIONS,
    durationSec: seconds,
    expectedStatus: 200,
    pipelining: 1,
    ...load,
  });

describe.each(['wrk', 'autocannon'])('%s opening connections as a profile asks', (name) => {
  it('opens a new connection every 10 requests', async () => {
    const result = await run(name, { requestsPerConnection: 10 });
    expect(result.requests).toBeGreaterThan(200);
    expect(answered / accepted).toBeGreaterThan(8);
    expect(answered / accepted).toBeLessThan(11);
    // wrk counts the connections it opened again, and they are the server's
    if (name === 'wrk')
      expect(Math.abs((result.connectionsOpened ?? 0) - accepted)).toBeLessThanOrEqual(IN_FLIGHT_AT_END);
  });

  it('opens a new connection for every request', async () => {
    const result = await run(name, { requestsPerConnection: 1 });
    expect(result.requests).toBeGreaterThan(100);
    // autocannon sends its next request before the server has closed, and Node answers a few of them
    expect(accepted / answered).toBeGreaterThan(0.95);
    expect(accepted - answered).toBeLessThanOrEqual(IN_FLIGHT_AT_END);
    if (name === 'wrk')
      expect(Math.abs((result.connectionsOpened ?? 0) - accepted)).toBeLessThanOrEqual(IN_FLIGHT_AT_END);
  });

  it('paces idle connections: about the rate asked on each, and no connection opened twice', async () => {
    const result = await run(name, { connectionRate: 4 }, 3);
    const offered = CONNECTIONS * 4 * 3;
    expect(answered).toBeGreaterThan(offered * 0.6);
    expect(answered).toBeLessThan(offered * 1.4);
    // wrk first checks the address with a connection of its own, closed before the run
    expect(accepted - CONNECTIONS).toBe(name === 'wrk' ? 1 : 0);
    expect(result.errors).toBe(0);
  });
});

describe('a generator that cannot do what the profile asks says so', () => {
  it('ab neither paces nor closes after some requests; h2load neither', async () => {
    await expect(run('ab', { requestsPerConnection: 10 })).rejects.toThrow(/ab neither paces/);
    const h2load = (await import('../../../../bench/run/drivers/h2load.js')).default;
    await expect(
      h2load.run({
        url: 'h2c://127.0.0.1:1/',
        method: 'GET',
        headers: {},
        body: undefined,
        connections: 1,
        durationSec: 1,
        expectedStatus: 200,
        pipelining: 1,
        connectionRate: 1,
      }),
    ).rejects.toThrow(/h2load neither paces/);
  });
});
