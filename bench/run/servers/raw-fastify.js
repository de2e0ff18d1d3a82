// @ts-check
// Fastify 5 with its defaults and nothing else: what Nest on the Fastify adapter is built over.
import Fastify from 'fastify';

const app = Fastify();
app.get('/', async () => 'Hello World!');
app.get('/json', async () => ({ message: 'Hello, World!' }));

await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' });
// Exit through the normal path on SIGTERM so a --prof log is flushed completely.
process.once('SIGTERM', () => process.exit(0));
