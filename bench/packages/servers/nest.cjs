// @ts-nocheck: the packages it loads are the set's (any era's), not the ones the project's types describe
// The era app (src/era/) on one adapter, with the packages of the set this file was copied into. Written for Node 8
// (no ?. or ??): it runs under every runtime a set can name.
'use strict';
const fs = require('fs');
const path = require('path');
const { NestFactory } = require('@nestjs/core');
const { ValidationPipe } = require('@nestjs/common');
// with ERA_DATABASE the app's DB routes too, on the embedded sql.js database (set-config.js decides per cell)
const database = process.env.ERA_DATABASE === '1';
const eraModule = database
  ? require('../app/era/era-database.module.js').EraDatabaseModule
  : require('../app/era/era.module.js').EraModule;

const adapterName = process.env.NEST_ADAPTER === 'fastify' ? 'fastify' : 'express';
const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || '127.0.0.1';

/** What the set installed at the top of its node_modules (some packages' exports hide package.json). @param {string} name */
function versionOf(name) {
  const manifest = path.join(__dirname, '..', 'node_modules', name, 'package.json');
  return JSON.parse(fs.readFileSync(manifest, 'utf8')).version;
}

// Nest 5 kept both adapters in @nestjs/core (an Express app stands for its Express one); 6 and later ship platforms
const platforms = fs.existsSync(path.join(__dirname, '..', 'node_modules', '@nestjs', 'platform-express'));

function createAdapter() {
  if (adapterName === 'fastify')
    return platforms
      ? new (require('@nestjs/platform-fastify').FastifyAdapter)()
      : new (require('@nestjs/core/adapters/fastify-adapter').FastifyAdapter)();
  return platforms ? new (require('@nestjs/platform-express').ExpressAdapter)() : require('express')();
}

async function main() {
  const app = await NestFactory.create(eraModule, createAdapter(), { logger: false });
  // what the app's configureApp (src/bootstrap.ts) gives every request
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  await app.listen(port, host);
  console.log(
    `Nest ${versionOf('@nestjs/core')} on ${adapterName} ${versionOf(adapterName)} listening on http://${host}:${port}` +
      (database ? `, TypeORM ${versionOf('typeorm')} on sql.js ${versionOf('sql.js')}` : ''),
  );
}

main().catch((error) => {
  console.error(`Start-up failed: ${String((error && error.message) || error).split('\n')[0]}`);
  process.exit(1);
});
// Exit through the normal path on SIGTERM so a --prof log is flushed completely.
process.once('SIGTERM', () => process.exit(0));
