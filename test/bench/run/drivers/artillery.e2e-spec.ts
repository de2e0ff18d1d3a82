import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MULTIPART_TYPE } from '../../../../bench/model/payloads.js';
import { loadDriver, type RouteRequest } from '../../../../bench/run/drivers/registry.js';

// A server that sets a cookie on every answer and keeps what arrived, so the test sees what Artillery really sent:
// per route, with which cookie, headers and body.
let server: Server;
let origin: string;
const arrived: { route: string; cookie: string; who: string; encoding: string; body: Buffer }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      arrived.push({
        route: `${req.method} ${req.url}`,
        cookie: req.headers.cookie ?? '',
        who: String(req.headers['x-who'] ?? ''),
        encoding: req.headers['accept-encoding'] ?? '',
        body: Buffer.concat(chunks),
      });
      res.setHeader('set-cookie', 'session=abc');
      res.statusCode = req.method === 'POST' ? 201 : 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  arrived.length = 0;
});

const EVERY_BYTE = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const RUN = { connections: 4, durationSec: 1, pipelining: 1, headers: { 'x-who': 'bench' } };
const INSTALL_MS = 600_000;

describe('--driver artillery', () => {
  it(
    'sends for the run, no cookie back and no accept-encoding added, counts what the server answered and the CPU it used',
    async () => {
      const driver = await loadDriver('artillery');
      await driver.checkAvailable();
      const result = await driver.run({
        ...RUN,
        url: `${origin}/hello`,
        method: 'GET',
        body: undefined,
        expectedStatus: 200,
      });
      expect(arrived.length).toBeGreaterThan(10);
      expect(result.requests).toBe(arrived.length);
      expect(result.statusCounts).toEqual({ 200: arrived.length });
      expect(result.rps).toBeCloseTo(arrived.length / result.durationSec, 6);
      expect(result.durationSec).toBeGreaterThan(0.95);
      expect(result.durationSec).toBeLessThan(1.5);
      expect(new Set(arrived.map((each) => each.cookie))).toEqual(new Set(['']));
      expect(new Set(arrived.map((each) => `${each.who} ${each.encoding}`))).toEqual(new Set(['bench ']));
      expect(result.generatorCpuSec).toBeGreaterThan(0);
      expect(result.generatorCpuSec).toBeLessThan(result.durationSec * 2);
    },
    INSTALL_MS,
  );

  it('goes round a mix counted per route, a form of bytes sent byte for byte with a fresh value in each', async () => {
    const driver = await loadDriver('artillery');
    const form = Buffer.concat([EVERY_BYTE, Buffer.from('name=x;')]).toString('latin1');
    const sequence: RouteRequest[] = [
      { route: 'read', method: 'GET', path: '/read?page=1', headers: {}, body: undefined, expectedStatus: 200 },
      {
        route: 'form',
        method: 'POST',
        path: '/form',
        headers: { 'content-type': MULTIPART_TYPE },
        body: form,
        expectedStatus: 201,
      },
      {
        route: 'note',
        method: 'POST',
        path: '/note',
        headers: { 'content-type': 'application/json' },
        body: '{"title":"{{unique}}"}',
        expectedStatus: 201,
      },
    ];
    const result = await driver.run({
      ...RUN,
      url: `${origin}/`,
      method: 'GET',
      body: undefined,
      sequence,
      expectedStatus: 200,
    });
    const count = (route: string) => arrived.filter((each) => each.route === route).length;
    expect(result.sentByRoute).toEqual({
      read: count('GET /read?page=1'),
      form: count('POST /form'),
      note: count('POST /note'),
    });
    expect(result.unexpectedStatus).toBe(0);
    const forms = arrived.filter((each) => each.route === 'POST /form').map((each) => each.body.toString('latin1'));
    expect(new Set(forms)).toEqual(new Set([form]));
    const titles = arrived
      .filter((each) => each.route === 'POST /note')
      .map((each) => JSON.parse(each.body.toString()).title);
    expect(new Set(titles).size).toBe(titles.length);
  }, 60_000);
});
