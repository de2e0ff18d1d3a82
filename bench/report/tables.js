// @ts-check
// The report's tables as data (see rich-table.js), so Markdown, HTML and the terminal show the same thing.
import { DASH, formatInterval, formatLevel, formatNumber, formatPercent, formatRatio } from './format.js';
import { strong } from './rich-table.js';
import { MAX_BUDGET_ROUNDS } from '../model/design.js';
import { commitWords } from '../model/own-app-record.js';
import { LOOK_CONFIDENCE } from '../analysis/sequential.js';
import { CONFIDENCE } from '../analysis/stats.js';
import {
  isBorderline,
  marginOf,
  FAILED_ANSWER_LIMIT,
  HOLDS_MAX,
  HOLDS_MIN,
  MIN_ROUNDS_FOR_VERDICT,
} from '../analysis/verdict.js';
import { formatBandedRatio, formatMiBRange, ratioNotes } from './ratio-notes.js';
import { CPU_PER_REQUEST, RATE, metricWords } from '../model/metrics.js';
import { ratioIn } from '../analysis/block-rows.js';

/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */
/** @typedef {import('../analysis/analyze.js').RatioRow} RatioRow */

/** @typedef {import('./rich-table.js').Table} Table */

/** Half the interval's width relative to the median: how precisely a ratio is known. @param {import('../analysis/analyze.js').Summary} s */
export function halfWidth(s) {
  return s.ci && s.median ? (s.ci.high - s.ci.low) / 2 / s.median : NaN;
}

/**
 * What a row's value is, for the tables' intros: with several starts the per-start geometric mean (starts.js).
 * @param {Pick<import('../analysis/analyze.js').Analysis, 'starts'>} analysis
 */
export function estimateWords({ starts }) {
  return starts > 1 ? 'geometric mean of the per-start ratios' : 'median per-round ratio';
}

/** What the rounds column adds to a budgeted row's count: why its scenario ran no more rounds. */
const STOPPED_ON = Object.freeze({ decided: 'decided', budget: 'budget spent', unjudged: 'minimum' });

/** @param {RatioRow} row */
function roundsCell(row) {
  const count = `${row.summary.n}${row.missingRounds.length ? ` of ${row.summary.n + row.missingRounds.length}` : ''}`;
  const inStarts = row.starts ? `${count} in ${row.starts.perStart.length} starts` : count;
  if (row.stop && !row.starts) return `${count}, ${STOPPED_ON[row.stop.stoppedOn]}`;
  const coverage = row.starts?.interval?.coverage;
  if (coverage === undefined) return inStarts;
  // a row the starts' budget stopped once decided carries the interval its stop was judged at, and one measured to
  // the end under the stop rule its end level
  if (row.stop?.stoppedOn === 'decided') return `${inStarts}, decided (${formatLevel(coverage)} interval)`;
  return coverage === CONFIDENCE ? inStarts : `${inStarts} (${formatLevel(coverage)} interval)`;
}

/**
 * What the verdict's intro says of the stop rule's levels.
 * @param {import('../model/design.js').StopRule | null} rule
 */
function stopRuleWords(rule) {
  if (!rule) return '';
  return (
    `: a row whose rounds read "decided" stopped once its interval at ${formatLevel(rule.decideConfidence)} lay in ` +
    `one band${rule.borderlineMargin ? ` or within ±${formatPercent(rule.borderlineMargin)} of an edge (borderline)` : ''}, and is shown at ${formatLevel(rule.stoppedConfidence)}; a row measured to the end while others could ` +
    `stop, at ${formatLevel(rule.endConfidence ?? CONFIDENCE)}, so that looking after every start costs no coverage` +
    (rule.headlineConfidence ? `; the headline, which no look stops, at ${formatLevel(rule.headlineConfidence)}` : '') +
    (rule.slowedStartFactor
      ? `. A start on which both servers spent ${rule.slowedStartFactor} times their CPU per request on the row's ` +
        'median start ran on a core the host slowed and is left out of that row (next table)'
      : '')
  );
}

/** How the order note names the two sides of the judged ratio in the built-in setup. */
const ADAPTER_NAMES = { first: 'Fastify', second: 'Express' };

