import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { createConnection, type Connection } from 'mysql2/promise';
import { AppModule } from '../../src/app.module.js';
import { configureApp, createHttpAdapter, type AdapterName } from '../../src/bootstrap.js';
import { appSettingsFromEnv } from '../../src/config/app-settings.js';

/** Every test runs on both adapters. */
export const ADAPTERS: readonly AdapterName[] = ['express', 'fastify'];

export interface DatabaseUnderTest {
  name: 'sqljs' | 'mysql';
  /** DATABASE_URL for the app; undefined selects the embedded sql.js database. */
  url: string | undefined;
}

/** The embedded database always; MySQL as well when DATABASE_URL is set (CI sets it). */
export const DATABASES: readonly DatabaseUnderTest[] = [
  { name: 'sqljs', url: undefined },
  ...(process.env.DATABASE_URL ? [{ name: 'mysql' as const, url: process.env.DATABASE_URL }] : []),
];

export const TEST_JWT_SECRET = 'e2e-test-secret';

/** The app's stack settings, as environment variables: APP_STACK, APP_STACK_OMIT, REQUEST_LOG_FILE. */
export type StackEnv = Record<string, string>;

/**
 * Boots the real AppModule on one adapter through the same configureApp the
 * entrypoints use, listening on a free loopback port.
 */
export async function startApp(
  adapter: AdapterName,
  databaseUrl: string | undefined,
  stackEnv: StackEnv = {},
): Promise<INestApplication> {
  return withEnv({ DATABASE_URL: databaseUrl, JWT_SECRET: TEST_JWT_SECRET, ...stackEnv }, async () => {
    const settings = appSettingsFromEnv();
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forSettings(settings, adapter)] }).compile();
    const app = moduleRef.createNestApplication(createHttpAdapter(adapter, settings), { logger: false });
    await configureApp(app, settings);
    await app.listen(0, '127.0.0.1');
    return app;
  });
}

/** Both adapters on one database, started one right after the other (each reads its own settings from the env). */
export async function startBoth(
  databaseUrl: string | undefined,
  stackEnvOf: (adapter: AdapterName) => StackEnv = () => ({}),
): Promise<Record<AdapterName, INestApplication>> {
  const [express, fastify] = await Promise.all(
    ADAPTERS.map((adapter) => startApp(adapter, databaseUrl, stackEnvOf(adapter))),
  );
  return { express, fastify };
}

export async function closeAll(apps: Partial<Record<AdapterName, INestApplication>> | undefined): Promise<void> {
  await Promise.all(Object.values(apps ?? {}).map((app) => app?.close()));
}

/** One app is created at a time: process.env is shared, and two overlapping creations would read each other's values. */
let envInUse: Promise<unknown> = Promise.resolve();

/** The app reads its settings while it is created: set them for that moment only. */
function withEnv<T>(values: Record<string, string | undefined>, run: () => Promise<T>): Promise<T> {
  const turn = envInUse.then(() => withEnvNow(values, run));
  envInUse = turn.catch(() => {});
  return turn;
}

async function withEnvNow<T>(values: Record<string, string | undefined>, run: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(values).map((key) => [key, process.env[key]]));
  const assign = (entries: Record<string, string | undefined>) => {
    for (const [key, value] of Object.entries(entries)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
  assign(values);
  try {
    return await run();
  } finally {
    assign(saved);
  }
}

/** A connection to the server a mysql:// URL names, to the URL's database or to none. */
export function connectMysql(url: string, { toDatabase }: { toDatabase: boolean }): Promise<Connection> {
  const parsed = new URL(url);
  return createConnection({
    host: parsed.hostname,
    port: Number(parsed.port || 3306),
    user: decodeURIComponent(parsed.username) || 'root',
    password: decodeURIComponent(parsed.password),
    ...(toDatabase ? { database: databaseName(url) } : {}),
  });
}

export const databaseName = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

/** Creates the database a mysql:// URL names, so that the tests run against a fresh server too. */
export async function ensureMysqlDatabase(url: string): Promise<void> {
  const connection = await connectMysql(url, { toDatabase: false });
  try {
    await connection.query(`CREATE DATABASE IF NOT EXISTS \`${databaseName(url).replace(/`/g, '``')}\``);
  } finally {
    await connection.end();
  }
}

/** The same server with another database name: for tests that must not disturb the shared one. */
export function withDatabaseName(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
