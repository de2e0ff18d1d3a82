import type { INestApplication } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import type { Connection } from 'mysql2/promise';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { signToken } from '../src/auth/token.js';
import type { AdapterName } from '../src/bootstrap.js';
import {
  ADAPTERS,
  DATABASES,
  TEST_JWT_SECRET,
  closeAll,
  connectMysql,
  databaseName,
  ensureMysqlDatabase,
  startBoth,
  withDatabaseName,
} from './support/app-matrix.js';

const SERVICE_UNAVAILABLE = JSON.stringify({
  message: 'Database query failed',
  error: STATUS_CODES[503],
  statusCode: 503,
});

/** Every route that reads the database, and how to call it. */
const DATABASE_ROUTES: [string, Record<string, string>][] = [
  ['/products', {}],
  ['/products/raw', {}],
  ['/products/1', {}],
  ['/queries?count=3', {}],
  ['/secure/products', { Authorization: `Bearer ${signToken(TEST_JWT_SECRET)}` }],
];

/**
 * These tests break the database under running servers. On MySQL they use a
 * database of their own next to DATABASE_URL's, so that nothing else using
 * the shared one (the bench, other tests) is disturbed.
 */
describe.each(DATABASES)('when the $name database fails while serving', ({ name, url }) => {
  const failureUrl = url && withDatabaseName(url, `${databaseName(url)}_e2e_failure`);
  let apps: Record<AdapterName, INestApplication>;
  const get = (adapter: AdapterName, path: string, headers: Record<string, string> = {}) =>
    request(apps[adapter].getHttpServer()).get(path).set(headers);

  beforeAll(async () => {
    if (failureUrl) await ensureMysqlDatabase(failureUrl);
    apps = await startBoth(failureUrl);
  });
  afterAll(async () => {
    await closeAll(apps);
    if (failureUrl)
      await withAdminConnection(failureUrl, (admin) =>
        admin.query(`DROP DATABASE IF EXISTS \`${databaseName(failureUrl)}\``),
      );
  });

  it.runIf(name === 'mysql')(
    'a query stuck behind a table lock answers 503 after the query timeout, and serving resumes once the lock is gone',
    async () => {
      await withAdminConnection(failureUrl!, async (admin) => {
        await admin.query('LOCK TABLES product WRITE, world WRITE');
        try {
          const answers = await Promise.all(
            ADAPTERS.flatMap((adapter) => DATABASE_ROUTES.map(([path, headers]) => get(adapter, path, headers))),
          );
          for (const answer of answers) {
            expect([answer.status, answer.text]).toEqual([503, SERVICE_UNAVAILABLE]);
          }
        } finally {
          await admin.query('UNLOCK TABLES');
        }
      });
      for (const adapter of ADAPTERS) {
        expect((await get(adapter, '/products/raw')).status).toBe(200);
        expect((await get(adapter, '/products')).status).toBe(200);
      }
    },
  );

  describe('once its tables are dropped', () => {
    beforeAll(async () => {
      for (const adapter of ADAPTERS) {
        const dataSource = apps[adapter].get(DataSource);
        await dataSource.query('DROP TABLE IF EXISTS product');
        await dataSource.query('DROP TABLE IF EXISTS world');
      }
    });

    describe.each(ADAPTERS)('the %s adapter', (adapter) => {
      it.each(DATABASE_ROUTES)('GET %s answers 503 in Nest JSON', async (path, headers) => {
        const res = await get(adapter, path, headers);
        expect(res.status).toBe(503);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.text).toBe(SERVICE_UNAVAILABLE);
      });

      it('still answers the routes that need no database', async () => {
        const res = await get(adapter, '/json');
        expect([res.status, res.text]).toEqual([200, '{"message":"Hello, World!"}']);
      });
    });
  });
});

async function withAdminConnection<T>(url: string, run: (admin: Connection) => Promise<T>): Promise<T> {
  const admin = await connectMysql(url, { toDatabase: true });
  try {
    return await run(admin);
  } finally {
    await admin.end();
  }
}