/**
 * The judged pair's names: the adapters' for the built-in setup, the targets' for a --config run.
 * @param {Analysis} analysis
 */
export function comparedNames(analysis) {
  const { numerator, denominator, builtIn } = analysis.compared;
  return builtIn ? ADAPTER_NAMES : { first: numerator, second: denominator };
}

/**
 * A row's scenario, with its stack when the run measured several: "catalog · production".
 * @param {{ scenario: string, stack: string }} row @param {string[]} stacks the run's
 */
export function scenarioLabel({ scenario, stack }, stacks) {
  return stacks.length > 1 ? `${scenario} · ${stack}` : scenario;
}

/** @param {string[]} stacks the run's */
export function scenarioHeader(stacks) {
  return stacks.length > 1 ? 'scenario · stack' : 'scenario';
}

/**
 * What borderline means, where some judged row is: its interval in no one band, but within the margin of the edge it
 * reaches across.
 * @param {Analysis} analysis
 * @returns {Array<string | import('./rich-table.js').Span>}
 */
function borderlineWords(analysis) {
  if (!analysis.ratios.some((row) => row.judged && isBorderline(row.verdict))) return [];
  return [
    strong(`borderline at ${HOLDS_MIN}×`),
    ` (or ${HOLDS_MAX}×): the interval reaches across that edge but lies within ±${formatPercent(marginOf(analysis.stopRule))} ` +
      'of it: the ratio is known to sit at the edge, and which side of it is a matter of a few per cent; ',
  ];
}

/**
 * --baseline: which build each side of the ratio is, with its folder and commit.
 * @param {import('../model/own-app-record.js').Builds | null | undefined} builds
 */
function buildsIntro(builds) {
  if (!builds) return [];
  const named = (/** @type {import('../model/own-app-record.js').BuildRecord} */ build) =>
    ` is ${build.target}: ${build.module}, run in ${build.cwd} (${commitWords(build)}, @nestjs/core ${build.nestCore})`;
  return [
    'Two builds of your app, each run as its main is written, in alternation in every round. The ',
    strong('candidate'),
    named(builds.candidate),
    '; the ',
    strong('base'),
    named(builds.base),
    '. Below 1 the candidate serves fewer requests a second than the base; --fail-if-slower gates on these rows. ',
  ];
}

/**
 * What the verdict table's numbers are and how its bands are judged: the ratio's unit and interval for the run's
 * design, and each band and column in words.
 * @param {Analysis} analysis
 * @returns {Array<string | import('./rich-table.js').Span>}
 */
function verdictIntro(analysis) {
  return [
    `${analysis.compared.builtIn ? 'Nest-Fastify req/s ÷ Nest-Express' : `${analysis.compared.numerator} req/s ÷ ${analysis.compared.denominator}`} req/s (answers with the expected status only), taken in each round from ` +
      `${analysis.together ? 'runs of the two servers loaded together, sharing the server CPU, so that the host’s slow and fast moments hit both alike' : 'back-to-back runs'}; ${
        analysis.starts > 1
          ? 'the geometric mean of the per-start ratios (each server start, with its block of rounds, one value) ' +
            "with a t interval over those starts: its spread holds each start's own level, which more rounds " +
            'in one start cannot average (next table). The interval is at 95 % unless the rounds column gives ' +
            `another level${stopRuleWords(analysis.stopRule)}. `
          : `median over the rounds with ${
              analysis.budgeted
                ? `a group-sequential 95 % interval of the log ratios (a Hodges–Lehmann interval at ${formatPercent(LOOK_CONFIDENCE, 1)} at each look, ` +
                  'valid whenever the rounds stopped). Under the budget a scenario stops once its interval lies in one ' +
                  `band ("decided"), or when two more rounds no longer fit or it reached ${MAX_BUDGET_ROUNDS} rounds ` +
                  '("budget spent"). '
                : 'a 95 % Hodges–Lehmann (signed-rank) interval of the log ratios. '
            }`
      }`,
    strong('holds'),
    `: ${HOLDS_MIN}–${HOLDS_MAX}×; `,
    strong('understated'),
    `: above ${HOLDS_MAX}×; `,
    strong('does not hold'),
    `: below ${HOLDS_MIN}×; `,
    ...borderlineWords(analysis),
    strong('inconclusive'),
    `: the interval reaches into another band, fewer than ${MIN_ROUNDS_FOR_VERDICT} rounds were measured, more than ` +
      `${formatPercent(FAILED_ANSWER_LIMIT, 1)} of some round's requests failed, or the load generator was saturated ` +
      `(which can only hold the ratio down, so "understated" then stands as a lower bound). `,
    strong('pair r'),
    `: how closely the two adapters' req/s moved together from round to round; near 1, the machine's slow and fast ` +
      `moments hit both runs of a round alike and the ratio cancels them; near 0, they did not, and only more rounds ` +
      `narrow the interval. `,
    strong('lag-1 r'),
    `: how much one round's ratio predicts the next; high, the host drifted and the interval is widened.`,
    ...(analysis.ratios.some((row) => row.judged && row.metric === CPU_PER_REQUEST)
      ? [
          ' A paced profile sends its requests at a fixed pace, so both sides serve the same req/s: its row divides ' +
            `${comparedNames(analysis).second}'s CPU per request by ${comparedNames(analysis).first}'s (its note says so), ` +
            `so that above 1 ${comparedNames(analysis).first} is cheaper, on the same bands.`,
        ]
      : []),
  ];
}

