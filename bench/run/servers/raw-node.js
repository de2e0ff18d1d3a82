// @ts-check
// Baseline target: node:http alone, the ceiling every framework is measured against.
import { createServer } from 'node:http';

const HELLO = 'Hello World!';
const JSON_BODY = JSON.stringify({ message: 'Hello, World!' });

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(HELLO) });
    res.end(HELLO);
  } else if (req.method === 'GET' && req.url === '/json') {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(JSON_BODY),
    });
    res.end(JSON_BODY);
  } else {
    res.writeHead(404).end();
  }
});

server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1');
// Exit through the normal path on SIGTERM so a --prof log is flushed completely.
process.once('SIGTERM', () => process.exit(0));
