// @ts-check
// The answer before the method: a few plain sentences that open every report (terminal, report.md, report.html). Per
// runtime, how much faster the compared pair served each route and which verdicts are decided; for --nest-app, what a
// switch breaks; cold start and memory when measured; and where the evidence is.
import { KIND_WORDS } from '../model/finding-kinds.js';
import { formatInterval, formatNumber } from './format.js';
import { formatBandedRatio } from './ratio-notes.js';
import { scenarioLabel } from './tables.js';
import { code, strong } from './rich-table.js';
import { DECIDED_VERDICTS } from '../analysis/verdict.js';
import { CPU_PER_REQUEST, RATE } from '../model/metrics.js';

/** @typedef {import('./rich-table.js').Text} Text */

const DECIDED = new Set(DECIDED_VERDICTS);

/**
 * @param {import('../analysis/analyze.js').Analysis} analysis
 * @param {{ log?: boolean }} [options] log: only what the verdict table printed below it cannot say (a log's: the boot
 *   failures, refusals, cold starts and switching), without each runtime's ratios or where the evidence is
 * @returns {Text[]} one paragraph each
 */
export function decisionSentences(analysis, { log = false } = {}) {
  const names = analysis.compared.builtIn
    ? { numerator: 'Nest-Fastify', denominator: 'Nest-Express' }
    : analysis.compared;
  /** @type {Text[]} */
  const paragraphs = (log ? [] : analysis.byRuntime).flatMap(({ runtime, judged: rows }) => {
    if (rows.length === 0) return [];
    const served = rows.filter((r) => r.verdict !== 'too slow');
    const decided = served.filter((r) => DECIDED.has(r.verdict ?? ''));
    const tooSlow = rows.filter((r) => r.verdict === 'too slow');
    /** @type {(string | import('./rich-table.js').Span)[]} */
    const sentence = [
      strong(analysis.runtimeLabels[runtime] ?? runtime),
      ': ',
      ...servedSentences(served, analysis.stacks, names),
      decided.length
        ? `Decided: ${decided.map((r) => `${scenarioLabel(r, analysis.stacks)} ${r.verdict}`).join(', ')}`
        : 'No verdict is decided',
      served.length > decided.length
        ? `; ${served.length - decided.length} of ${served.length} ${served.length - decided.length === 1 ? 'is' : 'are'} inconclusive (more rounds or starts would decide ${served.length - decided.length === 1 ? 'it' : 'them'}).`
        : '.',
      ...(tooSlow.length
        ? [` Too slow to answer within a run: ${tooSlow.map((r) => scenarioLabel(r, analysis.stacks)).join(', ')}.`]
        : []),
    ];
    return [sentence];
  });
  if (paragraphs.length === 0 && !log)
    paragraphs.push(`No ${names.numerator} / ${names.denominator} pair was measured.`);
  paragraphs.unshift(...bootSentences(analysis.ownApp?.boot));
  for (const refusal of analysis.refusals ?? [])
    paragraphs.push([
      strong(`Refused, not measured: ${scenarioLabel(refusal, analysis.stacks)}`),
      ` on ${analysis.runtimeLabels[refusal.runtime] ?? refusal.runtime}: ${formatNumber(refusal.share * 100)} % of ${refusal.target}'s timed answers were ` +
        `${refusal.status ?? 'not its success status'}: ${refusal.cause}. Fix: ${refusal.fix}. It is not in the verdict.`,
    ]);
  for (const { runtime, rows } of analysis.startupByRuntime) {
    paragraphs.push([
      strong('Cold start'),
      ` on ${analysis.runtimeLabels[runtime] ?? runtime}: ` +
        rows
          .map(
            (r) =>
              `${r.target} ${formatNumber(r.readyMs.median)} ms to its first answer (${formatInterval(r.readyMs.ci, (v) => formatNumber(v))} ms, ${r.readyMs.n} starts), ` +
              `${r.bootRssMiB === null ? 'RSS not read' : `${formatNumber(r.bootRssMiB, 1)} MiB RSS after boot`}`,
          )
          .join('; ') +
        '.',
    ]);
  }
  const cost = analysis.switching;
  if (cost) {
    const total = cost.byKind.breaks + cost.byKind.differs + cost.byKind.plugin;
    // the table's first row, as What to change for Fastify leads with it
    const lead = cost.findings[0]?.shared ? cost.findings[0] : null;
    const answers = lead?.shared?.symptoms.filter((s) => s.source !== 'code') ?? [];
    const explained = new Set(answers.filter((s) => s.source === 'request').map((s) => s.route ?? s.request));
    const through = lead ? cost.brokenRoutes.filter((route) => explained.has(route)).length : 0;
    paragraphs.push([
      strong('Switching'),
      `: ${lead?.shared ? `first ${lead.where}, in a ${lead.shared.role} registered for ${formatNumber(lead.shared.routes)} routes at ${lead.shared.registered}: ${lead.onFastify}${answers.length ? `; it explains ${formatNumber(answers.length)} of the answers that differ` : ''}. ` : ''}` +
        `${cost.brokenRoutes.length ? `${cost.brokenRoutes.length} of your routes answer differently to their own request on Fastify (${cost.brokenRoutes.join(', ')})${through ? `, ${formatNumber(through)} of them only through ${lead?.where}` : ''}` : analysis.ownApp?.boot.adapter ? 'no route could be asked, as the app did not boot' : analysis.ownApp?.boot.signInRefused ? 'no route was asked, as the app refused the sign-in' : 'every route answers its own request alike on both adapters'}; ` +
        `${formatNumber(total)} findings in all (${formatNumber(cost.byKind.breaks)} ${KIND_WORDS.breaks}, ${formatNumber(cost.byKind.differs)} ${KIND_WORDS.differs}, ` +
        `${formatNumber(cost.byKind.plugin)} ${KIND_WORDS.plugin}), ${formatNumber(cost.places)} places to change: see What switching costs and What to change for Fastify.`,
    ]);
  }
  if (!log)
    paragraphs.push([
      'Evidence: the verdict table below (each ratio from paired rounds, with its interval), the tables after it, and ' +
        'results.json beside this report, from which ',
      code('npm run report -- DIR'),
      ' rebuilds every table. The method follows.',
    ]);
  return paragraphs;
}

