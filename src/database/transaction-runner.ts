import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * Runs work in one database transaction. sql.js has a single connection, on
 * which a second BEGIN while one transaction is open fails: there the
 * transactions take turns. MySQL's pool runs them side by side.
 */
@Injectable()
export class TransactionRunner {
  private readonly takesTurns: boolean;
  private lastInLine: Promise<unknown> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {
    this.takesTurns = dataSource.options.type === 'sqljs';
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.takesTurns) return this.dataSource.transaction(work);
    const result = this.lastInLine.then(() => this.dataSource.transaction(work));
    this.lastInLine = result.catch(() => undefined);
    return result;
  }
}
