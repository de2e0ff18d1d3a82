import type { INestApplication } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import request, { type Response } from 'supertest';
import { DataSource } from 'typeorm';
import type { AdapterName } from '../src/bootstrap.js';
import {
  CATALOG_ITEM_COUNT,
  CATEGORY_NAMES,
  catalogItemCostCents,
  catalogItemDescription,
  catalogItemName,
  catalogItemPriceCents,
  categoryIdOf,
} from '../src/catalog/catalog-data.js';
import { ADAPTERS, DATABASES, closeAll, ensureMysqlDatabase, startBoth } from './support/app-matrix.js';

type Stack = 'bare' | 'production';
/** The new routes answer on both stacks; the production stack's serializer leaves out the internal fields. */
const STACKS: readonly Stack[] = ['bare', 'production'];

const JSON_TYPE = 'application/json; charset=utf-8';
const BODY_LIMIT_BYTES = 1024 * 1024;

const nestError = (statusCode: number, message: string | string[]) =>
  JSON.stringify({ message, error: STATUS_CODES[statusCode], statusCode });

/** A catalogue item: every column on the bare stack, without the internal costCents on the production stack. */
const catalogItem = (id: number, stack: Stack) => ({
  id,
  name: catalogItemName(id),
  description: catalogItemDescription(id),
  priceCents: catalogItemPriceCents(id),
  ...(stack === 'bare' ? { costCents: catalogItemCostCents(id) } : {}),
  category: { id: categoryIdOf(id), name: CATEGORY_NAMES[categoryIdOf(id) - 1] },
});
const catalogPage = (firstId: number, count: number) => (stack: Stack) =>
  JSON.stringify(Array.from({ length: count }, (_, i) => catalogItem(firstId + i, stack)));

type Agent = ReturnType<typeof request>;
const postPurchase =
  (body: unknown, contentType = 'application/json') =>
  (agent: Agent) =>
    agent
      .post('/purchases')
      .set('Content-Type', contentType)
      .send(typeof body === 'string' ? body : JSON.stringify(body));

interface Case {
  name: string;
  send: (agent: Agent) => request.Test;
  status: number;
  /** The exact body, the same on both stacks unless it depends on the stack. */
  text: string | ((stack: Stack) => string);
}

const CATALOG_CASES: Case[] = [
  {
    name: 'GET /catalog answers the first 50 items with their categories',
    send: (a) => a.get('/catalog'),
    status: 200,
    text: catalogPage(1, 50),
  },
  {
    name: 'GET /catalog?page=3&pageSize=7 answers items 15..21',
    send: (a) => a.get('/catalog?page=3&pageSize=7'),
    status: 200,
    text: catalogPage(15, 7),
  },
  {
    name: 'GET /catalog clamps a pageSize above 100 to 100',
    send: (a) => a.get('/catalog?page=10&pageSize=1000'),
    status: 200,
    text: catalogPage(901, 100),
  },
  {
    name: 'GET /catalog clamps a pageSize below 1 to 1',
    send: (a) => a.get('/catalog?page=4&pageSize=-5'),
    status: 200,
    text: catalogPage(4, 1),
  },
  {
    name: 'GET /catalog answers an empty array past the last page',
    send: (a) => a.get(`/catalog?page=${CATALOG_ITEM_COUNT / 50 + 1}`),
    status: 200,
    text: '[]',
  },
  ...(
    [
      [
        'abc',
        ['page must not be greater than 1000000', 'page must not be less than 1', 'page must be an integer number'],
      ],
      ['1.5', ['page must be an integer number']],
      ['', ['page must not be less than 1']],
    ] as const
  ).map(([page, messages]) => ({
    name: `GET /catalog?page=${page} answers 400: the page must be an integer from 1`,
    send: (a: Agent) => a.get(`/catalog?page=${page}`),
    status: 400,
    text: nestError(400, [...messages]),
  })),
  {
    name: 'GET /catalog?page=0 answers 400: pages start at 1',
    send: (a) => a.get('/catalog?page=0'),
    status: 400,
    text: nestError(400, ['page must not be less than 1']),
  },
  {
    name: 'GET /catalog?pageSize=ten answers 400',
    send: (a) => a.get('/catalog?pageSize=ten'),
    status: 400,
    text: nestError(400, ['pageSize must be an integer number']),
  },
  {
    name: 'GET /catalog answers 400 for an unknown query parameter',
    send: (a) => a.get('/catalog?sort=name'),
    status: 400,
    text: nestError(400, ['property sort should not exist']),
  },
];

