// @ts-nocheck: the packages it loads are the set's (any era's), not the ones the project's types describe
// The era app (src/era/) on one adapter, with the packages of the set this file was copied into. Written for Node 10
// (no ?. or ??): it runs under every runtime a set can name.
'use strict';
const { NestFactory } = require('@nestjs/core');
const { ValidationPipe } = require('@nestjs/common');
const { EraModule } = require('../app/era/era.module.js');

const adapterName = process.env.NEST_ADAPTER === 'fastify' ? 'fastify' : 'express';
const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || '127.0.0.1';

/** @param {string} name */
function versionOf(name) {
  return require(`${name}/package.json`).version;
}

function createAdapter() {
  if (adapterName === 'fastify') return new (require('@nestjs/platform-fastify').FastifyAdapter)();
  return new (require('@nestjs/platform-express').ExpressAdapter)();
}

async function main() {
  const app = await NestFactory.create(EraModule, createAdapter(), { logger: false });
  // what the app's configureApp (src/bootstrap.ts) gives every request
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  await app.listen(port, host);
  console.log(
    `Nest ${versionOf('@nestjs/core')} on ${adapterName} ${versionOf(adapterName)} listening on http://${host}:${port}`,
  );
}

main().catch((error) => {
  console.error(`Start-up failed: ${String((error && error.message) || error).split('\n')[0]}`);
  process.exit(1);
});
// Exit through the normal path on SIGTERM so a --prof log is flushed completely.
process.once('SIGTERM', () => process.exit(0));
