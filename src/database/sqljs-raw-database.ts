import type { Database, Statement } from 'sql.js';
import { DatabaseQueryError, type RawDatabase } from './raw-database.js';

/**
 * Runs statements on the sql.js database that TypeORM opened: an in-memory
 * database exists once per process, so there is no second connection to make.
 */
export class SqlJsRawDatabase implements RawDatabase {
  /** Prepared once per SQL text, as mysql2 would cache them on a connection. */
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly database: Database) {}

  async query<Row extends object>(sql: string, params: readonly (string | number)[] = []): Promise<Row[]> {
    try {
      let statement = this.statements.get(sql);
      if (!statement) {
        statement = this.database.prepare(sql);
        this.statements.set(sql, statement);
      }
      statement.bind([...params]);
      const rows: Row[] = [];
      while (statement.step()) rows.push(statement.getAsObject() as Row);
      statement.reset();
      return rows;
    } catch (error) {
      throw new DatabaseQueryError(`SQLite query failed: ${(error as Error).message}`, { cause: error });
    }
  }
}
