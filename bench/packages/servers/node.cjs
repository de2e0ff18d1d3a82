// @ts-nocheck: the packages it loads are the set's (any era's), not the ones the project's types describe
// node:http alone, the baseline under every runtime a set can name (Node 8 syntax and CommonJS, unlike
// bench/run/servers/raw-node.js).
'use strict';
const http = require('http');

const HELLO = 'Hello World!';
const JSON_BODY = JSON.stringify({ message: 'Hello, World!' });

/** @param {import('http').ServerResponse} res @param {string} type @param {string} body */
function send(res, type, body) {
  res.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/') send(res, 'text/plain', HELLO);
  else if (req.method === 'GET' && req.url === '/json') send(res, 'application/json', JSON_BODY);
  else {
    res.writeHead(404);
    res.end();
  }
});

server.listen(Number(process.env.PORT || 3000), process.env.HOST || '127.0.0.1');
process.once('SIGTERM', () => process.exit(0));