/**
 * A row whose ratio divides another metric than req/s names it first.
 * @param {RatioRow} row @param {Analysis} analysis
 * @returns {string[]}
 */
function metricNote({ metric }, analysis) {
  if (metric === RATE) return [];
  const { first, second } = comparedNames(analysis);
  return [`on ${metricWords(metric, { numerator: first, denominator: second })}: paced, so req/s is the pace`];
}

/**
 * The claim, judged per scenario.
 * @param {Analysis} analysis
 * @returns {Table}
 */
export function verdictTable(analysis) {
  const bare = (/** @type {RatioRow} */ row) => ratioIn(analysis, row, { kind: 'adapters', judged: false });
  const rows = analysis.ratios
    .filter((r) => r.judged)
    .map((row) => {
      const raw = bare(row);
      const measured = row.verdict !== 'too slow';
      return [
        analysis.runtimeLabels[row.runtime],
        scenarioLabel(row, analysis.stacks),
        measured ? formatBandedRatio(row.summary.median) : DASH,
        measured ? formatInterval(row.summary.ci, formatBandedRatio) : DASH,
        measured ? `±${formatPercent(halfWidth(row.summary), 1)}` : DASH,
        strong(row.verdict ?? DASH),
        roundsCell(row),
        row.pairCorrelation === null ? DASH : formatNumber(row.pairCorrelation, 2),
        row.summary.lag1 === null ? DASH : formatNumber(row.summary.lag1, 2),
        raw ? formatRatio(raw.summary.median) : DASH,
        [...metricNote(row, analysis), ...ratioNotes(row, comparedNames(analysis))].join('; '),
      ];
    });
  return {
    title: analysis.compared.builds
      ? 'Verdict: is the candidate build slower than the base?'
      : analysis.compared.builtIn
        ? 'Verdict: is Nest on Fastify "almost two times" faster than on Express?'
        : `Verdict: is ${analysis.compared.numerator} "almost two times" faster than ${analysis.compared.denominator}?`,
    intro: [...buildsIntro(analysis.compared.builds), ...verdictIntro(analysis)],
    headers: [
      'runtime',
      scenarioHeader(analysis.stacks),
      `${comparedNames(analysis).first} ÷ ${comparedNames(analysis).second}`,
      '95 % CI',
      'CI half-width',
      'verdict',
      'rounds',
      'pair r',
      'lag-1 r',
      'bare frameworks',
      'note',
    ],
    align: ['left', 'left', 'right', 'right', 'right', 'left', 'right', 'right', 'right', 'right', 'left'],
    rows,
  };
}

/**
 * Whether running first or second in a round changes a ratio: the rotation runs each pair in both orders, and the
 * median of each half should agree within noise.
 * @param {Analysis} analysis
 * @returns {Table}
 */
