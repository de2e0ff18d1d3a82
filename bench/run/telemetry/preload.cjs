// @ts-check
// Loaded into every server the bench starts (before the app): it records GC pauses, heap sizing and event-loop delay,
// and hands what it has to the bench when asked on the socket named by BENCH_TELEMETRY_SOCKET, between timed runs. It
// does no work per request and runs no timer of its own on the request path; the event-loop delay histogram samples at
// a coarse resolution, and its cost is measured in docs/method.md.
'use strict';
const { serveBench } = require('./channel.cjs');
const { PerformanceObserver, monitorEventLoopDelay, performance } = require('node:perf_hooks');
const v8 = require('node:v8');

const socketPath = process.env.BENCH_TELEMETRY_SOCKET;
const EVENT_LOOP_RESOLUTION_MS = 10;
/** Pauses at least this long are kept one by one, so a latency spike can be lined up with them. */
const NOTABLE_PAUSE_MS = 1;
/** Bounds the memory the kept events take between two snapshots. */
const MAX_EVENTS = 2000;
const BYTES_PER_MIB = 1024 * 1024;
const NANOS_PER_MILLI = 1e6;

/** V8's GCType values, as perf_hooks reports them in entry.detail.kind. */
const GC_KINDS = { 1: 'minor', 2: 'minor', 4: 'major', 8: 'incremental', 16: 'weakcb' };
/** V8's GCCallbackFlags bits that say why a collection ran: the memory reducer asks for all external memory. */
const GC_FLAGS = { 4: 'forced', 16: 'allAvailableGarbage', 32: 'allExternalMemory', 64: 'scheduleIdle' };

/** @typedef {{ count: number, totalMs: number, maxMs: number }} PauseSum */

/**
 * What this runtime cannot report, by feature, with why. Bun answers V8's APIs without V8 behind them: its GC observer
 * never fires, its heap spaces are JavaScriptCore's and its loop utilisation stays zero. Deno runs V8, whose heap
 * spaces it reports, but its perf_hooks delivers no GC entries and a loop utilisation of zero. Those are not read.
 * @type {Record<string, string>}
 */
const unsupported = process.versions.bun
  ? {
      gc: "Bun's JavaScriptCore reports no GC entries to perf_hooks",
      generations: "Bun's JavaScriptCore heap has no V8 generations to size",
      eventLoopUtilization: 'Bun reports it as zero',
    }
  : process.versions.deno
    ? {
        gc: "Deno's perf_hooks delivers no GC entries",
        eventLoopUtilization: 'Deno reports it as zero',
      }
    : {};
/** @type {Record<string, PauseSum>} */
let pauses = {};
/** @type {Record<string, number>} */
let flagged = {};
/** @type {Array<{ at: number, ms: number, kind: string, flags: string[] }>} */
let events = [];
let droppedEvents = 0;
let seq = 0;

/** @param {number} bits */
function flagNames(bits) {
  return Object.entries(GC_FLAGS)
    .filter(([bit]) => (bits & Number(bit)) !== 0)
    .map(([, name]) => name);
}

/** @param {import('node:perf_hooks').PerformanceEntry[]} entries */
function recordGc(entries) {
  for (const entry of entries) {
    const { detail = {} } = /** @type {{ detail?: { kind?: number, flags?: number } }} */ (
      /** @type {unknown} */ (entry)
    );
    const kind = GC_KINDS[/** @type {keyof typeof GC_KINDS} */ (detail.kind ?? 0)] ?? 'other';
    const sum = (pauses[kind] ??= { count: 0, totalMs: 0, maxMs: 0 });
    sum.count++;
    sum.totalMs += entry.duration;
    if (entry.duration > sum.maxMs) sum.maxMs = entry.duration;
    const flags = flagNames(detail.flags ?? 0);
    for (const flag of flags) flagged[flag] = (flagged[flag] ?? 0) + 1;
    if (kind !== 'minor' || entry.duration >= NOTABLE_PAUSE_MS || flags.length > 0) {
      if (events.length < MAX_EVENTS)
        events.push({ at: performance.timeOrigin + entry.startTime, ms: entry.duration, kind, flags });
      else droppedEvents++;
    }
  }
}

function observeGc() {
  const observer = new PerformanceObserver((list) => recordGc(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  return observer;
}

/** @returns {{ percentile(p: number): number, max: number, reset(): void } | null} */
function observeEventLoop() {
  const histogram = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION_MS });
  histogram.enable();
  return histogram;
}

/** @template T @param {string} feature @param {() => T} start @returns {T | null} */
function tryStart(feature, start) {
  try {
    return start();
  } catch (error) {
    unsupported[feature] = error instanceof Error ? error.message : String(error);
    return null;
  }
}

/** @param {number} bytes */
const mib = (bytes) => Math.round((bytes / BYTES_PER_MIB) * 100) / 100;

function heapState() {
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s]));
  const memory = process.memoryUsage();
  return {
    youngMiB: spaces.new_space && !unsupported.generations ? mib(spaces.new_space.space_size) : null,
    oldMiB: spaces.old_space && !unsupported.generations ? mib(spaces.old_space.space_size) : null,
    heapTotalMiB: mib(memory.heapTotal),
    heapUsedMiB: mib(memory.heapUsed),
    externalMiB: mib(memory.external),
    rssMiB: mib(memory.rss),
  };
}

/** @param {NonNullable<ReturnType<typeof observeEventLoop>>} histogram */
function eventLoopDelay(histogram) {
  const ms = (/** @type {number} */ ns) => Math.round((ns / NANOS_PER_MILLI) * 1000) / 1000;
  // an empty histogram reads as the largest number it can hold
  const sampled = Number.isFinite(histogram.max) && histogram.max > 0 && histogram.max < Number.MAX_SAFE_INTEGER;
  const delay = sampled
    ? { p50Ms: ms(histogram.percentile(50)), p99Ms: ms(histogram.percentile(99)), maxMs: ms(histogram.max) }
    : null;
  histogram.reset();
  return delay;
}

function eventLoopUtilization() {
  return performance.eventLoopUtilization();
}

if (socketPath) {
  const gcObserver = unsupported.gc ? null : tryStart('gc', observeGc);
  const histogram = tryStart('eventLoopDelay', observeEventLoop);
  serveBench(socketPath, {
    snapshot() {
      // entries are delivered after the GC that made them: take the ones still queued, so they count where they ran
      if (gcObserver) recordGc(gcObserver.takeRecords());
      const snapshot = {
        seq: ++seq,
        at: Date.now(),
        pid: process.pid,
        gc: { pauses, flagged, events, droppedEvents },
        heap: tryStart('heap', heapState),
        eventLoopDelay: histogram ? eventLoopDelay(histogram) : null,
        eventLoopUtilization: unsupported.eventLoopUtilization
          ? null
          : tryStart('eventLoopUtilization', eventLoopUtilization),
        unsupported,
      };
      pauses = {};
      flagged = {};
      events = [];
      droppedEvents = 0;
      return snapshot;
    },
  });
}