/**
 * Each served row's ratio with its interval: the req/s rows' in one sentence, and a paced profile's, whose req/s is
 * its pace and whose ratio divides the denominator's CPU per request by the numerator's, in another.
 * @param {import('../analysis/analyze.js').RatioRow[]} served @param {string[]} stacks the run's
 * @param {{ numerator: string, denominator: string }} names
 * @returns {string[]}
 */
function servedSentences(served, stacks, { numerator, denominator }) {
  const ratios = (/** @type {typeof served} */ some) =>
    some
      .map(
        (r) =>
          `${scenarioLabel(r, stacks)} ${formatBandedRatio(r.summary.median)} (${formatInterval(r.summary.ci, formatBandedRatio)})`,
      )
      .join(', ');
  const byRate = served.filter((r) => r.metric === RATE);
  const byCpu = served.filter((r) => r.metric === CPU_PER_REQUEST);
  return [
    ...(byRate.length || !byCpu.length
      ? [`${numerator} served ${ratios(byRate)} as many req/s as ${denominator}. `]
      : []),
    ...(byCpu.length
      ? [`Paced, at the same req/s, ${denominator} used ${ratios(byCpu)} the CPU per request ${numerator} used. `]
      : []),
  ];
}

/** The end of a sentence: an app's error or a fix may close its own. */
const ENDS_SENTENCE = /[.!?]$/;

/**
 * What kept the app from booting comes first: on an adapter (the headline of a run that then compared nothing), and on
 * each runtime left out.
 * @param {import('../analysis/own-app-facts.js').BootFacts | undefined} boot
 * @returns {Text[]}
 */
function bootSentences(boot) {
  if (!boot) return [];
  const { signInRefused: refused, adapter: own, failures } = boot;
  if (refused) return [[strong('The app refused the sign-in'), `, so no route was checked or timed: ${refused}.`]];
  const adapterName = (/** @type {string} */ adapter) => `Nest-${adapter === 'fastify' ? 'Fastify' : 'Express'}`;
  const ends = boot.ends.map((all) => {
    const [end] = all;
    const restarted = all.every((e) => e.restarted);
    return [
      strong(`${adapterName(end.adapter)}'s process ended`),
      ' under ',
      code(end.request),
      `${end.probe ? ` (the ${end.probe} probe of ${end.scenario})` : ''}` +
        `${all.length > 1 ? ` (${all.map((e) => e.scenario).join(', ')})` : ''}, ` +
        `${end.signal ? `signal ${end.signal}` : `exit code ${end.code}`}: ${end.error}. ` +
        `${end.probe ? 'The route’s own request answered alike' : all.length > 1 ? 'These are not timed' : 'The route is not timed'}; ` +
        `${!restarted ? 'the server did not start again after the last' : all.length > 1 ? 'the server was started again after each' : 'the server was started again for the next route'}.`,
    ];
  });
  return [
    ...failures.map((failure) => [
      strong(
        failure === own
          ? `${adapterName(failure.adapter)} did not boot`
          : `The app does not boot on ${failure.runtime}`,
      ),
      `${failure === own ? ` on ${failure.runtime}` : ''}: ${failure.error}`,
      ...(failure.step
        ? [` (${failure.step}${failure.at ? ' at ' : ''}`, ...(failure.at ? [code(failure.at)] : []), ')']
        : []),
      // an error or a fix that ends its own sentence takes no second full stop
      `${!failure.step && ENDS_SENTENCE.test(failure.error) ? '' : '.'} Fix: ${failure.fix}${ENDS_SENTENCE.test(failure.fix) ? '' : '.'}`,
    ]),
    ...ends,
  ];
}
