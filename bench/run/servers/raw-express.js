// @ts-check
// Express 5 with its defaults and nothing else: what Nest on the Express adapter is built over.
import express from 'express';

const app = express();
app.get('/', (req, res) => {
  res.send('Hello World!');
});
app.get('/json', (req, res) => {
  res.json({ message: 'Hello, World!' });
});

app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1');
// Exit through the normal path on SIGTERM so a --prof log is flushed completely.
process.once('SIGTERM', () => process.exit(0));
