import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MULTIPART_TYPE } from '../../../../bench/model/payloads.js';
import { loadDriver } from '../../../../bench/run/drivers/registry.js';
import { startOpenLoopGenerator } from '../../../../bench/run/open-loop/runner.js';
import { send } from '../../../../bench/run/verify.js';

// A form of bytes (an image in a form: a string of one character per byte, sent with the bench's own multipart type)
// with a unique value in it: every sender must carry each byte as it is, and put a fresh value in the placeholder
// alone. The server keeps every body that arrived, so the test sees what was sent.
const EVERY_BYTE = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const BODY = Buffer.concat([EVERY_BYTE, Buffer.from('name={{unique}};'), EVERY_BYTE]).toString('latin1');
const PLAIN = Buffer.concat([EVERY_BYTE, Buffer.from(EVERY_BYTE).reverse()]);
const FORM = { 'content-type': MULTIPART_TYPE };

let server: Server;
let origin: string;
const arrived: Buffer[] = [];
// each test sends to a path of its own: a request of the test before that arrives late is not kept as this one's
let tests = 0;
let path = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === path) arrived.push(Buffer.concat(chunks));
      res.statusCode = 201;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  arrived.length = 0;
  path = `/upload-${++tests}`;
});

/** The values the placeholder became, each body's bytes around it checked to be the ones sent. */
function filledValues(bodies: Buffer[]) {
  return bodies.map((body) => {
    const text = body.toString('latin1');
    const head = EVERY_BYTE.toString('latin1') + 'name=';
    expect(text.startsWith(head)).toBe(true);
    expect(text.endsWith(`;${EVERY_BYTE.toString('latin1')}`)).toBe(true);
    return text.slice(head.length, -EVERY_BYTE.length - 1);
  });
}

const load = { method: 'POST', headers: FORM, connections: 2, durationSec: 1, expectedStatus: 201, pipelining: 1 };

describe('a body of bytes with a unique value in it', () => {
  it.each(['wrk', 'autocannon'])('%s sends it byte for byte, a fresh value in each request', async (name) => {
    const driver = await loadDriver(name);
    await driver.run({ ...load, url: `${origin}${path}`, body: BODY });
    const values = filledValues(arrived);
    expect(values.length).toBeGreaterThan(10);
    expect(new Set(values).size).toBe(values.length);
    expect(values.every((value) => /^[0-9a-z]+$/.test(value))).toBe(true);
  });

  it.each(['wrk', 'autocannon'])('%s sends it byte for byte in a mix', async (name) => {
    const driver = await loadDriver(name);
    const route = { method: 'POST', path, headers: FORM, expectedStatus: 201 };
    await driver.run({
      ...load,
      headers: {},
      url: `${origin}/`,
      body: undefined,
      sequence: [
        { ...route, route: 'form', body: BODY },
        { ...route, route: 'plain', body: PLAIN.toString('latin1') },
      ],
    });
    const [plain, filled] = [arrived.filter((b) => b.equals(PLAIN)), arrived.filter((b) => !b.equals(PLAIN))];
    expect(plain.length).toBeGreaterThan(5);
    expect(new Set(filledValues(filled)).size).toBe(filled.length);
  });

  it('ab sends one without a placeholder byte for byte', async () => {
    const driver = await loadDriver('ab');
    await driver.run({ ...load, url: `${origin}${path}`, body: PLAIN.toString('latin1') });
    expect(arrived.length).toBeGreaterThan(10);
    expect(arrived.every((body) => body.equals(PLAIN))).toBe(true);
  });

  it('the open-loop generator, in its own process, sends it byte for byte', async () => {
    const generator = startOpenLoopGenerator({ cpu: null });
    try {
      await generator.run({
        method: 'POST',
        headers: FORM,
        body: BODY,
        origin,
        path,
        expectedStatus: 201,
        ratePerSec: 50,
        durationSec: 1,
        connections: 2,
        serverPid: null,
      });
    } finally {
      await generator.stop();
    }
    const values = filledValues(arrived);
    expect(values.length).toBeGreaterThanOrEqual(50);
    expect(new Set(values).size).toBe(values.length);
  });

  it('the check before timing sends it byte for byte', async () => {
    const answer = await send(`${origin}${path}`, { method: 'POST', path, headers: FORM, body: BODY });
    expect(answer.status).toBe(201);
    expect(filledValues(arrived)).toHaveLength(1);
  });
});
