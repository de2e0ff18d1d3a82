// @ts-check
// Hono with its defaults and nothing else, served the way each runtime serves it: @hono/node-server on Node,
// Bun.serve under Bun (Hono is written for the fetch API, which Bun serves natively).
import { Hono } from 'hono';

const app = new Hono();
app.get('/', (c) => c.text('Hello World!'));
app.get('/json', (c) => c.json({ message: 'Hello, World!' }));

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';
const bun = /** @type {{ Bun?: { serve(options: object): unknown } }} */ (globalThis).Bun;
if (bun) {
  bun.serve({ fetch: app.fetch, port, hostname });
} else {
  const { serve } = await import('@hono/node-server');
  serve({ fetch: app.fetch, port, hostname });
}
// Exit through the normal path on SIGTERM so a --prof log is flushed completely.
process.once('SIGTERM', () => process.exit(0));
