/**
 * The database driver without the ORM, for /products/raw: the controller
 * neither knows nor cares whether mysql2 or sql.js answers.
 */
export interface RawDatabase {
  /** Runs one statement with positional `?` parameters and resolves with its rows as plain objects. */
  query<Row extends object>(sql: string, params?: readonly (string | number)[]): Promise<Row[]>;
}

export const RAW_DATABASE = Symbol('RAW_DATABASE');

/** A statement the raw driver could not run; the cause is the driver's own error. */
export class DatabaseQueryError extends Error {
  override name = 'DatabaseQueryError';
}
