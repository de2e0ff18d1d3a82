import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DataSource, type QueryRunner } from 'typeorm';
import {
  CATALOG_ITEM_COUNT,
  CATEGORY_NAMES,
  catalogItemCostCents,
  catalogItemDescription,
  catalogItemName,
  catalogItemPriceCents,
  categoryIdOf,
} from '../catalog/catalog-data.js';
import { PRODUCT_COUNT, productName, productStock, unitPriceCents } from '../products/product-catalog.js';
import { worldRandomNumbers } from '../world/world-data.js';

type Row = (string | number)[];

interface SeedTable {
  name: string;
  /** Column definitions; the first word of each is the column's name. */
  columns: (dialect: Dialect) => string[];
  /** FOREIGN KEY clauses, after the columns. */
  constraints?: string[];
  /** Columns to index: the ones foreign keys look up. */
  indexes?: string[];
  /** The deterministic rows; tables that the app writes have none. */
  rows?: () => Row[];
}

/** Created in this order, parents before children; the DDL matches the *.entity.ts files. */
const TABLES: SeedTable[] = [
  {
    name: 'product',
    columns: () => [
      'id INT NOT NULL PRIMARY KEY',
      'name VARCHAR(64) NOT NULL',
      'priceCents INT NOT NULL',
      'stock INT NOT NULL',
    ],
    rows: () =>
      Array.from({ length: PRODUCT_COUNT }, (_, i) => {
        const id = i + 1;
        return [id, productName(id), unitPriceCents(id), productStock(id)];
      }),
  },
  {
    name: 'world',
    columns: () => ['id INT NOT NULL PRIMARY KEY', 'randomNumber INT NOT NULL'],
    rows: () => worldRandomNumbers().map((randomNumber, i) => [i + 1, randomNumber]),
  },
  {
    name: 'categories',
    columns: () => ['id INT NOT NULL PRIMARY KEY', 'name VARCHAR(32) NOT NULL'],
    rows: () => CATEGORY_NAMES.map((name, i) => [i + 1, name]),
  },
  {
    name: 'catalog_items',
    columns: () => [
      'id INT NOT NULL PRIMARY KEY',
      'name VARCHAR(64) NOT NULL',
      'description VARCHAR(500) NOT NULL',
      'priceCents INT NOT NULL',
      'costCents INT NOT NULL',
      'categoryId INT NOT NULL',
    ],
    constraints: ['FOREIGN KEY (categoryId) REFERENCES categories (id)'],
    indexes: ['categoryId'],
    rows: () =>
      Array.from({ length: CATALOG_ITEM_COUNT }, (_, i) => {
        const id = i + 1;
        return [
          id,
          catalogItemName(id),
          catalogItemDescription(id),
          catalogItemPriceCents(id),
          catalogItemCostCents(id),
          categoryIdOf(id),
        ];
      }),
  },
  {
    name: 'purchases',
    columns: (dialect) => [`id ${dialect.autoIncrementPrimaryKey}`, 'totalCents INT NOT NULL'],
  },
  {
    name: 'purchase_items',
    columns: (dialect) => [
      `id ${dialect.autoIncrementPrimaryKey}`,
      'purchaseId INT NOT NULL',
      'productId INT NOT NULL',
      'quantity INT NOT NULL',
      'unitPriceCents INT NOT NULL',
    ],
    constraints: [
      'FOREIGN KEY (purchaseId) REFERENCES purchases (id)',
      'FOREIGN KEY (productId) REFERENCES catalog_items (id)',
    ],
    indexes: ['purchaseId', 'productId'],
  },
];

/** Rows per INSERT: well under SQLite's 32,766 and MySQL's 65,535 placeholders. */
const INSERT_BATCH_ROWS = 1_000;
/** Named lock that serialises the seed when several servers start against one MySQL database. */
const MYSQL_SEED_LOCK = 'nest_adapter_bench_seed';
const MYSQL_SEED_LOCK_WAIT_S = 30;

