// @ts-check
// The tables about the run itself rather than its numbers: what went wrong, the headers that differed, and the
// environment it ran in, from the Analysis's facts of the run (analysis/record.js).
import { formatDuration } from '../model/durations.js';
import { ANSWERS_PER_CONNECTION_IN_A_BLOCK } from '../model/design.js';
import { DASH, formatNumber } from './format.js';
import { strong } from './rich-table.js';
import { scenarioHeader, scenarioLabel } from './tables.js';
import { releaseStatus, runtimeLabel } from '../model/release-status.js';

/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */
/** @typedef {import('../analysis/record.js').RunFacts} RunFacts */
/** @typedef {import('./rich-table.js').Table} Table */

/**
 * How the rounds were planned, for a report's opening line: "12 paired rounds", or the budget they were spent under.
 * @param {import('../analysis/record.js').RoundsPlan} plan
 */
export function roundsDesign({ starts, roundsPerStart: rounds, budgetPerRuntimeSec: budget, steady }) {
  if (starts > 1 && steady)
    return budget !== null
      ? `server starts (at least ${starts}, more while a budget of ${formatDuration(budget)} per runtime lasts), each measuring every scenario in alternating runs of its targets from their steady state on`
      : `${starts} server starts × ${rounds} steady rounds of alternating runs`;
  if (starts > 1)
    return budget !== null
      ? `at least ${starts} server starts, each with a block of paired rounds, under a budget of ${formatDuration(budget)} per runtime`
      : `${starts} server starts × ${rounds} paired rounds`;
  return budget !== null
    ? `paired rounds under a budget of ${formatDuration(budget)} per runtime (each scenario's count in the verdict table)`
    : `${rounds} paired rounds`;
}

/**
 * A --nest-app run's rows: the app's packages and its database as installed beside it, not the bench's.
 * @param {import('../analysis/own-app-facts.js').OwnAppFacts} app
 * @returns {string[][]}
 */
function appRows({ versions, database }) {
  const list = (/** @type {Record<string, string>} */ packages) =>
    Object.entries(packages)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ');
  return [
    ["your app's packages", list(versions)],
    // absent in results from before the scan recorded it
    ...(database
      ? [
          [
            "your app's database",
            Object.keys(database).length
              ? `through ${list(database)}, on the server its own config names`
              : 'no ORM or database driver in its package.json',
          ],
        ]
      : []),
  ];
}

/**
 * What a report's method line says was measured: the rounds and the load generator, or null when no pair ran a
 * timed round (an app that did not boot, a refused sign-in), where "measured in 2 paired rounds" would not be true.
 * @param {Analysis} analysis
 */
export function measuredWith({ ratios, targetRows, run }) {
  // a run of one side alone (HTTP/2, which only Fastify serves through Nest) timed rounds without forming a ratio
  if (ratios.length === 0 && !targetRows.some((row) => row.okRuns > 0)) return null;
  return `${roundsDesign(run.rounds)} with ${run.generators.join(' and ')}`;
}

/** @param {RunFacts} run */
const labelOf = (run) => (/** @type {string} */ runtime) =>
  runtimeLabel(runtime, run.startedAt, run.environment?.runtimes);

/**
 * Everything that did not go as planned. Empty rows when all went well.
 * @param {Analysis} analysis
 * @returns {Table}
 */
export function problemsTable({ run }) {
  const label = labelOf(run);
  return {
    title: 'Skipped and failed',
    headers: ['runtime', 'target', 'scenario', 'what', 'why'],
    align: ['left', 'left', 'left', 'left', 'left'],
    rows: run.problems.map((p) => [label(p.runtime), p.target, p.scenario ?? DASH, p.what, p.why]),
  };
}

/**
 * @param {Analysis} analysis
 * @returns {Table}
 */
export function headerTable({ run }) {
  const { targets, stacks, differences } = run.headers;
  const label = labelOf(run);
  return {
    title: 'Response headers that differ between targets',
    intro:
      'From the verification request of each scenario (Date left out). Each adapter keeps its defaults, as a fresh project has them. ' +
      'Headers in bold belong to the security policy (helmet, CORS): under the production stack both adapters should send the same set.',
    headers: ['runtime', scenarioHeader(stacks), 'header', ...targets],
    align: ['left', 'left', 'left', ...targets.map(() => /** @type {const} */ ('left'))],
    rows: differences.map((d) => [
      label(d.runtime),
      scenarioLabel(d, stacks),
      d.security ? strong(d.header) : d.header,
      ...targets.map((t) => (t in d.values ? (d.values[t] ?? '(absent)') : DASH)),
    ]),
  };
}

/**
 * The blocks run at fewer connections than the flags say, each fitted on its first start's warm-up rounds so that each
 * connection is answered many times a run.
 * @param {RunFacts} run
 */
function loweredBlockLoads({ loweredLoads, environment }) {
  if (!loweredLoads.length) return '';
  const loads = loweredLoads.map(
    (load) =>
      `${load.scenario} · ${load.stack}${environment.runtimes.length > 1 ? ` (${load.runtime})` : ''} at ${load.connections} connections (${formatNumber(load.msPerRequest, 2)} ms a request)`,
  );
  return `; fitted on the first start's warm-up rounds so that each connection gets ${ANSWERS_PER_CONNECTION_IN_A_BLOCK} answers a run: ${loads.join(', ')}`;
}

/**
 * The servers beside the verdict that never booted, their own start not fitting in the budget. One row, or none.
 * @param {RunFacts} run
 * @returns {string[][]}
 */
