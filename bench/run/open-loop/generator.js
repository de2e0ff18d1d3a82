// @ts-check
// The open-loop generator, a child process of the bench (bench/run/open-loop/runner.js starts it pinned to the
// generator CPU): for each run it is sent, it offers a fixed rate through an undici pool and records every latency,
// from the request's due time, into an HDR histogram.
import hdr from 'hdr-histogram-js';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { processCpuNs } from '../procstat.js';
import { uniqueFiller } from '../unique-values.js';
import { bodyBytes } from '../../model/payloads.js';
import { createScheduler } from './scheduler.js';
import { pace, startClock } from './pacer.js';

const NANOS_PER_MICRO = 1e3;
const NANOS_PER_MILLI = 1e6;
const NANOS_PER_SEC = 1e9;
const MICROS_PER_SEC = 1e6;
/**
 * An answer slower than this is a timeout: the request counts as one, and goes into the histogram at the time it was
 * given up on, so that the percentiles it reaches read as lower bounds instead of leaving the slowest requests out.
 */
export const REQUEST_TIMEOUT_MS = 10_000;
/** Latencies are recorded in microseconds up to a minute, to three significant digits (0.1 % resolution). */
export const HISTOGRAM = Object.freeze({
  lowestDiscernibleValue: 1,
  highestTrackableValue: 60 * MICROS_PER_SEC,
  numberOfSignificantValueDigits: /** @type {const} */ (3),
});
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * One run: what to send, how often, for how long.
 * @typedef {object} OpenLoopRequest
 * @property {string} origin `http://host:port`
 * @property {string} path
 * @property {string} method
 * @property {Record<string, string>} headers
 * @property {string | undefined} body
 * @property {number} expectedStatus the scenario's status
 * @property {RequestInMix[]} [sequence] a mix: the cycle of requests sent in turn instead of the one above
 * @property {number} ratePerSec offered rate
 * @property {number} durationSec of the schedule
 * @property {number} connections keep-alive connections, opened before the schedule starts
 * @property {number | null} serverPid whose CPU is read at the schedule's start and end
 *
 * @typedef {import('../../model/records.js').OpenLoopRun} OpenLoopRun
 */

/**
 * @typedef {{ path: string, method: string, headers: Record<string, string>, body: string | undefined,
 *   expectedStatus: number }} RequestInMix
 */

/**
 * The requests of a run in the order they are sent, each with a body to send: a body with unique values is filled
 * anew each time, any other is sent as it is.
 * @param {OpenLoopRequest} request
 */
function requestCycle(request) {
  const fillUnique = uniqueFiller();
  const cycle = (request.sequence?.length ? request.sequence : [request]).map(
    ({ path, method, headers, body, expectedStatus }) => ({
      options: { path, method, headers, body: bodyBytes(body, headers) },
      body,
      expectedStatus,
      fresh: fillUnique(body) !== body,
    }),
  );
  let next = 0;
  return () => {
    const chosen = cycle[next];
    next = (next + 1) % cycle.length;
    const options = chosen.fresh
      ? { ...chosen.options, body: bodyBytes(fillUnique(chosen.body), chosen.options.headers) }
      : chosen.options;
    return { options, expectedStatus: chosen.expectedStatus };
  };
}

/**
 * Open keep-alive connections before the clock starts, so connection set-up is not counted as the server's latency.
 * @param {Pool} pool @param {OpenLoopRequest} request
 */
async function openConnections(pool, request) {
  const nextRequest = requestCycle(request);
  await Promise.all(
    Array.from({ length: request.connections }, () =>
      pool.request(nextRequest().options).then((response) => response.body.dump()),
    ),
  );
}

/**
 * @param {OpenLoopRequest} request
 * @returns {Promise<OpenLoopRun>}
 */
export async function runOpenLoop(request) {
  const pool = new Pool(request.origin, {
    connections: request.connections,
    headersTimeout: REQUEST_TIMEOUT_MS,
    bodyTimeout: REQUEST_TIMEOUT_MS,
  });
  try {
    await openConnections(pool, request);
    return await runSchedule(pool, request);
  } finally {
    await pool.destroy();
  }
}

