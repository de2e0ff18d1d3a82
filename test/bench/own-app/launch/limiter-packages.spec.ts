import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../../support/run-node.js';

const THROTTLE = pathToFileURL(join(ROOT, 'bench/own-app/launch/throttle.js')).href;
const LIMIT = 2;

/** The packages' files: each mode loads them anew, as a server the bench starts does. */
const LIMITER_FILES = /[\\/]node_modules[\\/](express-rate-limit|@fastify[\\/]rate-limit|rate-limiter-flexible)[\\/]/;

/**
 * In one fresh node, each mode as a server the bench starts has it (the change comes before the app loads its
 * limiters): the limiter packages treated as the mode asks, then an Express app limited with express-rate-limit, a
 * Fastify app with @fastify/rate-limit and a rate-limiter-flexible limiter, each LIMIT per minute, asked once more.
 */
async function askedOverTheLimit() {
  const script = `
import { createRequire } from 'node:module';
import { liftLimiterPackages } from ${JSON.stringify(THROTTLE)};
const require = createRequire(${JSON.stringify(join(ROOT, 'package.json'))});
const times = ${LIMIT + 1};
const express = require('express');
const Fastify = require('fastify');
const results = {};
for (const mode of ['keep', 'count', 'lift']) {
  for (const file of Object.keys(require.cache)) if (${LIMITER_FILES}.test(file)) delete require.cache[file];
  const changed = liftLimiterPackages(require, mode);

  const app = express();
  app.use(require('express-rate-limit')({ windowMs: 60_000, limit: ${LIMIT}, standardHeaders: 'draft-6', legacyHeaders: false }));
  app.get('/', (req, res) => res.send('ok'));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const onExpress = { statuses: [], remaining: [] };
  for (let i = 0; i < times; i++) {
    const answer = await fetch('http://127.0.0.1:' + server.address().port + '/');
    onExpress.statuses.push(answer.status);
    onExpress.remaining.push(answer.headers.get('ratelimit-remaining'));
  }
  server.close();

  const fastify = Fastify();
  await fastify.register(require('@fastify/rate-limit'), { max: ${LIMIT}, timeWindow: 60_000 });
  fastify.get('/', async () => 'ok');
  const onFastify = { statuses: [], remaining: [] };
  for (let i = 0; i < times; i++) {
    const answer = await fastify.inject('/');
    onFastify.statuses.push(answer.statusCode);
    onFastify.remaining.push(answer.headers['x-ratelimit-remaining'] ?? null);
  }
  await fastify.close();

  const { RateLimiterMemory } = require('rate-limiter-flexible');
  const limiter = new RateLimiterMemory({ points: ${LIMIT}, duration: 60 });
  const consumed = [];
  for (let i = 0; i < times; i++) consumed.push(await limiter.consume('bench').then(() => 'ok', () => 'refused'));
  results[mode] = { changed, express: onExpress, fastify: onFastify, consumed };
}
console.log(JSON.stringify(results));
`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
  return JSON.parse(stdout);
}

describe('the limiter packages an app loads, as the bench’s servers treat them', () => {
  let asked: Record<'keep' | 'count' | 'lift', any>;
  beforeAll(async () => {
    asked = await askedOverTheLimit();
  }, 30_000);

  it('kept, each refuses the request over its limit', () => {
    expect(asked.keep).toEqual({
      changed: [],
      express: { statuses: [200, 200, 429], remaining: ['1', '0', '0'] },
      fastify: { statuses: [200, 200, 429], remaining: ['1', '0', '0'] },
      consumed: ['ok', 'ok', 'refused'],
    });
  });

  it('counted (the check’s servers), each still counts but lets the request over its limit through', () => {
    const counted = asked.count;
    expect(counted.changed).toEqual(['express-rate-limit', '@fastify/rate-limit', 'rate-limiter-flexible']);
    expect(counted.express).toEqual({ statuses: [200, 200, 200], remaining: ['1', '0', '0'] });
    expect(counted.fastify.statuses).toEqual([200, 200, 200]);
    expect(counted.consumed).toEqual(['ok', 'ok', 'ok']);
  });

  it('lifted (the timed servers), each lets every request through without counting it', () => {
    expect(asked.lift).toEqual({
      changed: ['express-rate-limit', '@fastify/rate-limit', 'rate-limiter-flexible'],
      express: { statuses: [200, 200, 200], remaining: [null, null, null] },
      fastify: { statuses: [200, 200, 200], remaining: [null, null, null] },
      consumed: ['ok', 'ok', 'ok'],
    });
  });
});
