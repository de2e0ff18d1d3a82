import type { OnApplicationShutdown } from '@nestjs/common';
import { createPool, type Pool, type RowDataPacket } from 'mysql2/promise';
import {
  MYSQL_CONNECT_TIMEOUT_MS,
  MYSQL_POOL_SIZE,
  MYSQL_QUERY_TIMEOUT_MS,
  type MysqlSettings,
} from './database.config.js';
import { DatabaseQueryError, type RawDatabase } from './raw-database.js';

/** A mysql2 pool of its own, the same size as TypeORM's, so /products/raw measures the bare driver. */
export class MysqlRawDatabase implements RawDatabase, OnApplicationShutdown {
  private readonly pool: Pool;

  constructor(settings: MysqlSettings) {
    this.pool = createPool({
      host: settings.host,
      port: settings.port,
      user: settings.user,
      password: settings.password,
      database: settings.database,
      connectionLimit: MYSQL_POOL_SIZE,
      connectTimeout: MYSQL_CONNECT_TIMEOUT_MS,
    });
  }

  async query<Row extends object>(sql: string, params: readonly (string | number)[] = []): Promise<Row[]> {
    try {
      const [rows] = await this.pool.query<RowDataPacket[]>({
        sql,
        values: [...params],
        timeout: MYSQL_QUERY_TIMEOUT_MS,
      });
      return rows as Row[];
    } catch (error) {
      throw new DatabaseQueryError(`MySQL query failed: ${(error as Error).message}`, { cause: error });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
