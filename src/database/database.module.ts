import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Database } from 'sql.js';
import { DataSource } from 'typeorm';
import { databaseSettingsFromEnv, typeOrmOptions } from './database.config.js';
import { DatabaseSeeder } from './database.seeder.js';
import { MysqlRawDatabase } from './mysql-raw-database.js';
import { RAW_DATABASE, type RawDatabase } from './raw-database.js';
import { SqlJsRawDatabase } from './sqljs-raw-database.js';
import { TransactionRunner } from './transaction-runner.js';

/** The one place that reads DATABASE_URL: TypeORM, the raw driver and the seed all follow it. */
@Module({
  imports: [TypeOrmModule.forRootAsync({ useFactory: () => typeOrmOptions(databaseSettingsFromEnv()) })],
  providers: [
    DatabaseSeeder,
    TransactionRunner,
    {
      provide: RAW_DATABASE,
      inject: [DataSource],
      useFactory: (dataSource: DataSource): RawDatabase => {
        const settings = databaseSettingsFromEnv();
        return settings.kind === 'mysql'
          ? new MysqlRawDatabase(settings)
          : new SqlJsRawDatabase((dataSource.driver as unknown as { databaseConnection: Database }).databaseConnection);
      },
    },
  ],
  exports: [RAW_DATABASE, TransactionRunner],
})
export class DatabaseModule {}