/**
 * @typedef {{ completed: number, errors: number, timeouts: number, unexpectedStatus: number, lastAnswerNs: number,
 *   events: number }} ExchangeCounts events: sends and answers so far, by which the pacer tells spinning from work
 */

/**
 * undici's handler of one request: its answer (or error) counted, its latency recorded from its due time.
 * @param {{ dueNs: number }} exchange @param {number} expectedStatus
 * @param {{ counts: ExchangeCounts, elapsedNs: () => number, record: (latencyNs: number) => void,
 *   settle: (exchange: { dueNs: number }) => void, over: () => boolean }} run
 * @returns {import('undici').Dispatcher.DispatchHandler}
 */
function answerHandler(exchange, expectedStatus, { counts, elapsedNs, record, settle, over }) {
  let status = 0;
  return {
    onRequestStart() {},
    onResponseStart(_controller, statusCode) {
      status = statusCode;
    },
    onResponseData() {},
    onResponseEnd() {
      if (over()) return;
      counts.lastAnswerNs = elapsedNs();
      record(counts.lastAnswerNs - exchange.dueNs);
      counts.completed++;
      if (status !== expectedStatus) counts.unexpectedStatus++;
      settle(exchange);
    },
    onResponseError(_controller, error) {
      if (over()) return;
      if (TIMEOUT_CODES.has(/** @type {NodeJS.ErrnoException} */ (error).code ?? '')) {
        counts.timeouts++;
        record(elapsedNs() - exchange.dueNs);
      } else counts.errors++;
      settle(exchange);
    },
  };
}

/**
 * The requests of one run between their due time and their answer: one in flight per connection, the rest waiting.
 * @param {Pool} pool @param {OpenLoopRequest} request
 * @param {ReturnType<typeof requestCycle>} nextRequest
 * @param {{ elapsedNs: () => number, record: (latencyNs: number) => void }} clock the run's clock, and where each
 *   latency goes
 */
function createExchanges(pool, request, nextRequest, { elapsedNs, record }) {
  /** requests in flight, each with its due time: one per busy connection */
  const inFlight = new Set();
  /**
   * Due times of requests that came due while every connection was busy, oldest first: they wait here, as plain
   * numbers, rather than in the pool's queue, whose objects a slow server would keep alive long enough for the
   * collector to copy and promote them, pausing the generator longer the slower the server.
   * @type {number[]}
   */
  const waiting = [];
  let waitingHead = 0;
  /** @type {ExchangeCounts} */
  const counts = { completed: 0, errors: 0, timeouts: 0, unexpectedStatus: 0, lastAnswerNs: 0, events: 0 };
  /** @type {() => void} */
  let allAnswered = () => {};
  const answered = new Promise((resolve) => {
    allAnswered = () => resolve(undefined);
  });
  let scheduleDone = false;
  // once the run is over, answers to requests it gave up on (pool.destroy() fails them) change nothing
  let over = false;

  /** @param {{ dueNs: number }} exchange */
  const settle = (exchange) => {
    counts.events++;
    inFlight.delete(exchange);
    if (waitingHead < waiting.length) {
      dispatch(waiting[waitingHead++]);
      if (waitingHead === waiting.length) waiting.length = waitingHead = 0;
    } else if (scheduleDone && inFlight.size === 0) allAnswered();
  };

  /** @param {number} dueNs */
  const dispatch = (dueNs) => {
    const exchange = { dueNs };
    inFlight.add(exchange);
    const { options, expectedStatus } = nextRequest();
    pool.dispatch(
      options,
      answerHandler(exchange, expectedStatus, { counts, elapsedNs, record, settle, over: () => over }),
    );
  };

  return {
    counts,
    /** The scheduler's hand: a request came due. @param {number} _index @param {number} dueNs */
    send: (_index, dueNs) => {
      counts.events++;
      if (inFlight.size < request.connections) dispatch(dueNs);
      else waiting.push(dueNs);
    },
    /** The schedule is over: wait for the answers still due, then give up on the rest, each counted a timeout. */
    async finish() {
      scheduleDone = true;
      // requests still waiting for a connection have no socket yet, so undici's own timeouts have not started for them
      if (inFlight.size > 0) {
        await new Promise((resolve) => {
          const giveUp = setTimeout(resolve, REQUEST_TIMEOUT_MS);
          void answered.then(() => {
            clearTimeout(giveUp);
            resolve(undefined);
          });
        });
      }
      over = true;
      const givenUpNs = elapsedNs();
      const unanswered = [...inFlight].map((exchange) => exchange.dueNs).concat(waiting.slice(waitingHead));
      for (const dueNs of unanswered) record(givenUpNs - dueNs);
      counts.timeouts += unanswered.length;
    },
  };
}

