import type { INestApplication } from '@nestjs/common';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { AdapterName } from '../src/bootstrap.js';
import { productName, productStock, unitPriceCents } from '../src/products/product-catalog.js';
import { STACK_PARTS, type StackPart } from '../src/config/app-settings.js';
import { ADAPTERS, DATABASES, closeAll, ensureMysqlDatabase, startBoth } from './support/app-matrix.js';

/** helmet's headers under the app's policy; both adapters must send exactly these. */
const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};
const ALLOWED_ORIGIN = 'https://shop.example';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Answers of every kind: text, small JSON, a large JSON page, a 400, a 404. */
const PATHS = ['/json', '/products', '/catalog', '/catalog?page=abc', '/purchases/999999999', '/nope'];

const securityHeadersOf = (headers: Record<string, string>) =>
  Object.fromEntries(Object.keys(SECURITY_HEADERS).map((name) => [name, headers[name]]));

let logDir: string;
beforeAll(async () => {
  logDir = await mkdtemp(join(tmpdir(), 'nest-adapter-bench-request-log-'));
});
afterAll(() => rm(logDir, { recursive: true, force: true }));

const logFileOf = (label: string, adapter: AdapterName) => join(logDir, `${label}-${adapter}.log`);

/** Both adapters on the production stack minus `omit`, each logging to a file of its own. */
const startProduction = (url: string | undefined, label: string, omit: readonly StackPart[] = []) =>
  startBoth(url, (adapter) => ({
    APP_STACK: 'production',
    APP_STACK_OMIT: omit.join(','),
    REQUEST_LOG_FILE: logFileOf(label, adapter),
  }));

