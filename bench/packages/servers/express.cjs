// @ts-nocheck: the packages it loads are the set's (any era's), not the ones the project's types describe
// Express with its defaults and nothing else, at the version of the set this file was copied into (Node 8 syntax).
'use strict';
const express = require('express');

const app = express();
app.get('/', (req, res) => {
  res.send('Hello World!');
});
app.get('/json', (req, res) => {
  res.json({ message: 'Hello, World!' });
});

const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || '127.0.0.1';
app.listen(port, host, () => {
  console.log(`express ${require('express/package.json').version} listening on http://${host}:${port}`);
});
process.once('SIGTERM', () => process.exit(0));
