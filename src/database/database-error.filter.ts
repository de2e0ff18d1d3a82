import { Catch, Logger, ServiceUnavailableException, type ArgumentsHost } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { TypeORMError } from 'typeorm';
import { DatabaseQueryError } from './raw-database.js';

/**
 * A query that fails while serving (database down, connection lost, query
 * timed out) answers 503 in Nest's JSON shape instead of a 500, on both
 * adapters. The cause is logged (when LOG_LEVEL is set), never sent.
 * Every other exception passes through to Nest's own handling.
 */
@Catch()
export class DatabaseErrorFilter extends BaseExceptionFilter {
  private readonly logger = new Logger(DatabaseErrorFilter.name);

  override catch(exception: unknown, host: ArgumentsHost): void {
    if (!isDatabaseError(exception)) {
      super.catch(exception, host);
      return;
    }
    this.logger.error(`Database query failed: ${(exception as Error).message}`);
    super.catch(new ServiceUnavailableException('Database query failed'), host);
  }
}

export function isDatabaseError(error: unknown): boolean {
  if (error instanceof TypeORMError || error instanceof DatabaseQueryError) return true;
  // mysql2's own errors, which TypeORM passes on unwrapped when it cannot get a connection
  const driverError = error as { code?: unknown; fatal?: unknown; sqlState?: unknown } | undefined;
  return (
    typeof driverError?.code === 'string' &&
    (typeof driverError.fatal === 'boolean' || typeof driverError.sqlState === 'string')
  );
}
