// Without Nest: how the responses to a wave of simultaneous requests leave an Express server, with and without the
// `compression` middleware (gzip from 1 KiB, level 6, as the app's production stack), on any runtime.
//
//   node docs/experiments/gzip-waves.mjs [runtime binary] [connections] [waves]
//   node docs/experiments/gzip-waves.mjs .runtimes/bun-latest/node_modules/@oven/bun-linux-x64/bin/bun
//
// The server does a fixed amount of work per request (one await, then serializing a ~17 KB JSON page a few times, like
// the app's GET /catalog). Each wave sends one request on each keep-alive connection at once and reports when the
// first, the median and the last answer arrived: with gzip the answers of a wave leave together at its end, without it
// they leave one by one.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const PORT = 4990;
const SERIALIZATIONS_PER_REQUEST = 20;

if (process.argv[2] === 'serve') serve(process.argv[3] === 'gzip');
else await compare(process.argv[2] ?? process.execPath, Number(process.argv[3] ?? 50), Number(process.argv[4] ?? 4));

function serve(gzip) {
  const require = createRequire(import.meta.url);
  const express = require('express');
  const page = Array.from({ length: 50 }, (_, id) => ({
    id,
    name: `Item ${id}`,
    description: 'Ships flat in recycled packaging and assembles in minutes without any tools. '.repeat(3),
    priceCents: 1000 + id,
    category: { id: id % 12, name: `Category ${id % 12}` },
  }));
  const app = express();
  if (gzip) app.use(require('compression')({ threshold: 1024, level: 6 }));
  app.get('/', async (req, res) => {
    await Promise.resolve();
    let body = '';
    for (let i = 0; i < SERIALIZATIONS_PER_REQUEST; i++) body = JSON.stringify(page);
    res.type('json').send(body);
  });
  app.listen(PORT, '127.0.0.1', () => console.log('ready'));
}

async function compare(runtime, connections, waves) {
  for (const gzip of [true, false]) {
    const server = spawn(runtime, [fileURLToPath(import.meta.url), 'serve', gzip ? 'gzip' : 'identity'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise((resolve) => server.stdout.once('data', resolve));
    console.log(`${runtime} · Express ${gzip ? 'with' : 'without'} compression · ${connections} connections`);
    const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
    for (let wave = 1; wave <= waves; wave++) {
      const sent = performance.now();
      const answered = await Promise.all(Array.from({ length: connections }, () => get(agent, sent)));
      const times = answered.map((answer) => answer.ms).sort((a, b) => a - b);
      const [first, median, last] = [times[0], times[times.length >> 1], times.at(-1)];
      console.log(
        `  wave ${wave}: first ${first.toFixed(0)} ms, median ${median.toFixed(0)} ms, last ${last.toFixed(0)} ms` +
          ` (median ÷ last ${(median / last).toFixed(2)}; ${answered[0].encoding})`,
      );
    }
    agent.destroy();
    server.kill();
    await new Promise((resolve) => server.once('exit', resolve));
  }
}

function get(agent, sent) {
  return new Promise((resolve, reject) => {
    http
      .get(`http://127.0.0.1:${PORT}/`, { agent, headers: { 'accept-encoding': 'gzip' } }, (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ ms: performance.now() - sent, encoding: res.headers['content-encoding'] ?? 'identity' }),
        );
      })
      .on('error', reject);
  });
}