function unbootedRows({ unbooted }) {
  if (!unbooted.length) return [];
  const listed = unbooted.map(({ runtime, targets }) => `${targets.join(', ')} (${runtime})`).join('; ');
  return [['not measured', `${listed}: never booted, the verdict's starts took the budget`]];
}

/**
 * @param {Analysis} analysis
 * @returns {Table}
 */
export function environmentTable({ run, together, ownApp }) {
  const env = run.environment;
  const load = run.load;
  const rows = [
    ['CPU', `${env.cpu.model}, ${env.cpu.count} CPUs${env.cpu.governor ? `, governor ${env.cpu.governor}` : ''}`],
    // absent in results written before the host was identified
    ...(env.host ? [['host', describeHost(env.host)]] : []),
    ['memory', `${env.memoryGiB} GiB`],
    ['OS', [env.os.distribution, env.os.kernel].filter(Boolean).join(', ')],
    ['runtimes', env.runtimes.map((r) => describeRuntime(r, run.startedAt)).join('; ')],
    ...(run.runtimeChoice ? [['runtime choice', run.runtimeChoice.reason]] : []),
    [
      'load generator',
      `${run.generators.join(' and ')}, ${load.connections} connections, ${load.durationSec} s per run, ${roundsDesign(run.rounds)}, ${load.warmupSec} s warm-up per pair` +
        `${load.burstSec ? `, ${load.burstSec} s untimed burst before each run` : ''}` +
        `${load.pipelining > 1 ? `, ${load.pipelining} requests pipelined per connection` : ''}` +
        `${together ? "; each round's compared pair loaded together for as long as its runs back-to-back would take (--pairing together)" : ''}` +
        loweredBlockLoads(run),
    ],
    [
      'pinning',
      env.cpus
        ? `servers on CPU ${env.cpus.server}, generator and bench on CPU ${env.cpus.generator} (taskset)`
        : 'none',
    ],
    ...unbootedRows(run),
    ...(ownApp ? appRows(ownApp) : [['database', env.database]]),
    [
      run.packageSets
        ? "the bench's own packages (the servers ran on the package sets above)"
        : ownApp
          ? "the bench's own packages (your app ran on its own)"
          : 'packages',
      Object.entries(env.packages)
        .map(([name, version]) => `${name} ${version ?? DASH}`)
        .join(', '),
    ],
    ['git', env.git.commit ? `${env.git.commit.slice(0, 12)}${env.git.dirty ? ' (uncommitted changes)' : ''}` : DASH],
    [
      'command',
      `npm run bench --${env.bench.argv.length ? ` ${env.bench.argv.join(' ')}` : ''} (bench on node ${env.bench.node})`,
    ],
    [
      'started / finished',
      `${run.startedAt} / ${run.finishedAt ?? DASH}${run.finishedAt ? ` (${formatDuration((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000)})` : ''}`,
    ],
    ...run.started.filter((s) => s.line).map((s) => [`${s.target} said`, `${s.line} (${s.runtime})`]),
    ...serverSetupRows(run.started),
  ];
  return { title: 'Environment', headers: ['', ''], align: ['left', 'left'], rows };
}

/** @param {import('../model/results.js').HostIdentity} host */
export function describeHost({ cpu, kernel, virtualization }) {
  const caches = cpu.caches.map((c) => `L${c.level}${c.type === 'Unified' ? '' : c.type[0].toLowerCase()} ${c.size}`);
  return (
    `${cpu.vendor ?? 'unknown vendor'} family ${cpu.family ?? '?'} model ${cpu.model ?? '?'} stepping ` +
    `${cpu.stepping ?? '?'}, microcode ${cpu.microcode ?? '?'}${caches.length ? `, ${caches.join(' ')}` : ''}; ` +
    `${kernel}; ${[virtualization.vm && `VM: ${virtualization.vm}`, virtualization.container && `container: ${virtualization.container}`].filter(Boolean).join(', ') || 'no virtualisation found'}`
  );
}

/**
 * The runtime flags the servers got and what ran without telemetry, once each.
 * @param {RunFacts['started']} started
 */
function serverSetupRows(started) {
  const flags = [...new Set(started.map((s) => (s.runtimeFlags ?? []).join(' ')))].filter(Boolean);
  const missing = started.filter((s) => s.telemetryMissing);
  return [
    ...(flags.length ? [['server runtime flags', flags.join('; ')]] : []),
    ...(missing.length
      ? [['without telemetry', missing.map((s) => `${s.target} (${s.runtime}): ${s.telemetryMissing}`).join('; ')]]
      : []),
  ];
}

/**
 * A runtime as the environment table shows it: version, release status on the run's date, LTS codename, V8, binary.
 * @param {import('../model/runtime.js').Runtime} runtime @param {string} date
 */
function describeRuntime(runtime, date) {
  const status = releaseStatus(runtime, date);
  const details = [status.text, status.codename, status.v8 && `V8 ${status.v8}`].filter(Boolean).join(', ');
  return `${runtime.name} ${runtime.version} (${details}; ${runtime.command})`;
}

/**
 * A line above everything when the run did not finish, or null.
 * @param {Analysis} analysis
 * @returns {import('./rich-table.js').Text | null}
 */
export function statusLine({ run }) {
  if (run.complete) return null;
  return [
    strong('Incomplete results'),
    `: ${run.stopReason ?? 'the run did not finish'}. Tables show what was measured before it stopped.`,
  ];
}