export function orderTable(analysis) {
  const rows = analysis.ratios
    .filter((r) => r.kind === 'adapters' && r.order)
    .map((row) => {
      const order = /** @type {import('../analysis/analyze.js').OrderEffect} */ (row.order);
      const shift = order.shift;
      return [
        analysis.runtimeLabels[row.runtime],
        scenarioLabel(row, analysis.stacks),
        `${row.numerator} ÷ ${row.denominator}`,
        `${formatRatio(order.denominatorFirst.median)} (${order.denominatorFirst.n})`,
        `${formatRatio(order.numeratorFirst.median)} (${order.numeratorFirst.n})`,
        shift
          ? `${formatRatio(Math.exp(shift.estimate))} (${formatRatio(Math.exp(shift.low))} – ${formatRatio(Math.exp(shift.high))}, ${formatPercent(shift.coverage, 1)})`
          : DASH,
        order.differs ? strong('yes') : 'no',
      ];
    });
  return {
    title: 'Does the order within a pair matter?',
    intro:
      'Median per-round ratio of the rounds where the Express side ran first, and of those where the Fastify side did ' +
      "(rounds in brackets); their quotient with its Hodges–Lehmann (rank-sum) interval and that interval's exact " +
      'coverage. Flagged where the interval excludes 1 at 95 % or more: then the order moves the ratio beyond noise.',
    headers: [
      'runtime',
      scenarioHeader(analysis.stacks),
      'ratio',
      'Express first',
      'Fastify first',
      'Express-first ÷ Fastify-first',
      'differs',
    ],
    align: ['left', 'left', 'left', 'right', 'right', 'right', 'left'],
    rows,
  };
}

/**
 * What Nest costs on each adapter: Nest's throughput as a share of the bare framework's.
 * @param {Analysis} analysis
 * @returns {Table}
 */
export function overheadTable(analysis) {
  const rows = [];
  for (const { runtime, scenarios } of analysis.byRuntime) {
    for (const { scenario, ratios } of scenarios) {
      const find = (/** @type {string} */ numerator) =>
        ratios.find((r) => r.kind === 'overhead' && r.numerator === numerator);
      const express = find('nest-express');
      const fastify = find('nest-fastify');
      if (!express && !fastify) continue;
      const cell = (/** @type {RatioRow | undefined} */ r) =>
        r ? `${formatPercent(r.summary.median)} (${formatInterval(r.summary.ci, formatPercent)})` : DASH;
      rows.push([analysis.runtimeLabels[runtime], scenario, cell(express), cell(fastify)]);
    }
  }
  return {
    title: 'What Nest costs on each adapter',
    intro: `Nest's req/s as a share of the bare framework's on the same route (${estimateWords(analysis)}, 95 % CI). 100 % would be free.`,
    headers: ['runtime', 'scenario', 'Nest-Express ÷ Express', 'Nest-Fastify ÷ Fastify'],
    align: ['left', 'left', 'right', 'right'],
    rows,
  };
}

/**
 * Every target against the ceiling, bare node:http.
 * @param {Analysis} analysis
 * @returns {Table}
 */
export function baselineTable(analysis) {
  const others = analysis.targets.filter((t) => t !== analysis.baseline);
  const rows = [];
  for (const { runtime, scenarios } of analysis.byRuntime) {
    for (const { scenario, ratios } of scenarios) {
      const cells = others.map((target) => ratios.find((r) => r.kind === 'baseline' && r.numerator === target));
      if (cells.every((c) => !c)) continue;
      rows.push([
        analysis.runtimeLabels[runtime],
        scenario,
        ...cells.map((c) => (c ? formatPercent(c.summary.median) : DASH)),
      ]);
    }
  }
  return {
    title: 'Each target as a share of raw node:http',
    intro: `req/s relative to a bare node:http server answering the same bytes (${estimateWords(analysis)}).`,
    headers: ['runtime', 'scenario', ...others],
    align: ['left', 'left', ...others.map(() => /** @type {const} */ ('right'))],
    rows,
  };
}