interface Dialect {
  createTableSuffix: string;
  insertIgnore: string;
  autoIncrementPrimaryKey: string;
  /** Statements that index `column` of `table`, or none where the database does it itself. */
  createIndex(table: string, column: string): string[];
  lock(runner: QueryRunner): Promise<void>;
  unlock(runner: QueryRunner): Promise<void>;
}

const MYSQL: Dialect = {
  createTableSuffix: ' ENGINE=InnoDB',
  insertIgnore: 'INSERT IGNORE INTO',
  autoIncrementPrimaryKey: 'INT NOT NULL AUTO_INCREMENT PRIMARY KEY',
  // InnoDB indexes every foreign key column when it creates the constraint
  createIndex: () => [],
  async lock(runner) {
    const [{ acquired }] = await runner.query('SELECT GET_LOCK(?, ?) AS acquired', [
      MYSQL_SEED_LOCK,
      MYSQL_SEED_LOCK_WAIT_S,
    ]);
    if (Number(acquired) !== 1) {
      throw new Error(`another server held the seed lock '${MYSQL_SEED_LOCK}' for ${MYSQL_SEED_LOCK_WAIT_S} s`);
    }
  },
  async unlock(runner) {
    await runner.query('SELECT RELEASE_LOCK(?)', [MYSQL_SEED_LOCK]);
  },
};

/** The embedded database lives in this process alone: nothing to lock. */
const SQLITE: Dialect = {
  createTableSuffix: '',
  insertIgnore: 'INSERT OR IGNORE INTO',
  autoIncrementPrimaryKey: 'INTEGER PRIMARY KEY AUTOINCREMENT',
  createIndex: (table, column) => [`CREATE INDEX IF NOT EXISTS ${table}_${column} ON ${table} (${column})`],
  async lock() {},
  async unlock() {},
};

/**
 * Creates the tables and their deterministic rows when a server starts.
 * Idempotent (CREATE TABLE IF NOT EXISTS, insert-or-ignore by fixed ids) and,
 * on MySQL, serialised by a named lock, so an Express and a Fastify server
 * may start at the same moment against the same database.
 */
@Injectable()
export class DatabaseSeeder implements OnModuleInit {
  constructor(private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    const dialect = this.dataSource.options.type === 'mysql' ? MYSQL : SQLITE;
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await dialect.lock(runner);
      try {
        for (const table of TABLES) await this.seedTable(runner, dialect, table);
      } finally {
        await dialect.unlock(runner);
      }
    } finally {
      await runner.release();
    }
  }

  private async seedTable(runner: QueryRunner, dialect: Dialect, table: SeedTable): Promise<void> {
    const columns = table.columns(dialect);
    const definitions = [...columns, ...(table.constraints ?? [])].join(', ');
    await runner.query(`CREATE TABLE IF NOT EXISTS ${table.name} (${definitions})${dialect.createTableSuffix}`);
    for (const column of table.indexes ?? []) {
      for (const statement of dialect.createIndex(table.name, column)) await runner.query(statement);
    }
    if (!table.rows) return;
    const rows = table.rows();
    const [{ count }] = await runner.query(`SELECT COUNT(*) AS count FROM ${table.name}`);
    if (Number(count) === rows.length) return;
    const columnNames = columns.map((column) => column.split(' ')[0]).join(', ');
    const rowPlaceholder = `(${columns.map(() => '?').join(', ')})`;
    await runner.startTransaction();
    try {
      for (let start = 0; start < rows.length; start += INSERT_BATCH_ROWS) {
        const batch = rows.slice(start, start + INSERT_BATCH_ROWS);
        await runner.query(
          `${dialect.insertIgnore} ${table.name} (${columnNames}) VALUES ${batch.map(() => rowPlaceholder).join(', ')}`,
          batch.flat(),
        );
      }
      await runner.commitTransaction();
    } catch (error) {
      await runner.rollbackTransaction();
      throw error;
    }
  }
}
