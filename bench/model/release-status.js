// @ts-check
// Where a runtime's release line stands on a date — current, active LTS, maintenance, end of life — from Node's own
// release schedule as the node-releases package ships it. Bun and Deno publish no such schedule; for Deno the label says
// what the npm registry said of the release when it was installed.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** @param {string} file a JSON file of the node-releases package */
const releasesData = (file) => JSON.parse(readFileSync(require.resolve(`node-releases/${file}`), 'utf8'));

/**
 * One release line of Node's schedule, dates as YYYY-MM-DD: `lts` only on even lines, `maintenance` absent on a line
 * not released yet.
 * @typedef {{ start: string, lts?: string, maintenance?: string, end: string, codename?: string }} ScheduledLine
 */
/** @type {Record<string, ScheduledLine>} keyed `v20` */
const SCHEDULE = releasesData('data/release-schedule/release-schedule.json');
/** @type {Map<string, string>} version → its V8 version */
const V8_VERSIONS = new Map(
  releasesData('data/processed/envs.json').map((/** @type {{ version: string, v8: string }} */ release) => [
    release.version,
    release.v8,
  ]),
);
export const NODE_RELEASES_VERSION = releasesData('package.json').version;

/**
 * @typedef {'current' | 'active LTS' | 'maintenance LTS' | 'maintenance' | 'end of life' | 'not released'
 *   | 'unscheduled' | 'no LTS schedule'} Phase
 * maintenance: an odd line's short maintenance after the next line's release (no LTS); unscheduled: a Node major the
 * installed node-releases does not know.
 *
 * @typedef {object} ReleaseStatus
 * @property {Phase} phase
 * @property {boolean} supported still getting fixes on that date (not end of life, released)
 * @property {string} text the phase with its date: "end of life since 2026-04-30", "maintenance LTS until 2027-04-30"
 * @property {string | null} codename the LTS line's name (Lithium), null for odd lines and Bun
 * @property {string | null} v8 the V8 version of that exact release, when node-releases knows it
 */

/**
 * @param {string} date ISO date or time; only the UTC day counts
 * @returns {string} YYYY-MM-DD
 */
function dayOf(date) {
  return new Date(date).toISOString().slice(0, 10);
}

/**
 * A runtime's release status on a date.
 * @param {{ name: string, version: string, registry?: import('./runtime.js').RegistryRelease }} runtime name `node`,
 *   `bun` or `deno`, version `20.20.2`; registry: what npm said of the release at install
 * @param {string} date the run's date (results.startedAt)
 * @returns {ReleaseStatus}
 */
export function releaseStatus({ name, version, registry }, date) {
  if (name !== 'node') {
    const text = registry ? registryText(version, registry) : 'no LTS schedule';
    return { phase: 'no LTS schedule', supported: true, text, codename: null, v8: null };
  }
  const major = Number(version.split('.')[0]);
  const line = SCHEDULE[`v${major}`];
  const v8 = V8_VERSIONS.get(version) ?? null;
  if (!line) {
    const text = `not in the release schedule of node-releases ${NODE_RELEASES_VERSION}`;
    return { phase: 'unscheduled', supported: false, text, codename: null, v8 };
  }
  const phase = linePhase(line, dayOf(date));
  return {
    phase,
    supported: phase !== 'end of life' && phase !== 'not released',
    text: phaseText(phase, line),
    codename: line.codename || null,
    v8,
  };
}

/**
 * `npm: published 2026-08-27, newest on 2026-11-25` (or `2.9.7 newest on …`): the registry's word, said as such.
 * @param {string} version @param {import('./runtime.js').RegistryRelease} registry
 */
function registryText(version, registry) {
  const newest = registry.latest === version ? 'newest' : `${registry.latest} newest`;
  return `npm: published ${registry.published}, ${newest} on ${registry.checked}`;
}

/**
 * Each boundary is the first day of the next phase: on its end date a line is end of life.
 * @param {ScheduledLine} line @param {string} day YYYY-MM-DD
 * @returns {Phase}
 */
function linePhase(line, day) {
  if (day < line.start) return 'not released';
  if (day >= line.end) return 'end of life';
  if (line.maintenance && day >= line.maintenance) return line.lts ? 'maintenance LTS' : 'maintenance';
  if (line.lts && day >= line.lts) return 'active LTS';
  return 'current';
}

/** @param {Phase} phase @param {ScheduledLine} line */
function phaseText(phase, line) {
  switch (phase) {
    case 'end of life':
      return `end of life since ${line.end}`;
    case 'maintenance LTS':
    case 'maintenance':
      return `${phase} until ${line.end}`;
    case 'not released':
      return `not released until ${line.start}`;
    default:
      return phase;
  }
}

/**
 * How every report and terminal line names a runtime: `node@20.20.2 (end of life since 2026-04-30)`.
 * @param {string} runtimeKey `name@version`, as in every run record
 * @param {string} date the run's date
 * @param {{ name: string, version: string, registry?: import('./runtime.js').RegistryRelease }[]} [runtimes] the
 *   run's runtimes (results.environment.runtimes), which carry what the registry said of a Deno release
 */
export function runtimeLabel(runtimeKey, date, runtimes = []) {
  // a --packages cell's key names its package set after the runtime: `node@18.20.8 · nest@10.4.22`
  const [runtimePart, ...packageSet] = runtimeKey.split(' · ');
  const [name, version] = runtimePart.split('@');
  const registry = runtimes.find((runtime) => runtime.name === name && runtime.version === version)?.registry;
  return [`${runtimePart} (${releaseStatus({ name, version, registry }, date).text})`, ...packageSet].join(' · ');
}

/**
 * The release lines of Node's schedule, oldest first.
 * @returns {{ major: number, line: ScheduledLine }[]}
 */
function scheduledLines() {
  return Object.entries(SCHEDULE)
    .map(([key, line]) => ({ major: Number(key.slice(1)), line }))
    .filter(({ major }) => Number.isInteger(major))
    .sort((a, b) => a.major - b.major);
}

/**
 * The LTS line to use on a date: the newest line that has entered LTS and is not end of life — the active LTS line,
 * or in the days between one line's maintenance and the next one's LTS, the newest maintenance LTS line.
 * @param {string} date
 * @returns {number} its major
 */
export function ltsLine(date) {
  const day = dayOf(date);
  const lts = scheduledLines().filter(({ line }) => line.lts && line.lts <= day && day < line.end);
  if (lts.length === 0) throw new Error(`node-releases ${NODE_RELEASES_VERSION} has no LTS line on ${day}`);
  return lts[lts.length - 1].major;
}

/**
 * Every Node line still supported on a date, oldest first: even lines from release to end of life, odd lines only while
 * current (their few weeks of maintenance after the next release are no line to choose).
 * @param {string} date
 * @returns {number[]} majors
 */
export function supportedLines(date) {
  const day = dayOf(date);
  return scheduledLines()
    .filter(({ major, line }) => {
      const phase = linePhase(line, day);
      return major % 2 === 0 ? phase !== 'end of life' && phase !== 'not released' : phase === 'current';
    })
    .map(({ major }) => major);
}

/**
 * When a line was first released, for refusing lines that do not exist yet.
 * @param {number} major
 * @returns {string | null} YYYY-MM-DD, null when the schedule does not know the line
 */
export function lineStart(major) {
  return SCHEDULE[`v${major}`]?.start ?? null;
}
