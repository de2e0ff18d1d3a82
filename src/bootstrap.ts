import { ValidationPipe, type INestApplication } from '@nestjs/common';
import { NestFactory, type AbstractHttpAdapter } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { AppModule } from './app.module.js';
import { DEVELOPMENT_JWT_SECRET, resolveJwtSecret } from './auth/jwt-secret.js';
import { listenAddressFromEnv, logLevelsFromEnv } from './common/environment.js';
import { BodyParserErrorFilter } from './common/filters/body-parser-error.filter.js';
import { answerFastifyFrameworkError } from './common/fastify-framework-errors.js';
import { closeOnSignals } from './common/shutdown.js';
import { StartupError } from './common/startup-error.js';
import { STACK_PARTS, appSettingsFromEnv, type AppSettings } from './config/app-settings.js';
import { DatabaseErrorFilter } from './database/database-error.filter.js';
import {
  databaseSettingsFromEnv,
  describeConnectionError,
  describeDatabase,
  type DatabaseSettings,
} from './database/database.config.js';
import { applyProductionStack, fastifyAdapterOptions } from './stack/production-stack.js';

export type AdapterName = 'express' | 'fastify';

/**
 * JSON bodies up to 1 MiB on both adapters. Fastify's default already is 1 MiB,
 * Express's is 100 kB: stated once here so that the limit cannot differ.
 */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * A fresh adapter with its framework's defaults, as `nest new` has them; only
 * Fastify's router errors are answered in Nest's JSON shape, and the
 * production stack's request ids are made where Fastify makes its own.
 */
export function createHttpAdapter(adapterName: AdapterName, settings: AppSettings): AbstractHttpAdapter {
  return adapterName === 'fastify'
    ? new FastifyAdapter({ frameworkErrors: answerFastifyFrameworkError, ...fastifyAdapterOptions(settings) })
    : new ExpressAdapter();
}

/**
 * Everything a request meets that both adapters must share. The entrypoints
 * and the e2e tests call this, so what is tested is what is served.
 */
export async function configureApp(app: INestApplication, settings: AppSettings): Promise<void> {
  const httpAdapter = app.getHttpAdapter();
  const bodyParserApp = app as INestApplication & { useBodyParser(type: string, options: object): unknown };
  if (httpAdapter.getType() === 'fastify') {
    bodyParserApp.useBodyParser('application/json', { bodyLimit: BODY_LIMIT_BYTES });
  } else {
    bodyParserApp.useBodyParser('json', { limit: BODY_LIMIT_BYTES });
  }
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  // Nest tries global filters last-registered first: the body-parser filter (HttpException only) before the catch-all
  app.useGlobalFilters(new DatabaseErrorFilter(httpAdapter), new BodyParserErrorFilter(httpAdapter, BODY_LIMIT_BYTES));
  if (settings.stack === 'production') await applyProductionStack(app, settings);
}

/** Starts the app on one adapter: what `src/main.ts` and `src/main.fastify.ts` run. */
export async function bootstrap(adapterName: AdapterName): Promise<INestApplication> {
  let database: DatabaseSettings | undefined;
  try {
    database = databaseSettingsFromEnv();
    const settings = appSettingsFromEnv();
    const jwtSecret = resolveJwtSecret();
    const { host, port } = listenAddressFromEnv();
    const app = await NestFactory.create(AppModule.forSettings(settings), createHttpAdapter(adapterName, settings), {
      logger: logLevelsFromEnv(),
      // Start-up failures reach the catch below instead of aborting the process with a core dump
      abortOnError: false,
    });
    await configureApp(app, settings);
    closeOnSignals(app, settings.shutdownTimeoutMs);
    await app.listen(port, host);
    const { port: boundPort } = app.getHttpServer().address() as AddressInfo;
    console.log(
      `Nest on ${adapterName} listening on http://${host}:${boundPort}, database: ${describeDatabase(database)}, stack: ${describeStack(settings)}`,
    );
    if (jwtSecret.isDevelopmentDefault) {
      console.warn(`JWT_SECRET is not set: tokens are signed with the development default "${DEVELOPMENT_JWT_SECRET}"`);
    }
    return app;
  } catch (error) {
    console.error(describeStartupError(error, database));
    process.exit(1);
  }
}

/** For the start-up line: the stack, and what the production stack leaves out. */
function describeStack(settings: AppSettings): string {
  if (settings.stack === 'bare') return 'bare';
  const omitted = STACK_PARTS.filter((part) => !settings.parts.has(part));
  return omitted.length > 0 ? `production without ${omitted.join(', ')}` : 'production';
}

/** One line, no stack trace: what failed and what to do about it. */
function describeStartupError(error: unknown, database: DatabaseSettings | undefined): string {
  if (error instanceof StartupError) return error.message;
  const code = (error as { code?: unknown }).code;
  if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
    const { host, port } = listenAddressFromEnv();
    return `Cannot listen on ${host}:${port} (${code}); set HOST and PORT to a free address`;
  }
  const databaseError = database?.kind === 'mysql' ? describeConnectionError(error, database) : undefined;
  return databaseError ?? `Start-up failed: ${String((error as Error)?.message ?? error).split('\n')[0]}`;
}
