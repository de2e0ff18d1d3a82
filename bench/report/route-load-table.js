// @ts-check
// --nest-app: how each route was measured (its single-request latency, the connections and run length that follow
// from it) and what it did to its server: a backlog, a hang or a crash, with the evidence.
import { errorLine } from '../errors.js';
import { formatNumber } from './format.js';
import { strong } from './rich-table.js';

/** @typedef {import('./rich-table.js').Table} Table */
/** @typedef {import('../analysis/route-findings.js').RouteFinding} RouteFinding */
/** @typedef {import('../model/results.js').Drain} Drain */

const DASH = '–';

/**
 * @param {RouteFinding[]} findings each route's load and what it left behind (analysis/route-findings.js)
 * @param {{ connections: number, durationSec: number }} flags --connections and --duration
 * @param {Record<string, string>} [labels] runtime keys with their release status
 * @returns {Table | null} null: no route was fitted (a run before this existed, or not --nest-app)
 */
export function routeLoadTable(findings, { connections, durationSec }, labels = {}) {
  if (findings.length === 0) return null;
  const targets = [...new Set(findings.flatMap((finding) => Object.keys(finding.aloneMs)))];
  return {
    title: 'How each route was measured',
    intro:
      'Before the warm-up each route was sent alone, one request after another, on both adapters. Its connections ' +
      'and run length follow from the slower adapter’s time, the same on both (Little’s law: C connections wait about ' +
      `C times that for each answer, so C is kept low enough for several answers each), at most --connections ` +
      `${connections} and at least --duration ${durationSec} s. After every load on a route the bench waited until its ` +
      'server had answered or dropped what the route left in flight, then sent the route once more under a deadline. ' +
      'A route after which the server held requests it never answered, did not answer in time, or exited, is a ' +
      'finding here: the server was started again and the route left the run, so no other route was timed on what ' +
      'it left behind.',
    headers: ['runtime', 'route', ...targets.map((target) => `alone ${target} (ms)`), 'connections', 'run', 'finding'],
    align: ['left', 'left', ...targets.map(() => /** @type {const} */ ('right')), 'right', 'right', 'left'],
    rows: findings.map((finding) => [
      labels[finding.runtime] ?? finding.runtime,
      finding.scenario,
      ...targets.map((target) => {
        const ms = finding.aloneMs[target];
        return ms === undefined || ms === null ? DASH : formatNumber(ms, ms < 10 ? 2 : 1);
      }),
      formatNumber(finding.connections),
      `${formatNumber(finding.durationSec, 2)} s`,
      findingText(finding, { connections, durationSec }),
    ]),
  };
}

/**
 * @param {RouteFinding} finding
 * @param {{ connections: number, durationSec: number }} flags
 * @returns {import('./rich-table.js').Text}
 */
function findingText(finding, flags) {
  const parts = [];
  if (finding.trouble) parts.push(troubleText(finding.trouble));
  if (finding.backlog)
    parts.push(
      `left a backlog after ${finding.backlog.loads} ${finding.backlog.loads === 1 ? 'load' : 'loads'}: drained in ` +
        `up to ${formatNumber(finding.backlog.maxDrainedMs)} ms, up to ${formatNumber(finding.backlog.maxHeld)} ` +
        'requests held when the load stopped',
    );
  if (finding.lowered)
    parts.push(
      `slow: measured at ${finding.connections} connections for ${formatNumber(finding.durationSec, 2)} s instead of ` +
        `${flags.connections} for ${formatNumber(flags.durationSec, 2)} s`,
    );
  if (parts.length === 0) return 'answered the flags’ load';
  const [first, ...rest] = parts;
  return finding.trouble ? [strong(first), ...rest.map((part) => `; ${part}`)] : parts.join('; ');
}

/**
 * A hang or a crash, with what was seen.
 * @param {Drain} drain
 */
function troubleText(drain) {
  const when =
    drain.phase === 'warm-up'
      ? 'warm-up'
      : drain.round > 0
        ? `${drain.phase} ${drain.round}`
        : `start ${drain.start + 1}`;
  const where = `${drain.target}, ${when}`;
  const answered = drain.lastAnswer
    ? `${formatNumber(drain.lastAnswer.requests)} answers in that load`
    : 'that load failed';
  if (drain.outcome === 'crashed') {
    const exit = drain.exit;
    const how = exit?.signal ? `signal ${exit.signal}` : `exit code ${exit?.exitCode}`;
    return `crashed its server (${where}): ${how}, "${errorLine(exit?.stderrTail ?? '')}"; ${answered}; restarted, left out of the run`;
  }
  const unanswered = drain.probes.find((probe) => !probe.answered);
  const evidence = [
    answered,
    `${formatNumber(drain.heldAtEnd)} requests held when it stopped, ${formatNumber(drain.heldAfter)} after ${formatNumber(drain.drainedMs)} ms`,
    unanswered ? `${unanswered.request} unanswered after ${formatNumber(unanswered.ms)} ms` : 'the probe answered',
    drain.eventLoopDelay ? `event-loop delay p99 ${formatNumber(drain.eventLoopDelay.p99Ms, 1)} ms` : null,
  ].filter(Boolean);
  return `hangs under ${drain.connections} connections (${where}): ${evidence.join(', ')}; restarted, left out of the run`;
}
