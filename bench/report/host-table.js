// @ts-check
// "Where this host stands": the run's headline beside the committed reference hosts' (analysis/host-placing.js).
import { DASH, formatInterval } from './format.js';
import { formatBandedRatio } from './ratio-notes.js';
import { strong } from './rich-table.js';

/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */
/** @typedef {import('../analysis/host-placing.js').HostPlace} HostPlace */

/**
 * One sentence per runtime: this host's headline, and the span the committed hosts read.
 * @param {HostPlace} place @param {string} label the runtime's label
 */
function placeSentence({ host, headline, references }, label) {
  const ratios = references.map((entry) => entry.ratio);
  const [low, high] = [Math.min(...ratios), Math.max(...ratios)];
  const span = low === high ? formatBandedRatio(low) : `${formatBandedRatio(low)}–${formatBandedRatio(high)}`;
  const same = references.filter((entry) => entry.sameHost).map((entry) => entry.run);
  const where =
    headline.ratio < low ? 'below every one' : headline.ratio > high ? 'above every one' : 'within their span';
  const interval = headline.interval ? `${formatInterval(headline.interval, formatBandedRatio)}, ` : '';
  return (
    `${label}: this host, ${host}: ${formatBandedRatio(headline.ratio)} (${interval}${headline.verdict}); ` +
    `the committed ${references.length === 1 ? 'host reads' : 'hosts read'} ${span}, this host ${where}` +
    (same.length ? ` (${same.join(', ')} ran on this CPU)` : '') +
    '.'
  );
}

/**
 * The run's headline and the committed hosts' on the same runtime line.
 * @param {Analysis} analysis
 * @returns {import('./rich-table.js').Table}
 */
export function hostTable(analysis) {
  const placing = analysis.hostPlacing;
  const places = placing?.places ?? [];
  const label = (/** @type {string} */ runtime) => analysis.runtimeLabels[runtime] ?? runtime;
  return {
    title: 'Where this host stands',
    intro: [
      ...places.map((place) => `${placeSentence(place, label(place.runtime))} `),
      `The headline (${placing?.scenario} · ${placing?.stack}) moves with the CPU more than with anything the bench ` +
        'controls, so a number here is this host’s. The committed hosts are the reference runs of the built-in app ' +
        'made with the default design (results/reference/), each on the CPU it recorded, as indexed when this run started ' +
        '(bench/bin/reference-hosts.json).',
    ],
    headers: ['runtime', 'host (CPU identity)', 'Fastify ÷ Express', 'interval', 'verdict', 'run'],
    align: ['left', 'left', 'right', 'right', 'left', 'left'],
    rows: places.flatMap((place) => [
      [
        label(place.runtime),
        strong(`this host: ${place.host}`),
        formatBandedRatio(place.headline.ratio),
        formatInterval(place.headline.interval, formatBandedRatio),
        place.headline.verdict,
        'this run',
      ],
      ...place.references.map((entry) => [
        entry.runtime,
        entry.host,
        formatBandedRatio(entry.ratio),
        entry.interval ? formatInterval(entry.interval, formatBandedRatio) : DASH,
        entry.verdict,
        `${entry.run} (${entry.startedAt.slice(0, 10)})`,
      ]),
    ]),
  };
}
