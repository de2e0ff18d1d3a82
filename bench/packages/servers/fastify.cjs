// @ts-nocheck: the packages it loads are the set's (any era's), not the ones the project's types describe
// Fastify with its defaults and nothing else, at the version of the set this file was copied into (Node 8 syntax).
'use strict';
const fastify = require('fastify');

const version = require('fastify/package.json').version;
const app = fastify();
app.get('/', async () => 'Hello World!');
app.get('/json', async () => ({ message: 'Hello, World!' }));

const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || '127.0.0.1';
// Fastify 2 and 3 take (port, host); 5 takes only an options object
const listening = Number(version.split('.')[0]) >= 4 ? app.listen({ port, host }) : app.listen(port, host);
listening.then(
  () => console.log(`fastify ${version} listening on http://${host}:${port}`),
  (error) => {
    console.error(`Start-up failed: ${error.message}`);
    process.exit(1);
  },
);
process.once('SIGTERM', () => process.exit(0));
