import { ValidationPipe, type INestApplication } from '@nestjs/common';
import { NestFactory, type AbstractHttpAdapter } from '@nestjs/core';
import fastifyMultipart from '@fastify/multipart';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { AppModule } from './app.module.js';
import { DEVELOPMENT_JWT_SECRET, resolveJwtSecret } from './auth/jwt-secret.js';
import { listenAddressFromEnv, logLevelsFromEnv } from './common/environment.js';
import { BodyParserErrorFilter } from './common/filters/body-parser-error.filter.js';
import { answerFastifyFrameworkError } from './common/fastify-framework-errors.js';
import { closeOnSignals } from './common/shutdown.js';
import { StartupError } from './common/startup-error.js';
import { STACK_PARTS, appSettingsFromEnv, type AppSettings } from './config/app-settings.js';
import { PLAIN_HTTP, schemeOf, transportFromEnv, type Transport } from './config/transport.js';
import { DatabaseErrorFilter } from './database/database-error.filter.js';
import {
  databaseSettingsFromEnv,
  describeConnectionError,
  describeDatabase,
  type DatabaseSettings,
} from './database/database.config.js';
import { applyProductionStack, fastifyAdapterOptions } from './stack/production-stack.js';
import { filesDirFromEnv, STATIC_PREFIX } from './transfer/files.js';
import { UPLOAD_LIMIT_BYTES } from './transfer/uploads.js';

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
 * Fastify takes TLS and HTTP/2 here; Express takes TLS through NestFactory's
 * httpsOptions and has no HTTP/2 through Nest's ExpressAdapter.
 */
export function createHttpAdapter(
  adapterName: AdapterName,
  settings: AppSettings,
  transport: Transport = PLAIN_HTTP,
): AbstractHttpAdapter {
  if (adapterName === 'express') {
    if (transport.http2) {
      throw new StartupError(
        "HTTP2=1: Nest's ExpressAdapter serves HTTP/1.1 only (TLS through TLS_KEY_FILE and TLS_CERT_FILE); use the Fastify entrypoint for HTTP/2",
      );
    }
    return new ExpressAdapter();
  }
  const options = {
    frameworkErrors: answerFastifyFrameworkError,
    ...fastifyAdapterOptions(settings),
    ...(transport.http2 ? { http2: true } : {}),
    ...(transport.tls ? { https: transport.tls } : {}),
  };
  return new FastifyAdapter(options as ConstructorParameters<typeof FastifyAdapter>[0]);
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
  // After the production stack, so a static file meets all of it on both adapters, as a route does: express.static
  // would answer before middleware added later, and @fastify/compress only wraps routes added after it
  if (settings.transfer) await serveFiles(app);
}

/** Static files through each adapter's own handler; multipart on Fastify (Express's multer comes with its adapter). */
async function serveFiles(app: INestApplication): Promise<void> {
  const root = filesDirFromEnv();
  if (app.getHttpAdapter().getType() === 'fastify') {
    const fastify = app as NestFastifyApplication;
    await fastify.register(fastifyMultipart, { limits: { fileSize: UPLOAD_LIMIT_BYTES } });
    fastify.useStaticAssets({ root, prefix: STATIC_PREFIX });
  } else {
    (app as NestExpressApplication).useStaticAssets(root, { prefix: STATIC_PREFIX });
  }
}

/** Starts the app on one adapter: what `src/main.ts` and `src/main.fastify.ts` run. */
export async function bootstrap(adapterName: AdapterName): Promise<INestApplication> {
  let database: DatabaseSettings | undefined;
  try {
    database = databaseSettingsFromEnv();
    const settings = appSettingsFromEnv();
    const jwtSecret = resolveJwtSecret();
    const { host, port } = listenAddressFromEnv();
    const transport = transportFromEnv();
    const adapter = createHttpAdapter(adapterName, settings, transport);
    const app = await NestFactory.create(AppModule.forSettings(settings, adapterName), adapter, {
      logger: logLevelsFromEnv(),
      ...(transport.tls && adapterName === 'express' ? { httpsOptions: transport.tls } : {}),
      // Start-up failures reach the catch below instead of aborting the process with a core dump
      abortOnError: false,
    });
    await configureApp(app, settings);
    closeOnSignals(app, settings.shutdownTimeoutMs);
    await app.listen(port, host);
    const { port: boundPort } = app.getHttpServer().address() as AddressInfo;
    console.log(
      `Nest on ${adapterName} listening on ${schemeOf(transport)}://${host}:${boundPort}${transport.http2 ? ' (HTTP/2)' : ''}, database: ${describeDatabase(database)}, stack: ${describeStack(settings)}`,
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
