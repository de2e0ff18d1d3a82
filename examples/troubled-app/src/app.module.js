// An API with the three routes that trouble a benchmark of a real app, beside two that do not. Plain JavaScript, so the
// decorators are applied as functions: no build step, and inside this repository it runs on the repository's own
// node_modules.
//   POST /accounts     hashes a password (PBKDF2, synchronous): tens of milliseconds of CPU per request
//   GET  /reports      takes two connections from a pool of two: alone it answers, under concurrency every request holds
//                      one and waits for a second that never comes
//   POST /events       queues the event for a flush in a timer, which throws when the batch is over the sink's limit:
//                      alone a batch is one event, under concurrency the process dies
import 'reflect-metadata';
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { Controller, Get, HttpCode, Module, Post } from '@nestjs/common';

const ITEMS = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `item ${i + 1}`, price: (i + 1) * 100 }));
/** OWASP's 2023 floor for PBKDF2-HMAC-SHA512 is 210,000; a fraction of it keeps the route near 50 ms on a slow core. */
const HASH_ITERATIONS = 90_000;
const POOL_SIZE = 2;
const QUERY_MS = 5;
const MAX_BATCH = 8;
const FLUSH_MS = 2;

class Pool {
  free = POOL_SIZE;
  /** @type {Array<() => void>} */
  waiting = [];

  acquire() {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(() => resolve(undefined)));
  }

  release() {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

const pool = new Pool();
/** @type {number[]} */
const pendingEvents = [];
let flushTimer = null;

function flushEvents() {
  flushTimer = null;
  const batch = pendingEvents.splice(0);
  if (batch.length > MAX_BATCH)
    throw new Error(`event batch of ${batch.length} is over the sink's limit of ${MAX_BATCH}`);
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class AppController {
  health() {
    return { status: 'ok' };
  }

  items() {
    return ITEMS;
  }

  signUp() {
    const salt = randomBytes(16);
    const hash = pbkdf2Sync(randomBytes(12).toString('hex'), salt, HASH_ITERATIONS, 64, 'sha512');
    return { id: randomBytes(8).toString('hex'), hash: hash.toString('base64').slice(0, 16) };
  }

  async report() {
    await pool.acquire();
    try {
      await delay(QUERY_MS);
      // the totals on a second connection while the first is held: the pool deadlocks once two requests overlap
      await pool.acquire();
      try {
        return { items: ITEMS.length, total: ITEMS.reduce((sum, item) => sum + item.price, 0) };
      } finally {
        pool.release();
      }
    } finally {
      pool.release();
    }
  }

  track() {
    pendingEvents.push(Date.now());
    flushTimer ??= setTimeout(flushEvents, FLUSH_MS);
    return { queued: pendingEvents.length };
  }
}

/** @param {string} method */
function descriptor(method) {
  return Object.getOwnPropertyDescriptor(AppController.prototype, method);
}
Get('health')(AppController.prototype, 'health', descriptor('health'));
Get('items')(AppController.prototype, 'items', descriptor('items'));
Post('accounts')(AppController.prototype, 'signUp', descriptor('signUp'));
HttpCode(201)(AppController.prototype, 'signUp', descriptor('signUp'));
Get('reports')(AppController.prototype, 'report', descriptor('report'));
Post('events')(AppController.prototype, 'track', descriptor('track'));
HttpCode(202)(AppController.prototype, 'track', descriptor('track'));
Controller()(AppController);

export class AppModule {}
Module({ controllers: [AppController] })(AppModule);
