// @ts-check
// Wakes the generator's event loop when the next request is due, to well under a millisecond. Node's timers resolve
// whole milliseconds (a 1 ms timeout fires 1–2 ms later), which alone would make most requests of a fast schedule
// leave over 1 ms late; spinning on setImmediate instead would burn a core. A worker thread sleeps in Atomics.wait,
// whose timeout is exact to tens of microseconds, and posts one message per wake-up to the main thread. The worker
// lives as long as the generator, so starting a thread never delays a schedule.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

// Slots of the shared Int32Array.
const RUNNING = 0; // 1 while a schedule runs; the worker sleeps on it in between
const PENDING = 1; // 1 while a wake-up message waits for the main thread
const CLOSED = 2;
const SLEEP = 3; // never written: the worker sleeps on it until its timeout
const SLOTS = 4;
const NANOS_PER_MILLI = 1e6;
/**
 * A wake-up costs the main thread tens of microseconds: requests due closer together than this leave together, which
 * caps wake-ups at 10,000 a second while keeping them far inside the 1 ms a request may be late.
 */
const MIN_WAKE_SPACING_NS = 100_000;

/**
 * @typedef {object} TickerShared
 * @property {SharedArrayBuffer} flags Int32Array slots above
 * @property {SharedArrayBuffer} origin one BigInt64: process.hrtime.bigint() at the schedule's start
 * @property {SharedArrayBuffer} nextDue one Float64: nanoseconds after the origin when the next wake-up is due
 */

/**
 * Nanoseconds since `originNs` on the monotonic clock every thread of the process shares.
 * @param {bigint} originNs
 */
export function elapsedNs(originNs) {
  return Number(process.hrtime.bigint() - originNs);
}

/**
 * @typedef {object} Ticker
 * @property {(originNs: bigint, onTick: (elapsedNs: number) => number | null) => Promise<void>} run a schedule that
 *   starts at originNs (process.hrtime.bigint()): onTick is called at once and then whenever the due time it returned
 *   is reached, until it returns null. A wake-up that finds the main thread still busy is not queued twice: the next
 *   onTick covers both.
 * @property {() => Promise<void>} close
 */

/** @returns {Promise<Ticker>} once the worker thread is up */
export async function startTicker() {
  /** @type {TickerShared} */
  const shared = {
    flags: new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT),
    origin: new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT),
    nextDue: new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT),
  };
  const flags = new Int32Array(shared.flags);
  const origin = new BigInt64Array(shared.origin);
  const nextDue = new Float64Array(shared.nextDue);
  const worker = new Worker(new URL(import.meta.url), { workerData: shared });
  /** @type {Error | null} */
  let failure = null;
  worker.once('error', (error) => {
    failure = error;
  });
  await new Promise((resolve, reject) => {
    worker.once('online', resolve);
    worker.once('error', reject);
  });
  /** @type {((elapsedNs: number) => void) | null} */
  let tick = null;
  worker.on('message', () => tick?.(elapsedNs(origin[0])));

  return {
    run(originNs, onTick) {
      if (failure) return Promise.reject(failure);
      origin[0] = originNs;
      /** @type {() => void} */
      let finish = () => {};
      const done = new Promise((resolve) => {
        finish = () => resolve(undefined);
      });
      tick = (now) => {
        const due = onTick(now);
        if (due === null) {
          Atomics.store(flags, RUNNING, 0);
          tick = null;
          finish();
        } else {
          nextDue[0] = due;
        }
        Atomics.store(flags, PENDING, 0);
        Atomics.notify(flags, PENDING);
      };
      nextDue[0] = 0;
      Atomics.store(flags, RUNNING, 1);
      Atomics.notify(flags, RUNNING);
      return done;
    },
    async close() {
      Atomics.store(flags, CLOSED, 1);
      Atomics.store(flags, RUNNING, 1);
      Atomics.notify(flags, RUNNING);
      await worker.terminate();
    },
  };
}

/** The worker's side: between schedules sleep; during one, sleep until the next due time and wake the main thread. */
function tickUntilClosed() {
  const shared = /** @type {TickerShared} */ (workerData);
  const flags = new Int32Array(shared.flags);
  const origin = new BigInt64Array(shared.origin);
  const nextDue = new Float64Array(shared.nextDue);
  const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
  let lastWakeNs = -MIN_WAKE_SPACING_NS;
  for (;;) {
    Atomics.wait(flags, RUNNING, 0);
    if (Atomics.load(flags, CLOSED)) return;
    const now = elapsedNs(origin[0]);
    if (now < lastWakeNs) lastWakeNs = -MIN_WAKE_SPACING_NS; // a new schedule began
    const waitNs = Math.max(nextDue[0], lastWakeNs + MIN_WAKE_SPACING_NS) - now;
    if (waitNs > 0) {
      Atomics.wait(flags, SLEEP, 0, waitNs / NANOS_PER_MILLI);
      continue;
    }
    lastWakeNs = now;
    Atomics.store(flags, PENDING, 1);
    port.postMessage(null);
    Atomics.wait(flags, PENDING, 1);
  }
}

if (!isMainThread && workerData?.nextDue instanceof SharedArrayBuffer) tickUntilClosed();
