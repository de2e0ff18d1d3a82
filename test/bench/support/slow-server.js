// @ts-check
// `PORT=… node slow-server.js DELAY_MS`: answers `/` at once (the bench's readiness check) and every other path with
// `ok` DELAY_MS after the request arrived — a route slower than a short run, as the bench must report too slow rather
// than failed.
import { createServer } from 'node:http';

const delayMs = Number(process.argv[2]);
const port = Number(process.env.PORT);

createServer((request, response) => {
  if (request.url === '/') response.end('ready');
  else setTimeout(() => response.end('ok'), delayMs);
}).listen(port, '127.0.0.1', () => console.log(`listening on ${port}, answering after ${delayMs} ms`));