/**
 * @param {Pool} pool @param {OpenLoopRequest} request
 * @returns {Promise<OpenLoopRun>}
 */
async function runSchedule(pool, request) {
  const histogram = hdr.build(HISTOGRAM);
  const scheduler = createScheduler(request);
  const nextRequest = requestCycle(request);
  const cpuBefore = process.cpuUsage();
  const serverCpuBefore = request.serverPid === null ? null : processCpuNs(request.serverPid);
  const elapsedNs = startClock();
  const record = (/** @type {number} */ latencyNs) =>
    histogram.recordValue(Math.max(1, Math.round(latencyNs / NANOS_PER_MICRO)));
  const exchanges = createExchanges(pool, request, nextRequest, { elapsedNs, record });
  const { counts } = exchanges;
  const { idleSpinNs } = await pace(
    elapsedNs,
    (now) => scheduler.dispatchDue(now, exchanges.send),
    () => counts.events,
  );
  await exchanges.finish();

  const endNs = Math.max(counts.lastAnswerNs, elapsedNs());
  const cpu = process.cpuUsage(cpuBefore);
  const serverCpuAfter = request.serverPid === null ? null : processCpuNs(request.serverPid);
  const elapsedSec = endNs / NANOS_PER_SEC;
  const cpuSec = (cpu.user + cpu.system) / MICROS_PER_SEC;
  const percentileMs = (/** @type {number} */ p) =>
    histogram.getValueAtPercentile(p) / (NANOS_PER_MILLI / NANOS_PER_MICRO);
  const run = {
    offeredRps: request.ratePerSec,
    sent: scheduler.lateness().dispatched,
    completed: counts.completed,
    elapsedSec,
    achievedRps: elapsedSec > 0 ? counts.completed / elapsedSec : 0,
    errors: counts.errors,
    timeouts: counts.timeouts,
    unexpectedStatus: counts.unexpectedStatus,
    latencyHistogram: hdr.encodeIntoCompressedBase64(histogram),
    latencyMs: {
      p50: percentileMs(50),
      p90: percentileMs(90),
      p99: percentileMs(99),
      p999: percentileMs(99.9),
      max: histogram.maxValue / (NANOS_PER_MILLI / NANOS_PER_MICRO),
    },
    lateness: scheduler.lateness(),
    generatorCpuShare: cpuSec / elapsedSec,
    generatorBusyShare: Math.max(0, cpuSec - idleSpinNs / NANOS_PER_SEC) / elapsedSec,
    serverCpuNs: serverCpuBefore !== null && serverCpuAfter !== null ? serverCpuAfter - serverCpuBefore : null,
  };
  histogram.destroy();
  return run;
}

/**
 * The parent's messages: `{ id, request }` starts a run; the answer is `{ id, run }` or `{ id, error }`.
 * Runs never overlap: the parent waits for each answer before it sends the next request.
 */
function serveParent() {
  process.on('message', (/** @type {{ id: number, request: OpenLoopRequest }} */ message) => {
    runOpenLoop(message.request).then(
      (run) => process.send?.({ id: message.id, run }),
      (error) => process.send?.({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  // the bench ended (or crashed): nothing is left to run for
  process.once('disconnect', () => process.exit(0));
}

// only as runner.js starts it: a test worker or report that imports HISTOGRAM has an IPC channel of its own
if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) serveParent();