describe.each(DATABASES)('the production stack on the $name database', ({ name, url }) => {
  let apps: Record<AdapterName, INestApplication>;
  const get = (adapter: AdapterName, path: string) => request(apps[adapter].getHttpServer()).get(path);

  beforeAll(async () => {
    if (url) await ensureMysqlDatabase(url);
    apps = await startProduction(url, name);
  });
  afterAll(() => closeAll(apps));

  describe.each(ADAPTERS)('the %s adapter', (adapter) => {
    it.each(PATHS)('GET %s sends the security header set and no X-Powered-By', async (path) => {
      const res = await get(adapter, path);
      expect(securityHeadersOf(res.headers)).toEqual(SECURITY_HEADERS);
      expect(res.headers['x-powered-by']).toBeUndefined();
    });

    it('allows the shop front end by CORS, exposing the request id', async () => {
      const res = await get(adapter, '/json').set('Origin', ALLOWED_ORIGIN);
      expect(res.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
      expect(res.headers['access-control-expose-headers']).toBe('x-request-id');
      expect(res.headers.vary).toMatch(/^Origin\b/);
    });

    it('does not allow another origin', async () => {
      const res = await get(adapter, '/json').set('Origin', 'https://evil.example');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('answers a request without an id with a fresh UUID in X-Request-Id', async () => {
      const [first, second] = [await get(adapter, '/json'), await get(adapter, '/json')];
      expect(first.headers['x-request-id']).toMatch(UUID);
      expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    });

    it('echoes the client’s X-Request-Id, and replaces one longer than 128 characters', async () => {
      expect((await get(adapter, '/json').set('X-Request-Id', 'client-42')).headers['x-request-id']).toBe('client-42');
      const long = (await get(adapter, '/json').set('X-Request-Id', 'x'.repeat(129))).headers['x-request-id'];
      expect(long).toMatch(UUID);
    });

    it('gzips a body of 1 KiB and more for a client that takes gzip, and only then', async () => {
      const page = await get(adapter, '/catalog').set('Accept-Encoding', 'gzip');
      expect(page.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(page.text)).toHaveLength(50);
      const small = await get(adapter, '/json').set('Accept-Encoding', 'gzip');
      expect([small.headers['content-encoding'], small.text]).toEqual([undefined, '{"message":"Hello, World!"}']);
      const identity = await get(adapter, '/catalog').set('Accept-Encoding', 'identity');
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.text).toBe(page.text);
    });

    it('answers the existing routes with the bare stack’s bytes', async () => {
      const [json, product] = [await get(adapter, '/json'), await get(adapter, '/products/7')];
      expect(json.text).toBe('{"message":"Hello, World!"}');
      expect(product.text).toBe(
        JSON.stringify({ id: 7, name: productName(7), priceCents: unitPriceCents(7), stock: productStock(7) }),
      );
    });

    it('leaves the internal costCents out of /catalog', async () => {
      const [item] = (await get(adapter, '/catalog?pageSize=1')).body;
      expect(Object.keys(item)).toEqual(['id', 'name', 'description', 'priceCents', 'category']);
    });
  });

  it.each(PATHS)('both adapters send the same security headers and the same body for GET %s', async (path) => {
    const [express, fastify] = await Promise.all(ADAPTERS.map((adapter) => get(adapter, path)));
    expect(securityHeadersOf(fastify.headers)).toEqual(securityHeadersOf(express.headers));
    expect([fastify.status, fastify.text]).toEqual([express.status, express.text]);
  });
});

describe('the request log', () => {
  const LABEL = 'log';
  let lines: Record<AdapterName, Record<string, unknown>[]>;
  let requestIds: Record<AdapterName, string[]>;

  beforeAll(async () => {
    const apps = await startProduction(undefined, LABEL);
    requestIds = { express: [], fastify: [] };
    try {
      for (const adapter of ADAPTERS) {
        const agent = request(apps[adapter].getHttpServer());
        const answers = [
          await agent.get('/catalog?page=2&pageSize=3').set('X-Request-Id', `${adapter}-1`),
          await agent.get('/purchases/abc'),
          await agent.post('/purchases').send({ items: [{ productId: 1, quantity: 1 }] }),
        ];
        requestIds[adapter] = answers.map((res) => res.headers['x-request-id']);
      }
    } finally {
      // Closing writes out what the asynchronous log stream still holds
      await closeAll(apps);
    }
    lines = Object.fromEntries(
      await Promise.all(
        ADAPTERS.map(async (adapter) => {
          const text = await readFile(logFileOf(LABEL, adapter), 'utf8');
          return [
            adapter,
            text
              .trimEnd()
              .split('\n')
              .map((line) => JSON.parse(line)),
          ];
        }),
      ),
    );
  });

  it.each(ADAPTERS)(
    'on %s has one JSON line per request: method, url, status, response time, request id',
    (adapter) => {
      expect(lines[adapter].map(({ req, res }) => ({ req, res }))).toEqual([
        { req: { id: `${adapter}-1`, method: 'GET', url: '/catalog?page=2&pageSize=3' }, res: { statusCode: 200 } },
        { req: { id: requestIds[adapter][1], method: 'GET', url: '/purchases/abc' }, res: { statusCode: 400 } },
        { req: { id: requestIds[adapter][2], method: 'POST', url: '/purchases' }, res: { statusCode: 201 } },
      ]);
      for (const line of lines[adapter]) expect(line.responseTime).toBeTypeOf('number');
    },
  );

  it('has the same fields on both adapters', () => {
    const fieldsOf = (line: Record<string, unknown>) =>
      Object.entries(line).map(([key, value]) => [key, value && typeof value === 'object' ? Object.keys(value) : key]);
    expect(lines.fastify.map(fieldsOf)).toEqual(lines.express.map(fieldsOf));
  });
});

/** What each part of the stack shows in an answer to GET /catalog from the allowed origin, taking gzip. */
const PART_SIGNS: Record<Exclude<StackPart, 'logger'>, (res: request.Response) => unknown> = {
  helmet: (res) => res.headers['content-security-policy'],
  cors: (res) => res.headers['access-control-allow-origin'],
  compression: (res) => res.headers['content-encoding'],
  'request-id': (res) => res.headers['x-request-id'],
  serializer: (res) => !('costCents' in res.body[0]),
};

describe.each(STACK_PARTS)('APP_STACK_OMIT=%s', (part) => {
  let apps: Record<AdapterName, INestApplication>;
  const label = `omit-${part}`;

  beforeAll(async () => {
    apps = await startProduction(undefined, label, [part]);
  });
  afterAll(() => closeAll(apps));

  it.each(ADAPTERS)(`takes ${part} out of the stack on %s and keeps the other parts`, async (adapter) => {
    const res = await request(apps[adapter].getHttpServer())
      .get('/catalog')
      .set('Origin', ALLOWED_ORIGIN)
      .set('Accept-Encoding', 'gzip');
    expect(res.status).toBe(200);
    for (const [other, signOf] of Object.entries(PART_SIGNS)) {
      expect([other, Boolean(signOf(res))]).toEqual([other, other !== part]);
    }
    await apps[adapter].close();
    const logged = await readFile(logFileOf(label, adapter), 'utf8').catch(() => '');
    expect(logged.includes('"url":"/catalog"')).toBe(part !== 'logger');
  });
});
