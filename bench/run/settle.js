// @ts-check
// Settling: nothing a timed run measures may be left over from the run before it. A server may still be answering
// requests whose clients have gone, and any server on the core may still be collecting garbage or compiling; both take
// the measured server's core. Before each timed run the bench waits until every server's socket queue is empty and the
// servers together have been near idle for a short window, up to a cap, and records what it waited for.
import { readFileSync } from 'node:fs';
import { processCpuNs } from './procstat.js';

/** How often the servers are looked at while settling. */
export const SETTLE_POLL_MS = 5;
/** The servers together must stay under this share of a core for a whole window: an idle server's own timers stay far below it. */
export const SETTLE_IDLE_SHARE = 0.05;
export const SETTLE_WINDOW_MS = 20;
/** Past this the run starts anyway, flagged unsettled; --nest-app's drain gives a backlogged route longer. */
export const SETTLE_CAP_MS = 2000;
const NANOS_PER_MILLI = 1e6;

/** TCP states in /proc/net/tcp: the server has not yet closed a connection its client ended, or not yet accepted it. */
const CLOSE_WAIT = '08';
const SYN_RECV = '03';
const LISTEN = '0A';
const PROC_NET_TCP = ['/proc/net/tcp', '/proc/net/tcp6'];

/**
 * @typedef {{ name: string, pid: number | null, port: number | null }} SettlingServer pid null: not ours to watch (a
 *   url target); port null: not on this host
 * @typedef {import('../model/records.js').Settling} Settling
 */

/**
 * Requests each port's server still holds, from the kernel's socket table: nothing runs inside the server to count
 * them, and between runs no client of the bench keeps a connection half-closed.
 * @param {number[]} ports
 * @returns {Map<number, number>} port → connections the server has not finished with, plus its accept queue
 */
export function heldRequests(ports) {
  const held = new Map(ports.map((port) => [port, 0]));
  for (const file of PROC_NET_TCP) {
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue; // no IPv6 on this host
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 5) continue;
      const port = parseInt(fields[1].slice(fields[1].lastIndexOf(':') + 1), 16);
      const count = held.get(port);
      if (count === undefined) continue;
      const state = fields[3];
      if (state === CLOSE_WAIT || state === SYN_RECV) held.set(port, count + 1);
      else if (state === LISTEN) held.set(port, count + parseInt(fields[4].split(':')[1], 16)); // rx_queue: the accept queue
    }
  }
  return held;
}

/**
 * Waits until the servers hold no requests and have used under SETTLE_IDLE_SHARE of a core over SETTLE_WINDOW_MS,
 * or until capMs.
 * @param {SettlingServer[]} servers every server of the start: any of them can take the measured one's core
 * @param {{ capMs?: number, signal?: AbortSignal }} [options]
 * @returns {Promise<Settling>}
 */
export async function settle(servers, { capMs = SETTLE_CAP_MS, signal } = {}) {
  const startedAt = performance.now();
  const watched = servers.filter((server) => server.pid !== null);
  const ports = servers.flatMap((server) => (server.port === null ? [] : [server.port]));
  // nothing on this host to watch (url targets): a window would only wait
  if (watched.length === 0 && ports.length === 0)
    return { waitedMs: 0, settled: true, inFlight: 0, cpuShare: 0, busiest: null };
  /** @type {Array<{ at: number, cpuNs: Map<string, number> }>} */
  const samples = [];
  for (;;) {
    const at = performance.now();
    const cpuNs = new Map(
      watched.flatMap((server) => {
        const ns = processCpuNs(/** @type {number} */ (server.pid));
        return ns === null ? [] : [[server.name, ns]];
      }),
    );
    samples.push({ at, cpuNs });
    const windowStart = samples.findLast((sample) => at - sample.at >= SETTLE_WINDOW_MS);
    const held = heldRequests(ports);
    const inFlight = [...held.values()].reduce((sum, count) => sum + count, 0);
    const used = windowStart ? cpuUsed(windowStart.cpuNs, cpuNs) : null;
    const cpuShare = windowStart && used ? sumOf(used) / ((at - windowStart.at) * NANOS_PER_MILLI) : 0;
    const quiet = windowStart !== undefined && inFlight === 0 && cpuShare < SETTLE_IDLE_SHARE;
    const waitedMs = at - startedAt;
    if (quiet || waitedMs >= capMs || signal?.aborted)
      return {
        waitedMs: Math.round(waitedMs),
        settled: quiet,
        inFlight,
        cpuShare: Math.round(cpuShare * 1000) / 1000,
        busiest: quiet ? null : busiestOf(servers, held, used),
      };
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}

/** @param {Map<string, number>} before @param {Map<string, number>} after */
function cpuUsed(before, after) {
  const used = new Map();
  for (const [name, ns] of after) {
    const was = before.get(name);
    if (was !== undefined) used.set(name, Math.max(0, ns - was));
  }
  return used;
}

/** @param {Map<string, number>} values */
function sumOf(values) {
  let sum = 0;
  for (const value of values.values()) sum += value;
  return sum;
}

/**
 * @param {SettlingServer[]} servers @param {Map<number, number>} held @param {Map<string, number> | null} used
 * @returns {string | null}
 */
function busiestOf(servers, held, used) {
  const holding = servers
    .filter((server) => server.port !== null && (held.get(server.port) ?? 0) > 0)
    .sort((a, b) => (held.get(/** @type {number} */ (b.port)) ?? 0) - (held.get(/** @type {number} */ (a.port)) ?? 0));
  if (holding.length > 0) return holding[0].name;
  if (!used || used.size === 0) return null;
  const [name, ns] = [...used].reduce((most, entry) => (entry[1] > most[1] ? entry : most));
  return ns > 0 ? name : null;
}
