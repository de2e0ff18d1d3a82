// @ts-check
// The report of `npm run compare`: one table of changes from run A to run B, as Markdown and as a self-contained page.
import { DASH, formatNumber, formatPercent } from './format.js';
import { htmlPage } from './html.js';
import { formatBandedRatio } from './ratio-notes.js';
import { htmlTable, htmlText, markdownTable, strong } from './rich-table.js';
import { roundsDesign } from './run-tables.js';
import { runtimeLabel } from '../model/release-status.js';

/** @typedef {import('../analysis/comparison.js').Change} Change */
/** @typedef {import('../analysis/comparison.js').HostDifference} HostDifference */
/** @typedef {import('./rich-table.js').Table} Table */

/** @typedef {import('../analysis/comparison.js').ComparedRun} Run */

/** @param {Run} run */
function describeRun({ dir, run }) {
  const { environment, startedAt } = run;
  const commit = environment.git.commit;
  return (
    `${dir} (${startedAt}, ${environment.runtimes.map((r) => runtimeLabel(`${r.name}@${r.version}`, startedAt, [r])).join(', ')}, ` +
    `${commit ? `commit ${commit.slice(0, 12)}${environment.git.dirty ? ' + changes' : ''}` : 'no commit'}, ` +
    `${environment.driver}, ${roundsDesign(run.rounds)})`
  );
}

/** @param {number} value a change as a fraction */
function signedPercent(value) {
  return `${value > 0 ? '+' : ''}${formatPercent(value, 1)}`;
}

/**
 * @param {Change} change
 * @param {number} value
 */
function formatValue(change, value) {
  return change.kind === 'ratio' ? formatBandedRatio(value) : formatNumber(value);
}

/**
 * @param {Change[]} changes
 * @param {{ a: string, b: string }} [dates] each run's start, for its runtimes' release status; none: runtimes unlabelled
 * @returns {Table}
 */
export function comparisonTable(changes, dates) {
  const label = (/** @type {string} */ runtime, /** @type {'a' | 'b'} */ side) =>
    dates ? runtimeLabel(runtime, dates[side]) : runtime;
  const runtimeCell = (/** @type {Change} */ c) =>
    c.runtimeA === c.runtimeB && label(c.runtimeA, 'a') === label(c.runtimeB, 'b')
      ? label(c.runtimeA, 'a')
      : `${label(c.runtimeA, 'a')} → ${label(c.runtimeB, 'b')}`;
  return {
    title: 'Changes from A to B',
    intro: [
      "Per runtime, scenario and stack, the Fastify ÷ Express ratios (per-round ratios, as in the verdict table) and every target's req/s; " +
        "A and B: each run's estimate in the interval's unit (the geometric mean of its per-start means with starts, else its median round). ",
      strong('change'),
      ': B ÷ A − 1. With three or more server starts in the two runs together (--starts) the unit is the start: the ' +
        "difference of the per-start geometric means with a pooled t interval, whose spread holds each start's own " +
        'level as well as its rounds. With one start each, the Hodges–Lehmann estimate over all pairs of a round from A ' +
        "and a round from B, with its rank-sum interval and that interval's exact coverage: it leaves out how far one " +
        "start's level sits from another's, so it decides nothing. ",
      strong('beyond noise'),
      ": the starts' interval reaches 95 % and excludes no change; — where the unit is rounds. Both runs should come " +
        'from the same host under the same conditions; no interval here covers a difference between hosts.',
    ],
    headers: [
      'runtime',
      'scenario',
      'stack',
      'series',
      'A',
      'B',
      'change',
      '95 % interval',
      'beyond noise',
      'verdict A → B',
    ],
    align: ['left', 'left', 'left', 'left', 'right', 'right', 'right', 'right', 'left', 'left'],
    rows: changes.map((c) => [
      runtimeCell(c),
      c.scenario,
      c.stack,
      c.kind === 'ratio' ? c.subject : `${c.subject} req/s`,
      `${formatValue(c, c.a.estimate)} (${replicates(c.a)})`,
      `${formatValue(c, c.b.estimate)} (${replicates(c.b)})`,
      c.change ? signedPercent(c.change.estimate) : DASH,
      c.change
        ? `${signedPercent(c.change.low)} – ${signedPercent(c.change.high)} (${formatPercent(c.change.coverage, 1)}, ${c.unit})`
        : DASH,
      c.beyondNoise === null ? DASH : c.beyondNoise ? strong('yes') : 'no',
      c.verdictA || c.verdictB ? `${c.verdictA ?? DASH} → ${c.verdictB ?? DASH}` : '',
    ]),
  };
}

