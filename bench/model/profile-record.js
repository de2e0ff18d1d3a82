// @ts-check
// What results.json keeps of a --prof run (results.profiles, results.profileDiffs), shape only: each profile's summary
// (its groups, functions, layers and flame graph) and each diff between two runtimes' profiles. profile/ fills it;
// analysis/ and report/ read it.

export {};

/**
 * @typedef {'express' | 'fastify' | 'nestjs' | 'orm-db' | 'helmet' | 'compression' | 'logger' | 'class-transformer'
 *   | 'app' | 'other-packages' | 'node' | 'native' | 'gc' | 'idle' | 'unaccounted'} GroupId
 */

/**
 * @typedef {'node' | 'framework' | 'nest' | 'app' | 'packages' | 'v8' | 'rest'} LayerId
 * @typedef {{ id: LayerId, ticks: number, share: number }} LayerTicks share: of the busy (not idle) ticks
 */

/**
 * @typedef {{ n: string, g: GroupId, v: number, c: FlameNode[] }} FlameNode d3-flame-graph's short keys: name, value, children
 */

/**
 * @typedef {{ log: string, txt: string, html: string, json: string }} ProfileFiles
 * @typedef {{ id: string, label: string, selfTicks: number, selfShare: number, callerTicks: number, callerShare: number, totalTicks: number, totalShare: number }} GroupSummary
 * @typedef {{ name: string, group: string, selfTicks: number, selfShare: number, totalTicks: number, totalShare: number }} FunctionSummary
 * @typedef {{
 *   title: string,
 *   v8Version: string | null,
 *   processedWith: string,
 *   window: { source: 'load marks' | 'whole log', startMs: number | null, endMs: number | null, durationSec: number | null },
 *   ticks: { inLog: number, beforeWindow: number, afterWindow: number, inWindow: number, unaccounted: number, unaccountedShare: number, unnamedNative: number, noPc?: number },
 *   vmStates: Record<string, number>,
 *   groups: GroupSummary[],
 *   functions: FunctionSummary[],
 *   layers: LayerTicks[],
 *   context: ProfileContext | null,
 *   flame: FlameNode,
 * }} ProfileSummary
 * @typedef {{ cpuUsPerRequest: number, rounds: number, neighbourCpuShare: number }} MeasuredCost the median CPU per
 *   request of the pair's timed runs (all the server's threads, from schedstat), how many, and the most CPU another
 *   server of the bench used meanwhile
 * @typedef {{ target: string, scenario: string, stack: string, runtime: { spec: string, name: string, version: string },
 *   measured: MeasuredCost | null, loadAverage: number, host?: import('./records.js').HostIdentity }} ProfileContext what
 *   the bench knew of the profiled pair; loadAverage: the machine's 1-minute load average when it was profiled; host: the
 *   CPU's identity, kernel and virtualisation, as results.json records them (absent from profiles recorded before)
 */

/**
 * @typedef {Omit<ProfileSummary, 'functions' | 'flame'> & { topFunctions: ProfileSummary['functions'] }} ProfileRecordSummary
 * @typedef {object} ProfileRecord
 * @property {string} target
 * @property {string} scenario
 * @property {string} stack the app stack it ran with
 * @property {{ spec: string, name: string, version: string }} runtime
 * @property {MeasuredCost | null} [measured] the timed runs' CPU per request for this pair
 * @property {string} driver
 * @property {number} durationSec
 * @property {number} connections
 * @property {{ requests: number, rps: number, errors: number, unexpectedStatus: number } | null} load under the profiler: not a measurement
 * @property {{ log: string, txt: string, html: string, json: string } | null} files absolute paths
 * @property {ProfileRecordSummary | null} summary
 * @property {string} [error] why this profile failed (the others go on)
 * @property {string} [skipped] why it was not recorded
 */

/**
 * @typedef {{ ticks: number, share: number, us: number | null }} Side share: of the profile's busy ticks; us: µs of
 *   CPU per request, null without a measured CPU per request
 * @typedef {{ key: string, label: string, group?: string, older: Side, newer: Side, deltaShare: number,
 *   deltaUs: number | null, presence: 'both' | 'added' | 'removed' }} DiffRow
 * @typedef {{ label: string, runtime: string, v8Version: string | null, cpuUsPerRequest: number | null,
 *   busyTicks: number, neighbourCpuShare: number | null, loadAverage: number | null, file: string }} DiffSide
 * @typedef {FlameNode & { s: number, o: number | null, os: number | null, d: number, c: DiffFlameNode[] }} DiffFlameNode
 *   s: self ticks; o, os: the other profile's total and self ticks on the same path (null: no such frame); d: change in
 *   self share of busy ticks, newer − older
 * @typedef {{ name: string, older: DiffSide, newer: DiffSide, layers: DiffRow[], groups: DiffRow[],
 *   functions: DiffRow[], functionsCompared: number, newerFlame: DiffFlameNode, olderFlame: DiffFlameNode }} ProfileDiff
 * @typedef {Omit<ProfileDiff, 'newerFlame' | 'olderFlame'>} DiffSummary a diff's tables without its call trees
 */

/**
 * @typedef {object} ProfileDiffRecord one differential profile of a bench run, for results.json and the report
 * @property {string} target
 * @property {string} scenario
 * @property {string} stack
 * @property {string} older runtime name@version
 * @property {string} newer
 * @property {{ md: string, html: string }} files absolute paths
 * @property {DiffSummary} diff the tables' rows
 */