const PURCHASE_ERROR_CASES: Case[] = [
  {
    name: 'POST /purchases answers 422 naming the catalogue ids that do not exist',
    send: postPurchase({
      items: [
        { productId: 1, quantity: 1 },
        { productId: 1001, quantity: 1 },
        { productId: 5000, quantity: 2 },
      ],
    }),
    status: 422,
    text: nestError(422, 'Catalog items not found: 1001, 5000'),
  },
  {
    name: 'POST /purchases answers 400 for no items',
    send: postPurchase({ items: [] }),
    status: 400,
    text: nestError(400, ['items must contain at least 1 elements']),
  },
  {
    name: 'POST /purchases answers 400 for 51 items',
    send: postPurchase({ items: Array.from({ length: 51 }, () => ({ productId: 1, quantity: 1 })) }),
    status: 400,
    text: nestError(400, ['items must contain no more than 50 elements']),
  },
  {
    name: 'POST /purchases answers 400 without items',
    send: postPurchase({}),
    status: 400,
    text: nestError(400, [
      'items must contain no more than 50 elements',
      'items must contain at least 1 elements',
      'items must be an array',
    ]),
  },
  {
    name: 'POST /purchases answers 400 with field messages for a wrong line',
    send: postPurchase({
      items: [
        { productId: 2, quantity: 1 },
        { productId: '3', quantity: 101 },
      ],
    }),
    status: 400,
    text: nestError(400, [
      'items.1.productId must not be less than 1',
      'items.1.productId must be an integer number',
      'items.1.quantity must not be greater than 100',
    ]),
  },
  {
    name: 'POST /purchases answers 400 for an unknown field in a line',
    send: postPurchase({ items: [{ productId: 2, quantity: 1, discount: 5 }] }),
    status: 400,
    text: nestError(400, ['items.0.property discount should not exist']),
  },
  {
    name: 'POST /purchases answers 400 for malformed JSON',
    send: postPurchase('{"items":['),
    status: 400,
    text: nestError(400, 'Request body could not be read as JSON'),
  },
  {
    name: 'POST /purchases answers 413 for a body over 1 MiB',
    send: postPurchase('{"items":[{"productId":1,"quantity":1}]}'.padEnd(BODY_LIMIT_BYTES + 1, ' ')),
    status: 413,
    text: nestError(413, `Request body is larger than ${BODY_LIMIT_BYTES} bytes`),
  },
  ...['0', 'abc', '2147483648'].map((id) => ({
    name: `GET /purchases/${id} answers 400: the id must be a positive integer`,
    send: (a: Agent) => a.get(`/purchases/${id}`),
    status: 400,
    text: nestError(400, 'id must be an integer from 1 to 2147483647'),
  })),
  {
    name: 'GET /purchases/:id answers 404 for an absent id',
    send: (a) => a.get('/purchases/2147483647'),
    status: 404,
    text: nestError(404, 'Purchase 2147483647 not found'),
  },
];

const LINES = [
  { productId: 7, quantity: 3 },
  { productId: 999, quantity: 1 },
  { productId: 7, quantity: 2 },
];
const EXPECTED_TOTAL_CENTS = LINES.reduce(
  (sum, line) => sum + line.quantity * catalogItemPriceCents(line.productId),
  0,
);

const checkJson = (res: Response, status: number, text: string) => {
  expect([res.status, res.headers['content-type'], res.text]).toEqual([status, JSON_TYPE, text]);
};

const MATRIX = STACKS.flatMap((stack) => DATABASES.map((database) => ({ stack, ...database })));

