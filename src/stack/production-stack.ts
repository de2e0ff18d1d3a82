import fastifyCompress from '@fastify/compress';
import fastifyHelmet from '@fastify/helmet';
import { ClassSerializerInterceptor, type INestApplication } from '@nestjs/common';
import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface.js';
import { Reflector } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import compression from 'compression';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppSettings } from '../config/app-settings.js';
import { RequestLog } from './request-log.js';
import { REQUEST_ID_HEADER, requestIdFrom } from './request-id.js';

/** A JSON API serves no documents: nothing may load from it or frame it. The rest is helmet's defaults. */
export const HELMET_POLICY = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
} satisfies HelmetOptions;

/** The shop's front end may call the API and read the request id. */
export const CORS_POLICY: CorsOptions = {
  origin: ['https://shop.example'],
  methods: ['GET', 'POST'],
  exposedHeaders: [REQUEST_ID_HEADER],
  maxAge: 600,
};

/** Smaller bodies gain too little to pay for the compressor. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;
/** zlib's default level, stated so that both adapters use the same. */
export const GZIP_LEVEL = 6;

type Middleware = (req: IncomingMessage & { id?: string }, res: ServerResponse, next: () => void) => void;

const assignRequestId: Middleware = (req, res, next) => {
  req.id = requestIdFrom(req.headers);
  res.setHeader(REQUEST_ID_HEADER, req.id);
  next();
};

/**
 * Adds the production stack's parts to an app, each adapter with its own
 * idiomatic package and the same policy. Runs once at start-up: the bare
 * stack's requests meet none of this, not even a check of the setting.
 */
export async function applyProductionStack(app: INestApplication, settings: AppSettings): Promise<void> {
  const { parts } = settings;
  const fastify = app.getHttpAdapter().getType() === 'fastify' ? (app as NestFastifyApplication) : undefined;
  if (parts.has('request-id')) {
    // On Fastify the id itself comes from the adapter's genReqId (see fastifyAdapterOptions)
    if (fastify) echoFastifyRequestId(fastify.getHttpAdapter().getInstance());
    else app.use(assignRequestId);
  }
  // After the request id, which pino-http takes from req.id
  if (parts.has('logger')) app.use(app.get(RequestLog).middleware);
  if (parts.has('helmet')) {
    if (fastify) await fastify.register(fastifyHelmet, HELMET_POLICY);
    else app.use(helmet(HELMET_POLICY));
  }
  if (parts.has('cors')) app.enableCors(CORS_POLICY);
  if (parts.has('compression')) {
    if (fastify) {
      await fastify.register(fastifyCompress, {
        global: true,
        encodings: ['gzip'],
        threshold: COMPRESSION_THRESHOLD_BYTES,
        zlibOptions: { level: GZIP_LEVEL },
      });
    } else {
      app.use(compression({ threshold: COMPRESSION_THRESHOLD_BYTES, level: GZIP_LEVEL }));
    }
  }
  if (parts.has('serializer')) app.useGlobalInterceptors(new ClassSerializerInterceptor(app.get(Reflector)));
}

/** Fastify options the production stack needs when the adapter is made. */
export function fastifyAdapterOptions(settings: AppSettings): { genReqId?: (req: IncomingMessage) => string } {
  if (!settings.parts.has('request-id')) return {};
  return {
    // The raw request carries the id too, for pino-http, which runs as middleware on the raw request
    genReqId: (req) => ((req as IncomingMessage & { id?: string }).id = requestIdFrom(req.headers)),
  };
}

function echoFastifyRequestId(instance: FastifyInstance): void {
  instance.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
