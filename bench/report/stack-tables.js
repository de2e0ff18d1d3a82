// @ts-check
// What the production stack does to the claim: each route's bare and production ratios side by side, what each of the
// production stack's parts costs per adapter (--ablate), and what a mix run sent per route.
import { DASH, formatInterval, formatNumber, formatPercent, formatRatio } from './format.js';
import { BARE, PRODUCTION } from '../model/stacks.js';
import { estimateWords } from './tables.js';
import { ratioIn, targetRowIn } from '../analysis/block-rows.js';

/** @typedef {import('./rich-table.js').Table} Table */
/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */
/** @typedef {import('../analysis/analyze.js').RatioRow} RatioRow */

/** @param {RatioRow | undefined} row */
const ratioCell = (row) =>
  row ? `${formatRatio(row.summary.median)} (${formatInterval(row.summary.ci, formatRatio)})` : DASH;

/**
 * Per route: the judged ratio on the bare stack and on the production stack, and how much of each adapter's req/s
 * the production stack keeps. Empty unless both stacks were measured.
 * @param {Analysis} analysis
 * @returns {Table}
 */
export function stackComparisonTable(analysis) {
  const judged = (/** @type {string} */ runtime, /** @type {string} */ scenario, /** @type {string} */ stack) =>
    ratioIn(analysis, { runtime, scenario, stack }, { judged: true });
  const rps = (
    /** @type {string} */ runtime,
    /** @type {string} */ scenario,
    /** @type {string} */ stack,
    /** @type {string} */ target,
  ) => targetRowIn(analysis, { runtime, scenario, stack }, target)?.rps.median ?? NaN;
  const rows = [];
  if (analysis.stacks.includes(BARE) && analysis.stacks.includes(PRODUCTION)) {
    for (const runtime of analysis.runtimes) {
      for (const scenario of analysis.scenarios) {
        const bare = judged(runtime, scenario, BARE);
        const production = judged(runtime, scenario, PRODUCTION);
        const spec = bare ?? production;
        if (!spec) continue;
        const { numerator, denominator } = spec;
        const kept = (/** @type {string} */ target) =>
          formatPercent(rps(runtime, scenario, PRODUCTION, target) / rps(runtime, scenario, BARE, target));
        rows.push([
          analysis.runtimeLabels[runtime],
          scenario,
          ratioCell(bare),
          ratioCell(production),
          bare && production ? formatPercent(production.summary.median / bare.summary.median) : DASH,
          kept(denominator),
          kept(numerator),
        ]);
      }
    }
  }
  return {
    title: 'Bare app vs production stack: how much of the lead survives',
    intro:
      'Nest-Fastify ÷ Nest-Express per route on the bare app (as nest new makes it) and with the production stack ' +
      '(helmet, CORS, gzip from 1 KiB with clients sending Accept-Encoding: gzip, a JSON request log to a file, ' +
      `request ids, class-transformer serialization): ${estimateWords(analysis)} (95 % CI). "Lead kept": production ` +
      "ratio ÷ bare ratio. The last two columns: each adapter's req/s with the production stack as a share of its " +
      'bare req/s (medians).',
    headers: [
      'runtime',
      'scenario',
      'bare: Fastify ÷ Express',
      'production: Fastify ÷ Express',
      'lead kept',
      'Express keeps',
      'Fastify keeps',
    ],
    align: ['left', 'left', 'right', 'right', 'right', 'right', 'right'],
    rows,
  };
}

/**
 * --ablate: each part of the production stack as a share of a request's server CPU, per adapter.
 * @param {Analysis} analysis
 * @returns {Table}
 */
export function ablationTable(analysis) {
  const { targets, parts } = analysis.ablation;
  const rows = parts.map(({ runtime, scenario, part, byTarget }) => [
    analysis.runtimeLabels[runtime],
    scenario,
    part,
    ...byTarget.map((row) =>
      row
        ? `${formatPercent(row.costShare, 1)} (${formatInterval(row.costInterval, (v) => formatPercent(v, 1))}) of ${formatNumber(row.productionCpuUs, 1)} µs`
        : DASH,
    ),
  ]);
  return {
    title: 'What each part of the production stack costs (--ablate)',
    intro:
      'Server CPU per request with the whole production stack against the same stack without one part, in the same ' +
      'rounds: 1 − (CPU µs/req without it ÷ CPU µs/req with it), median over the rounds (95 % CI), "of" the whole ' +
      "stack's median CPU µs/req. Server CPU counts all the server's threads (zlib's gzip runs on libuv's thread " +
      'pool); a negative share is noise around a part that costs nothing here.',
    headers: ['runtime', 'scenario', 'part left out', ...targets],
    align: ['left', 'left', 'left', ...targets.map(() => /** @type {const} */ ('right'))],
    rows,
  };
}

/**
 * What each mix run sent per route, against the shares the mix was defined with.
 * @param {Analysis} analysis
 * @returns {Table}
 */
export function mixTable(analysis) {
  const rows = analysis.mixes.map((mix) => {
    const { shares } = mix;
    const total = shares.reduce((sum, share) => sum + share.weight, 0);
    return [
      analysis.runtimeLabels[mix.runtime],
      `${mix.scenario} · ${mix.stack}`,
      mix.target,
      shares
        .map(
          (share) =>
            `${share.route} ${formatPercent(share.weight / total)} → ${formatPercent((mix.sentByRoute[share.route] ?? 0) / mix.sent, 1)}`,
        )
        .join(', '),
      formatNumber(mix.sent),
      formatNumber(mix.answered),
    ];
  });
  return {
    title: 'Traffic mix: requests per route',
    intro:
      'Each mix run goes round one fixed, interleaved cycle of the routes in the shares defined (weight → share of the ' +
      "requests sent over all rounds). Sent counts what the generator wrote, answered the responses with the route's " +
      'expected status; the difference is what was still in flight when runs ended.',
    headers: ['runtime', 'mix · stack', 'target', 'defined → sent', 'sent', 'answered'],
    align: ['left', 'left', 'left', 'left', 'right', 'right'],
    rows,
  };
}