const TITLE = 'Comparison of two bench runs';

/** @param {Change['a']} side */
function replicates({ n, starts }) {
  return starts > 1 ? `${n} rounds, ${starts} starts` : `${n}`;
}

/**
 * @param {Run} a @param {Run} b @param {HostDifference | null} hosts
 */
function runsParagraph(a, b, hosts) {
  return [
    `A: ${describeRun(a)}`,
    `B: ${describeRun(b)}`,
    ...(hosts
      ? [
          `A and B ran on different hosts (${hosts.fields.join(', ')}: A ${hosts.a}, B ${hosts.b}): every ` +
            'change below mixes the code with the host, and no interval here covers a host.',
        ]
      : []),
  ];
}

/** @param {Run} a @param {Run} b */
function startDates(a, b) {
  return { a: a.run.startedAt, b: b.run.startedAt };
}

/**
 * @param {Run} a @param {Run} b @param {Change[]} changes @param {HostDifference | null} hosts
 */
export function renderComparisonMarkdown(a, b, changes, hosts) {
  return [
    `# ${TITLE}`,
    '',
    ...runsParagraph(a, b, hosts).flatMap((line) => [line, '']),
    markdownTable(comparisonTable(changes, startDates(a, b))),
  ].join('\n');
}

/**
 * @param {Run} a @param {Run} b @param {Change[]} changes @param {HostDifference | null} hosts
 */
export function renderComparisonHtml(a, b, changes, hosts) {
  return htmlPage(
    TITLE,
    `${runsParagraph(a, b, hosts)
      .map((line) => `<p>${htmlText(line)}</p>`)
      .join('\n')}\n${htmlTable(comparisonTable(changes, startDates(a, b)))}`,
  );
}

/**
 * Both files of `npm run compare`'s report, from the comparison alone (analysis/comparison.js: compareRuns).
 * @param {import('../analysis/comparison.js').Comparison} comparison
 * @returns {{ markdown: string, html: string }}
 */
export function renderComparison({ runs, changes, hosts }) {
  return {
    markdown: renderComparisonMarkdown(runs[0], runs[1], changes, hosts),
    html: renderComparisonHtml(runs[0], runs[1], changes, hosts),
  };
}

/**
 * What the gate says: each target decided slower, with its change and interval, or that none was.
 * @param {ReturnType<typeof import('../analysis/comparison.js').slowerThan>} slower
 * @param {number} fraction the gate's threshold, 0.05 for 5 %
 * @returns {string[]}
 */
export function gateLines(slower, fraction) {
  const threshold = signedPercent(-fraction);
  if (!slower.length) return [`gate: no target decided slower than ${threshold} from A to B`];
  return [
    `gate: ${slower.length} decided slower than ${threshold} from A to B:`,
    ...slower.map((c) => {
      const estimate = c.b.estimate / c.a.estimate - 1;
      return (
        `- ${c.subject}, ${c.scenario} · ${c.stack} (${c.runtimeB}): ${signedPercent(estimate)} ` +
        `(${signedPercent(c.gateChange.low)} to ${signedPercent(c.gateChange.high)}), ${formatNumber(c.a.estimate)} → ` +
        `${formatNumber(c.b.estimate)} req/s`
      );
    }),
  ];
}

/**
 * What the gate within one run says: each compared row decided slower, with its ratio and interval, or that none was.
 * @param {ReturnType<typeof import('../analysis/comparison.js').slowerRows>} slower what slowerRows found
 * @param {number} fraction the gate's threshold
 * @param {{ numerator: string, denominator: string }} compared the run's compared pair
 * @returns {string[]}
 */
export function ratioGateLines(slower, fraction, { numerator, denominator }) {
  const pair = `${numerator} ÷ ${denominator}`;
  const threshold = signedPercent(-fraction);
  if (!slower.length) return [`gate: no route decided slower than ${threshold} (${pair})`];
  return [
    `gate: ${slower.length} decided slower than ${threshold} (${pair}):`,
    ...slower.map(
      ({ row, interval }) =>
        `- ${row.scenario} · ${row.stack} (${row.runtime}): ${formatBandedRatio(row.summary.median)} ` +
        `(${formatBandedRatio(interval.low)}–${formatBandedRatio(interval.high)})`,
    ),
  ];
}