describe.each(MATRIX)('on the $stack stack and the $name database', ({ stack, url }) => {
  let apps: Record<AdapterName, INestApplication>;
  const textOf = (text: Case['text']) => (typeof text === 'string' ? text : text(stack));
  /** The production stack's clients take gzip; supertest hands over the decompressed body. */
  const agent = (adapter: AdapterName) => {
    const server = request(apps[adapter].getHttpServer());
    if (stack === 'bare') return server;
    const withGzip = (test: request.Test) => test.set('Accept-Encoding', 'gzip');
    return {
      get: (path: string) => withGzip(server.get(path)),
      post: (path: string) => withGzip(server.post(path)),
    } as Agent;
  };
  const countRows = async (adapter: AdapterName) => {
    const dataSource = apps[adapter].get(DataSource);
    const [purchases] = await dataSource.query('SELECT COUNT(*) AS n FROM purchases');
    const [items] = await dataSource.query('SELECT COUNT(*) AS n FROM purchase_items');
    return { purchases: Number(purchases.n), items: Number(items.n) };
  };

  beforeAll(async () => {
    if (url) await ensureMysqlDatabase(url);
    apps = await startBoth(url, () => ({ APP_STACK: stack, APP_STACK_OMIT: 'logger' }));
  });
  afterAll(() => closeAll(apps));

  describe.each(ADAPTERS)('the %s adapter', (adapter) => {
    it.each([...CATALOG_CASES, ...PURCHASE_ERROR_CASES])('$name', async ({ send, status, text }) => {
      checkJson(await send(agent(adapter)), status, textOf(text));
    });

    it(`seeded ${CATALOG_ITEM_COUNT} catalogue items in ${CATEGORY_NAMES.length} categories`, async () => {
      const dataSource = apps[adapter].get(DataSource);
      const [items] = await dataSource.query('SELECT COUNT(*) AS n, SUM(priceCents) AS total FROM catalog_items');
      const [categories] = await dataSource.query('SELECT COUNT(DISTINCT categoryId) AS n FROM catalog_items');
      expect([Number(items.n), Number(categories.n)]).toEqual([CATALOG_ITEM_COUNT, CATEGORY_NAMES.length]);
      // Pinned: a change to the price formula changes every benchmark's /purchases data
      expect(Number(items.total)).toBe(25_052_300);
    });

    it('a default /catalog page is a 10–30 KB JSON array', async () => {
      const res = await agent(adapter).get('/catalog');
      expect(res.text.length).toBeGreaterThanOrEqual(10_000);
      expect(res.text.length).toBeLessThanOrEqual(30_000);
    });

    it('POST /purchases stores the purchase with its items priced from the catalogue; GET /purchases/:id answers it', async () => {
      const before = await countRows(adapter);
      const created = await postPurchase({ items: LINES })(agent(adapter));
      expect([created.status, created.headers['content-type']]).toEqual([201, JSON_TYPE]);
      const { id, items, totalCents } = created.body;
      expect(Number.isInteger(id) && id > 0).toBe(true);
      expect(Object.keys(created.body)).toEqual(['id', 'items', 'totalCents']);
      expect(totalCents).toBe(EXPECTED_TOTAL_CENTS);
      const expectedLines = LINES.map((line) => ({ ...line, unitPriceCents: catalogItemPriceCents(line.productId) }));
      if (stack === 'production') {
        expect(items).toEqual(expectedLines);
      } else {
        // The bare stack has no serializer: each line's internal row id comes along
        expect(items.map(({ id: lineId }: { id: unknown }) => Number.isInteger(lineId))).toEqual(LINES.map(() => true));
        expect(items.map((line: { id?: number }) => ({ ...line, id: undefined }))).toEqual(
          expectedLines.map((line) => ({ ...line, id: undefined })),
        );
      }
      expect(await countRows(adapter)).toEqual({ purchases: before.purchases + 1, items: before.items + LINES.length });
      checkJson(await agent(adapter).get(`/purchases/${id}`), 200, created.text);
    });

    it('a purchase naming a missing catalogue item writes nothing: no purchase row, no item rows', async () => {
      const before = await countRows(adapter);
      const res = await postPurchase({ items: [...LINES, { productId: CATALOG_ITEM_COUNT + 1, quantity: 1 }] })(
        agent(adapter),
      );
      expect(res.status).toBe(422);
      expect(await countRows(adapter)).toEqual(before);
    });

    it('concurrent purchases are all stored, each with its own id', async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          postPurchase({ items: [{ productId: i + 1, quantity: 1 }] })(agent(adapter)),
        ),
      );
      expect(answers.map((res) => res.status)).toEqual(answers.map(() => 201));
      expect(new Set(answers.map((res) => res.body.id)).size).toBe(answers.length);
      for (const [i, res] of answers.entries()) expect(res.body.totalCents).toBe(catalogItemPriceCents(i + 1));
    });
  });

  it.each([...CATALOG_CASES, ...PURCHASE_ERROR_CASES])(
    'both adapters answer the same status and bytes (after decompression): $name',
    async ({ send }) => {
      const [express, fastify] = await Promise.all(ADAPTERS.map((adapter) => send(agent(adapter))));
      expect([fastify.status, fastify.headers['content-type'], fastify.text]).toEqual([
        express.status,
        express.headers['content-type'],
        express.text,
      ]);
    },
  );
});
