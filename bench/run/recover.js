// @ts-check
// After each load on a route: the server must have answered or dropped what the route left in flight, and the route
// must still answer, before anything else is timed. It waits with settle() (the same wait as before each timed run,
// with a cap from the route's own latency), then probes: the route's own request, once, under a deadline. A server
// that closes abandoned connections at once holds nothing the kernel can count, yet a handler stuck on a lock or a
// pool never answers again: only the route itself shows that. A route that left a backlog is named with how long
// draining took; one after which the server still holds requests or the probe goes unanswered hangs; one that ended
// the server crashed it. The caller restarts the server after either.
import { heldRequests, settle, SETTLE_CAP_MS } from './settle.js';
import { send } from './verify.js';

/** A backlog of N requests that take S each alone drains in about N × S; the cap allows this many times that. */
const DRAIN_CAP_FACTOR = 4;
/** However slow the route, a server that has not drained in this long is taken as hung. */
export const MAX_DRAIN_CAP_MS = 30_000;
/** The probe's deadline: at least this, and PROBE_DEADLINE_FACTOR times the route's own single-request latency. */
export const MIN_PROBE_DEADLINE_MS = 2000;
const PROBE_DEADLINE_FACTOR = 10;
/** A drain shorter than this is every closed-loop run's end (each connection's last request), not a backlog. */
export const NOTABLE_DRAIN_MS = 500;

/**
 * @typedef {import('../model/records.js').LoadPhase} LoadPhase
 * @typedef {import('../model/records.js').ProbeAnswer} ProbeAnswer
 * @typedef {import('../model/records.js').Drain} Drain
 */

/**
 * The cap for a route's drain: its backlog at its single-request latency, several times over.
 * @param {number | null} aloneMs @param {number} inFlight
 */
export function drainCapMs(aloneMs, inFlight) {
  return Math.min(MAX_DRAIN_CAP_MS, Math.max(SETTLE_CAP_MS, DRAIN_CAP_FACTOR * (aloneMs ?? 0) * inFlight));
}

/** @param {number | null} aloneMs */
export function probeDeadlineMs(aloneMs) {
  return Math.max(MIN_PROBE_DEADLINE_MS, PROBE_DEADLINE_FACTOR * (aloneMs ?? 0));
}

/**
 * Waits for the server to finish with the route's leftovers, then probes it.
 * @param {object} context
 * @param {import('./targets.js').ServedTarget} context.target the server the load went to
 * @param {import('./settle.js').SettlingServer[]} context.servers every server of the start
 * @param {number | null} context.aloneMs the route's single-request latency
 * @param {number} context.inFlight the load's connections × pipelining
 * @param {Array<Pick<import('../model/scenarios.js').ScenarioRequest, 'method' | 'path' | 'headers' | 'body'>>} context.probes
 *   the route's request, or a mix's requests one per route
 * @param {{ requests: number, statusCounts: Record<string, number> | null } | null} context.lastAnswer
 * @param {AbortSignal} [context.signal]
 * @returns {Promise<Omit<Drain, 'runtime' | 'target' | 'scenario' | 'stack' | 'phase' | 'round' | 'start' | 'connections'> | null>}
 *   null: nothing was left and the server answered
 */
export async function drainRoute({ target, servers, aloneMs, inFlight, probes, lastAnswer, signal }) {
  const port = target.pid === null ? null : Number(new URL(target.url).port);
  const heldOn = () => (port === null ? 0 : (heldRequests([port]).get(port) ?? 0));
  const heldAtEnd = heldOn();
  const capMs = drainCapMs(aloneMs, inFlight);
  const startedAt = performance.now();
  if (!target.exitInfo()) await settle(servers, { capMs, signal });
  const drainedMs = Math.round(performance.now() - startedAt);
  const exited = target.exitInfo();
  const common = { heldAtEnd, drainedMs, capMs, lastAnswer };
  if (exited)
    return {
      ...common,
      outcome: 'crashed',
      heldAfter: 0,
      probes: [],
      exit: { exitCode: exited.code, signal: exited.signal, stderrTail: target.stderrTail() },
    };
  const heldAfter = heldOn();
  /** @type {ProbeAnswer[]} */
  const answers = [];
  for (const probe of probes) {
    answers.push(await probeRoute(target.url, probe, probeDeadlineMs(aloneMs)));
    if (!answers[answers.length - 1].answered) break;
  }
  if (heldAfter > 0 || answers.some((answer) => !answer.answered)) {
    const snapshot = target.telemetry ? await target.telemetry.snapshot() : null;
    return { ...common, outcome: 'hung', heldAfter, probes: answers, eventLoopDelay: snapshot?.eventLoopDelay ?? null };
  }
  return drainedMs >= NOTABLE_DRAIN_MS ? { ...common, outcome: 'backlog', heldAfter, probes: answers } : null;
}

/**
 * What probes a route after its load: its own request; a mix's, one request per route, with the mix's headers.
 * @param {import('../model/scenarios.js').ScenarioRequest} request
 */
export function probesFor(request) {
  if (!request.sequence) return [request];
  const perRoute = new Map(request.sequence.map((next) => [next.route, next]));
  return [...perRoute.values()].map((next) => ({ ...next, headers: { ...request.headers, ...next.headers } }));
}

/**
 * The route's request once, on a connection of its own, with a deadline.
 * @param {string} url the server's base URL
 * @param {Pick<import('../model/scenarios.js').ScenarioRequest, 'method' | 'path' | 'headers' | 'body'>} probe
 * @param {number} deadlineMs
 * @returns {Promise<ProbeAnswer>}
 */
async function probeRoute(url, probe, deadlineMs) {
  const sentAt = performance.now();
  const status = await send(`${url}${probe.path}`, probe, { timeoutMs: deadlineMs }).then(
    (answer) => answer.status,
    () => null,
  );
  return {
    request: `${probe.method} ${probe.path}`,
    answered: status !== null,
    ms: Math.round(performance.now() - sentAt),
    status,
  };
}
