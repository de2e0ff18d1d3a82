import type { TypeOrmModuleOptions } from '@nestjs/typeorm';
import { CatalogItem } from '../catalog/catalog-item.entity.js';
import { Category } from '../catalog/category.entity.js';
import { StartupError } from '../common/startup-error.js';
import { Product } from '../products/product.entity.js';
import { PurchaseItem } from '../purchases/purchase-item.entity.js';
import { Purchase } from '../purchases/purchase.entity.js';
import { World } from '../world/world.entity.js';

export type MysqlSettings = {
  kind: 'mysql';
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
};
export type DatabaseSettings = { kind: 'sqljs' } | MysqlSettings;

const DEFAULT_MYSQL_PORT = 3306;
/** Per connection attempt: a server that is down answers at once, a black-holed host must not stall start-up. */
export const MYSQL_CONNECT_TIMEOUT_MS = 3_000;
/** Per query: a stuck query fails (and the request answers 503) instead of hanging the request. */
export const MYSQL_QUERY_TIMEOUT_MS = 5_000;
/** mysql2's default, stated so that the TypeORM pool and the raw pool are the same size. */
export const MYSQL_POOL_SIZE = 10;

const ENTITIES = [Product, World, Category, CatalogItem, Purchase, PurchaseItem];

/** DATABASE_URL=mysql://user:pass@host:port/db selects MySQL; unset selects the embedded sql.js database. */
export function databaseSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): DatabaseSettings {
  const url = env.DATABASE_URL;
  if (!url) return { kind: 'sqljs' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StartupError(`DATABASE_URL is not a URL; expected mysql://user:password@host:port/database`);
  }
  if (parsed.protocol !== 'mysql:' && parsed.protocol !== 'mariadb:') {
    throw new StartupError(
      `DATABASE_URL must start with mysql:// (got ${parsed.protocol}//); unset it to use the embedded SQLite database`,
    );
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!database) {
    throw new StartupError(`DATABASE_URL names no database; expected mysql://user:password@host:port/database`);
  }
  return {
    kind: 'mysql',
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : DEFAULT_MYSQL_PORT,
    user: decodeURIComponent(parsed.username) || 'root',
    password: decodeURIComponent(parsed.password),
    database,
  };
}

/** For the start-up line: which database, never the password. */
export function describeDatabase(settings: DatabaseSettings): string {
  return settings.kind === 'mysql'
    ? `MySQL ${settings.host}:${settings.port}/${settings.database}`
    : 'embedded SQLite (sql.js, in memory)';
}

export function typeOrmOptions(settings: DatabaseSettings): TypeOrmModuleOptions {
  // Schema and rows come from DatabaseSeeder, which is safe when two servers start at once; synchronize is not.
  const common = { entities: ENTITIES, synchronize: false, retryAttempts: 0 } as const;
  if (settings.kind === 'sqljs') {
    return { ...common, type: 'sqljs', autoSave: false };
  }
  return {
    ...common,
    type: 'mysql',
    host: settings.host,
    port: settings.port,
    username: settings.user,
    password: settings.password,
    database: settings.database,
    poolSize: MYSQL_POOL_SIZE,
    connectTimeout: MYSQL_CONNECT_TIMEOUT_MS,
    enableQueryTimeout: true,
    maxQueryExecutionTime: MYSQL_QUERY_TIMEOUT_MS,
  };
}

/**
 * Turns a failed MySQL connection into one line naming the server and what to
 * do; undefined for an error that does not come from the MySQL client.
 */
export function describeConnectionError(error: unknown, settings: MysqlSettings): string | undefined {
  const err = error as { code?: unknown; message?: string; errors?: { code?: unknown }[] } | undefined;
  const code = err?.code ?? err?.errors?.[0]?.code;
  if (typeof code !== 'string') return undefined;
  const at = `MySQL at ${settings.host}:${settings.port}`;
  const fallback = 'unset DATABASE_URL to use the embedded SQLite database';
  switch (code) {
    case 'ECONNREFUSED':
      return `${at} refused the connection; start it or ${fallback}`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${at} did not answer within ${MYSQL_CONNECT_TIMEOUT_MS / 1000} s; check the host and port in DATABASE_URL or ${fallback}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${at}: host ${settings.host} not found; check DATABASE_URL or ${fallback}`;
    case 'ER_ACCESS_DENIED_ERROR':
    case 'ER_DBACCESS_DENIED_ERROR':
      return `${at} denied access to user '${settings.user}'; check the user and password in DATABASE_URL`;
    case 'ER_BAD_DB_ERROR':
      return `${at} has no database '${settings.database}'; create it (CREATE DATABASE \`${settings.database}\`) or change DATABASE_URL`;
    default:
      return `${at} failed (${code}): ${String(err?.message).split('\n')[0]}`;
  }
}
