import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppModule, listen } from './app.module.js';

await listen(await NestFactory.create(AppModule, new FastifyAdapter(), { logger: false }));