/**
 * One target's row of the per-target table.
 * @param {Analysis} analysis @param {import('../analysis/analyze.js').TargetRow} row
 * @returns {import('./rich-table.js').Text[]}
 */
function targetCells(analysis, row) {
  return [
    analysis.runtimeLabels[row.runtime],
    scenarioLabel(row, analysis.stacks),
    row.target,
    formatNumber(row.rps.median),
    formatInterval(row.rps.ci, (v) => formatNumber(v)),
    formatPercent(row.rps.cv),
    formatNumber(row.latencyMs.p50, 2),
    formatNumber(row.latencyMs.p90, 2),
    formatNumber(row.latencyMs.p99, 2),
    formatNumber(row.latencyMs.p999, 2),
    `${row.errors} / ${row.timeouts} / ${row.unexpectedStatus}`,
    formatNumber(row.cpuUsPerRequest, 1),
    formatNumber(row.peakRssMiB, 0),
    row.state?.youngMiB ? formatMiBRange(row.state.youngMiB) : DASH,
    row.state ? formatNumber(row.state.minorGcsPerRun, 0) : DASH,
    row.state ? formatPercent(row.state.gcShare, 1) : DASH,
    row.state ? formatNumber(row.state.majorGcs, 0) : DASH,
    row.state ? formatNumber(row.state.eventLoopP99Ms, 1) : DASH,
    formatPercent(row.generatorShare),
    `${row.okRuns}${row.failedRuns ? ` (+${row.failedRuns} failed)` : ''}${row.tooSlow ? ` (+${row.tooSlow.rounds.length} too slow)` : ''}`,
    [
      row.tooSlow
        ? `too slow for --duration ${row.tooSlow.durationSec} s: none of the ${row.tooSlow.inFlight} requests in flight answered, in ${row.tooSlow.rounds.length} of ${row.okRuns + row.failedRuns + row.tooSlow.rounds.length} runs`
        : '',
      analysis.remoteTargets.includes(row.target) ? 'url target: runs elsewhere, so no CPU or RSS' : '',
      row.saturatedRuns ? `generator saturated in ${row.saturatedRuns} run(s)` : '',
      row.state?.reducingRounds.length
        ? `all-external-memory GC before or during round(s) ${row.state.reducingRounds.join(', ')}`
        : '',
      ...row.warnings,
    ]
      .filter(Boolean)
      .join('; '),
  ];
}

/**
 * @param {Analysis} analysis
 * @returns {Table}
 */
export function targetTable(analysis) {
  const rows = analysis.targetRows.map((row) => targetCells(analysis, row));
  return {
    title: 'Per target',
    intro:
      'Medians over the rounds; req/s counts answers with the expected status only. Latency (ms) is closed-loop ' +
      'latency at saturation: each connection sends its next request when the answer arrives, so it measures queueing ' +
      'at full load, not the latency a user sees at a given rate. Errors / timeouts / other statuses are totals. ' +
      'Server CPU is µs of CPU time per response (from /proc); peak RSS is the highest VmHWM of a run; generator is the ' +
      "highest share of one core the load generator used. From the server's own telemetry: the young generation's " +
      "size at the runs' starts (lowest–highest), scavenges in a run and the share of a run spent in GC pauses " +
      "(medians), mark-compacts during and between the runs (total), and the event loop's p99 delay (median, ms)." +
      (analysis.together
        ? ' The compared pair ran loaded together: each of its servers had about half the server CPU, so its req/s is ' +
          "about half what it serves alone and its latency includes the other's turns on the core; its CPU per " +
          'response is its own.'
        : ''),
    headers: [
      'runtime',
      'scenario',
      'target',
      'req/s',
      '95 % CI',
      'CV',
      'latency p50',
      'p90',
      'p99',
      'p99.9',
      'err / t-o / other status',
      'CPU µs/req',
      'peak RSS MiB',
      'young gen',
      'scavenges/run',
      'GC time',
      'major GCs',
      'loop p99',
      'generator',
      'runs',
      'note',
    ],
    align: [
      'left',
      'left',
      'left',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'left',
    ],
    rows,
  };
}
