// @ts-check
// The answer at a glance: every judged row's ratio with its interval against the claim's bands, on a log axis, under
// a one-sentence decision. It opens report.html and is written beside report.md as answer.svg.
import { escapeHtml, formatLevel, formatPercent } from './format.js';
import { formatBandedRatio } from './ratio-notes.js';
import {
  BAND_EDGES,
  isBorderline,
  marginOf,
  DECIDED_VERDICTS,
  HOLDS_MAX,
  HOLDS_MIN,
  borderlineAt,
} from '../analysis/verdict.js';
import { CONFIDENCE } from '../analysis/stats.js';
import { CPU_PER_REQUEST, metricSuffix } from '../model/metrics.js';

/** @typedef {import('../analysis/analyze.js').Analysis} Analysis */
/** @typedef {import('../analysis/analyze.js').RatioRow} RatioRow */

/** The picture's file beside report.md. */
export const ANSWER_SVG_FILE = 'answer.svg';

/** The claim's three bands, left to right on the axis. */
const BANDS = [
  { name: 'does not hold', range: `below ${HOLDS_MIN}×`, fill: '#f7e4e1', ink: '#a23b2a' },
  { name: 'holds', range: `${HOLDS_MIN}–${HOLDS_MAX}×`, fill: '#e1f0e1', ink: '#2e7d32' },
  { name: 'understated', range: `above ${HOLDS_MAX}×`, fill: '#e2ebf6', ink: '#2f5f9e' },
];
const UNDECIDED_INK = '#666';
/** A borderline row is decided, but in no band: its own ink, and the strips where it lies drawn over the edges. */
const BORDERLINE_INK = '#8a5a00';
const BORDERLINE_FILL = '#f3e2b8';
/** The axis always shows parity and both band edges with room beside them; rows outside widen it. */
const AXIS_MIN = 0.5;
const AXIS_MAX = 4;
/** Ratios beyond these are drawn at the edge: a wider axis would squeeze every other row. */
const AXIS_LIMITS = [0.1, 20];
/** Tick values, the ones a reader needs most first: a tick too close to one before it is left out. */
const TICKS = [1, HOLDS_MIN, HOLDS_MAX, 2, 0.5, 4, 0.25, 10, 0.1, 20, 0.75, 3, 5, 0.2];
/** Room a tick's label needs from its neighbours, in characters of the chart's font. */
const TICK_GAP_CHARS = 4.5;

/**
 * The two shapes of the picture: wide, labels left of each row, for a laptop's page and answer.svg; narrow, each
 * label on its own line above its row, for a phone, where a wide one scaled down would leave its text unreadable.
 * @typedef {'wide' | 'narrow'} Layout
 */
const LAYOUTS = {
  wide: { width: 880, answerWidth: 160, rowHeight: 26, fontSize: 13 },
  narrow: { width: 380, answerWidth: 0, rowHeight: 40, fontSize: 13 },
};
/** Roughly how wide the chart's font writes one character, as a share of its size (bold a little wider). */
const CHAR_EM = 0.56;
/** A wide label column holds at least and at most this many characters. */
const LABEL_CHARS = { min: 14, max: 44 };
const HEADING_HEIGHT = 24;
/** The extra line a narrow row takes when its answer does not fit beside its label. */
const LINE_HEIGHT = 16;
/** Room on either side for the first and last ticks' labels. */
const SIDE = 18;
const TOP = 44;
const BOTTOM = 78;

/**
 * A row of the picture: what it is, its ratio and interval, and its verdict.
 * @typedef {object} AnswerRow
 * @property {string} runtime
 * @property {string} label `hello · bare`, or `hello` when the run measured one stack, with its metric when it is not
 *   req/s: `idle-1k · bare (CPU per request)`
 * @property {import('../model/metrics.js').Metric} metric what the ratio divides
 * @property {string} name the label, with the runtime first when the run measured several
 * @property {number | null} ratio null: too slow to answer within a run, so no ratio
 * @property {{ low: number, high: number } | null} interval
 * @property {number} level the interval's coverage
 * @property {string} verdict
 * @property {boolean} decided
 * @property {string} [reason] why a row without a ratio has none (default: too slow to measure)
 */

/**
 * The judged rows in the report's order.
 * @param {Analysis} analysis
 * @returns {AnswerRow[]}
 */
export function answerRows(analysis) {
  const several = analysis.runtimes.length > 1;
  return analysis.ratios
    .filter((row) => row.judged)
    .map((row) => {
      const measured = row.verdict !== 'too slow' && Number.isFinite(row.summary.median);
      const label =
        [row.scenario, ...(analysis.stacks.length > 1 ? [row.stack] : [])].join(' · ') + metricSuffix(row.metric);
      return {
        runtime: row.runtime,
        label,
        metric: row.metric,
        name: several ? `${row.runtime} · ${label}` : label,
        ratio: measured ? row.summary.median : null,
        interval: measured ? row.summary.ci : null,
        level: row.starts?.interval?.coverage ?? CONFIDENCE,
        verdict: row.verdict ?? 'inconclusive',
        decided: DECIDED_VERDICTS.includes(row.verdict ?? ''),
      };
    });
}

/** A sentence names this many rows of a verdict; more are counted. */
const ROWS_NAMED = 3;

/**
 * @param {string[]} labels the rows of one verdict
 * @param {number} total rows in all
 * @param {boolean} rest these are the rows the sentence has not named yet
 */
function rowsNamed(labels, total, rest) {
  if (labels.length === total && total > 1) return `all ${total} rows`;
  if (labels.length <= ROWS_NAMED) return labels.join(', ');
  return `${rest ? 'the other ' : ''}${labels.length} rows`;
}

/**
 * --baseline: the candidate ÷ base ratio of each row, with its interval where the rows decided one.
 * @param {AnswerRow[]} rows
 */
function buildsSentence(rows) {
  const each = rows.map(
    ({ name, ratio, interval }) =>
      `${name} ${ratio === null ? 'could not be measured' : formatBandedRatio(ratio)}${
        interval ? ` (${formatBandedRatio(interval.low)}–${formatBandedRatio(interval.high)})` : ''
      }`,
  );
  return `Is the candidate build slower than the base? Candidate ÷ base: ${each.join(', ')}.`;
}

/**
 * The decision in one sentence: which rows the claim holds on, which it does not, which are open.
 * @param {Analysis} analysis
 */
export function answerSentence(analysis) {
  const rows = answerRows(analysis);
  const names = analysis.compared.builtIn
    ? { numerator: 'Nest on Fastify', denominator: 'than on Express' }
    : { numerator: analysis.compared.numerator, denominator: `than ${analysis.compared.denominator}` };
  if (rows.length === 0)
    return `No ${analysis.compared.numerator} / ${analysis.compared.denominator} pair was measured.`;
  if (analysis.compared.builds) return buildsSentence(rows);
  const labelsOf = (/** @type {(row: AnswerRow) => boolean} */ test) => rows.filter(test).map((row) => row.name);
  /** @type {Array<[string, string[]]>} */
  const groups = [
    ['holds for', labelsOf((row) => row.verdict === 'holds')],
    [`is understated (above ${HOLDS_MAX}×) for`, labelsOf((row) => row.verdict === 'understated')],
    ['does not hold for', labelsOf((row) => row.verdict === 'does not hold')],
    ...BAND_EDGES.map(
      (edge) =>
        /** @type {[string, string[]]} */ ([
          `is borderline at ${edge}× (within ±${formatPercent(marginOf(analysis.stopRule))}) for`,
          labelsOf((row) => row.verdict === borderlineAt(edge)),
        ]),
    ),
    ['is not decided for', labelsOf((row) => !row.decided && row.ratio !== null)],
    ['could not be measured (too slow) for', labelsOf((row) => row.ratio === null)],
  ];
  const parts = groups
    .filter(([, labels]) => labels.length > 0)
    .map(([words, labels], i, all) => `${words} ${rowsNamed(labels, rows.length, i > 0 && i === all.length - 1)}`);
  const listed = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0];
  return `Is ${names.numerator} "almost two times" faster ${names.denominator}? The claim ${listed}.`;
}

/**
 * Where a ratio stands on the axis: the axis spans parity, both band edges and every row's interval, within limits.
 * @param {AnswerRow[]} rows @param {number} left @param {number} width
 */
function logAxis(rows, left, width) {
  const values = rows.flatMap((row) => [row.ratio, row.interval?.low, row.interval?.high]);
  const finite = /** @type {number[]} */ (values.filter((v) => typeof v === 'number' && Number.isFinite(v) && v > 0));
  const [lowest, highest] = AXIS_LIMITS;
  const min = Math.max(lowest, Math.min(AXIS_MIN, ...finite.map((v) => v / 1.15)));
  const max = Math.min(highest, Math.max(AXIS_MAX, ...finite.map((v) => v * 1.15)));
  const at = (/** @type {number} */ v) =>
    left + ((Math.log(Math.min(max, Math.max(min, v))) - Math.log(min)) / (Math.log(max) - Math.log(min))) * width;
  return { min, max, at };
}

/** @param {number} v */
const tickText = (v) => `${v}×`;

/**
 * The ticks that fit: in TICKS' order, each kept when it stands far enough from those kept before it.
 * @param {ReturnType<typeof logAxis>} axis @param {number} gap pixels between two ticks' centres
 */
function spacedTicks(axis, gap) {
  /** @type {number[]} */
  const kept = [];
  for (const v of TICKS)
    if (v >= axis.min && v <= axis.max && kept.every((k) => Math.abs(axis.at(k) - axis.at(v)) >= gap)) kept.push(v);
  return kept;
}

/**
 * One row's whisker and dot: filled when its verdict is decided, hollow when it is not; a whisker's open end runs
 * to the axis's edge with an arrow.
 * @param {AnswerRow} row @param {ReturnType<typeof logAxis>} axis @param {number} cy
 */
function rowMarks(row, axis, cy) {
  if (row.ratio === null) return '';
  const ink = answerInk(row);
  const title = `<title>${escapeHtml(
    `${row.name}: ${formatBandedRatio(row.ratio)}` +
      (row.interval
        ? ` (${formatBandedRatio(row.interval.low)} – ${formatBandedRatio(row.interval.high)}, ${formatLevel(row.level)} interval)`
        : '') +
      `, ${row.verdict}`,
  )}</title>`;
  const whisker = row.interval
    ? `<line x1="${axis.at(row.interval.low)}" x2="${axis.at(row.interval.high)}" y1="${cy}" y2="${cy}" stroke="${ink}" stroke-width="2.5"/>` +
      [row.interval.low < axis.min && axis.at(axis.min), row.interval.high > axis.max && axis.at(axis.max)]
        .filter((x) => typeof x === 'number')
        .map((x) => {
          const tip = /** @type {number} */ (x);
          const back = tip === axis.at(axis.min) ? 6 : -6;
          return `<path d="M${tip},${cy} l${back},-4 v8 z" fill="${ink}"/>`;
        })
        .join('')
    : '';
  const dot = row.decided
    ? `<circle cx="${axis.at(row.ratio)}" cy="${cy}" r="5.5" fill="${ink}">${title}</circle>`
    : `<circle cx="${axis.at(row.ratio)}" cy="${cy}" r="5" fill="#fff" stroke="${ink}" stroke-width="2">${title}</circle>`;
  return whisker + dot;
}

/** A row's answer in words: `1.83× holds`. @param {AnswerRow} row */
function answerText(row) {
  return row.ratio === null ? (row.reason ?? 'too slow to measure') : `${formatBandedRatio(row.ratio)} ${row.verdict}`;
}

/** @param {AnswerRow} row */
function answerInk(row) {
  if (!row.decided) return UNDECIDED_INK;
  if (isBorderline(row.verdict)) return BORDERLINE_INK;
  return BANDS.find((b) => b.name === row.verdict)?.ink ?? UNDECIDED_INK;
}

/**
 * The key under the axis: what a filled and a hollow dot mean (and borderline's, when some row is), then what the axis
 * and the whiskers are.
 * @param {AnswerRow[]} rows @param {Analysis} analysis @param {number} left @param {number} bottom the plot's
 */
function chartKey(rows, analysis, left, bottom) {
  return (
    `<circle cx="${left + 5}" cy="${bottom + 37}" r="5" fill="#444"/><text x="${left + 14}" y="${bottom + 41}" fill="#444">decided</text>` +
    `<circle cx="${left + 84}" cy="${bottom + 37}" r="4.5" fill="#fff" stroke="${UNDECIDED_INK}" stroke-width="2"/>` +
    `<text x="${left + 93}" y="${bottom + 41}" fill="#444">not decided</text>` +
    borderlineKey(rows, marginOf(analysis.stopRule), left + 190, bottom + 41) +
    axisWords(rows, analysis)
      .map((line, i) => `<text x="${left}" y="${bottom + 57 + i * 16}" fill="#444">${escapeHtml(line)}</text>`)
      .join('')
  );
}

/**
 * Where a row would be borderline, drawn only when some row is: a strip the run's margin either side of each edge.
 * @param {AnswerRow[]} rows @param {number} margin the run's (marginOf) @param {ReturnType<typeof logAxis>} axis
 * @param {number} bottom
 */
function borderlineStrips(rows, margin, axis, bottom) {
  if (!rows.some((row) => isBorderline(row.verdict))) return '';
  return BAND_EDGES.filter((edge) => edge > axis.min && edge < axis.max)
    .map((edge) => {
      const [from, to] = [axis.at(edge / (1 + margin)), axis.at(edge * (1 + margin))];
      return `<rect x="${from}" y="${TOP}" width="${to - from}" height="${bottom - TOP}" fill="${BORDERLINE_FILL}" opacity="0.8"/>`;
    })
    .join('');
}

/**
 * The key's entry for borderline rows, only when some row is.
 * @param {AnswerRow[]} rows @param {number} margin the run's (marginOf) @param {number} x
 * @param {number} y the key line's baseline
 */
function borderlineKey(rows, margin, x, y) {
  if (!rows.some((row) => isBorderline(row.verdict))) return '';
  return (
    `<rect x="${x}" y="${y - 10}" width="12" height="12" fill="${BORDERLINE_FILL}"/>` +
    `<circle cx="${x + 6}" cy="${y - 4}" r="4.5" fill="${BORDERLINE_INK}"/>` +
    `<text x="${x + 17}" y="${y}" fill="#444">borderline: the interval within ±${formatPercent(margin)} of an edge</text>`
  );
}

/**
 * The picture as an SVG, or '' when no row was judged; other rows on the same axis and bands (lead-chart.js) give
 * their own rows and the sentence that describes them.
 * @param {Analysis} analysis
 * @param {Layout} [layout]
 * @param {{ rows?: AnswerRow[], sentence?: string }} [drawn]
 */
export function answerChart(analysis, layout = 'wide', { rows = answerRows(analysis), sentence } = {}) {
  if (rows.length === 0) return '';
  const { width, fontSize } = LAYOUTS[layout];
  const charWidth = fontSize * CHAR_EM;
  const answerWidth = answerColumn(rows, layout, charWidth);
  const labelChars = Math.min(LABEL_CHARS.max, Math.max(LABEL_CHARS.min, ...rows.map((row) => row.label.length)));
  const left = SIDE + (layout === 'wide' ? labelChars * charWidth + 12 : 0);
  const plotW = width - left - answerWidth - SIDE;
  const axis = logAxis(rows, left, plotW);
  const placed = placeRows(rows, layout, { plotW, charWidth }, analysis.runtimes.length > 1);
  const bottom = TOP + placed.height;
  const height = bottom + BOTTOM;
  const edges = [axis.min, HOLDS_MIN, HOLDS_MAX, axis.max];
  const labelAt = bandLabelCentres(
    BANDS.map((band, i) => ({
      middle: (axis.at(edges[i]) + axis.at(edges[i + 1])) / 2,
      width: Math.max(band.name.length * BOLD_EM, band.range.length) * charWidth,
    })),
    { left: SIDE, right: width - SIDE },
  );
  const bands = BANDS.map((band, i) => {
    const [from, to] = [axis.at(edges[i]), axis.at(edges[i + 1])];
    const middle = labelAt[i];
    return (
      `<rect x="${from}" y="${TOP}" width="${to - from}" height="${bottom - TOP}" fill="${band.fill}"/>` +
      `<text x="${middle}" y="${TOP - 22}" text-anchor="middle" font-weight="bold" fill="${band.ink}">${escapeHtml(band.name)}</text>` +
      `<text x="${middle}" y="${TOP - 7}" text-anchor="middle" fill="${band.ink}">${escapeHtml(band.range)}</text>`
    );
  }).join('');
  const strips = borderlineStrips(rows, marginOf(analysis.stopRule), axis, bottom);
  const ticks = spacedTicks(axis, charWidth * TICK_GAP_CHARS)
    .map((v) => {
      const x = axis.at(v);
      const parity = v === 1;
      return (
        `<line x1="${x}" x2="${x}" y1="${TOP}" y2="${bottom}" stroke="${parity ? '#777' : '#fff'}"${parity ? ' stroke-dasharray="4 3"' : ''}/>` +
        `<text x="${x}" y="${bottom + 16}" text-anchor="middle" fill="#444">${tickText(v)}</text>`
      );
    })
    .join('');
  const headings = placed.headings
    .map(
      ({ runtime, y }) =>
        `<text x="${SIDE}" y="${TOP + y + 17}" font-weight="bold" fill="#222">${escapeHtml(analysis.runtimeLabels[runtime] ?? runtime)}</text>`,
    )
    .join('');
  const body = placed.rows
    .map(({ row, y, split }) => {
      const y0 = TOP + y;
      const ink = answerInk(row);
      const weight = row.decided ? ' font-weight="bold"' : '';
      const answer = escapeHtml(answerText(row));
      if (layout === 'narrow') {
        const cy = y0 + LAYOUTS.narrow.rowHeight - 11 + (split ? LINE_HEIGHT : 0);
        return (
          `<text x="${left}" y="${y0 + 15}" fill="#222">${escapeHtml(row.label)}</text>` +
          `<text x="${left + plotW}" y="${y0 + 15 + (split ? LINE_HEIGHT : 0)}" text-anchor="end" fill="${ink}"${weight}>${answer}</text>` +
          rowMarks(row, axis, cy)
        );
      }
      const cy = y0 + LAYOUTS.wide.rowHeight / 2;
      return (
        `<text x="${left - 10}" y="${cy + 4}" text-anchor="end" fill="#222">${escapeHtml(row.label)}</text>` +
        rowMarks(row, axis, cy) +
        `<text x="${left + plotW + 10}" y="${cy + 4}" fill="${ink}"${weight}>${answer}</text>`
      );
    })
    .join('');
  const key = chartKey(rows, analysis, left, bottom);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="${layout}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ` +
    `font-family="system-ui, sans-serif" font-size="${fontSize}" role="img" aria-label="${escapeHtml(sentence ?? answerSentence(analysis))}">` +
    `<rect width="${width}" height="${height}" fill="#fff"/>${bands}${strips}${ticks}${headings}${body}${key}</svg>`
  );
}

/**
 * The wide layout's column for each row's answer in words: its set width, wider where a borderline row's answer,
 * which names its edge, would not fit in it.
 * @param {AnswerRow[]} rows @param {Layout} layout @param {number} charWidth
 */
function answerColumn(rows, layout, charWidth) {
  const { answerWidth } = LAYOUTS[layout];
  if (layout === 'narrow') return answerWidth;
  const borderline = rows.filter((row) => isBorderline(row.verdict));
  const longest = Math.max(0, ...borderline.map((row) => answerText(row).length));
  return Math.max(answerWidth, Math.ceil(longest * charWidth * BOLD_EM) + 10);
}

/** A bold character is about this much wider than a regular one. */
const BOLD_EM = 1.1;
/** Room between two band labels, in pixels. */
const BAND_LABEL_GAP = 8;

/**
 * Each band's label centred over its band, unless that would run it into its neighbour (a narrow band on a wide axis,
 * or a phone's width): then the labels are pushed apart, left to right, and back from the right edge.
 * @param {Array<{ middle: number, width: number }>} labels in the bands' order
 * @param {{ left: number, right: number }} room
 * @returns {number[]} each label's centre
 */
export function bandLabelCentres(labels, { left, right }) {
  const centres = labels.map(({ middle }) => middle);
  labels.forEach(({ width }, i) => {
    const floor = i === 0 ? left + width / 2 : centres[i - 1] + (labels[i - 1].width + width) / 2 + BAND_LABEL_GAP;
    centres[i] = Math.max(centres[i], floor);
  });
  for (let i = labels.length - 1; i >= 0; i--) {
    const ceiling =
      i === labels.length - 1
        ? right - labels[i].width / 2
        : centres[i + 1] - (labels[i + 1].width + labels[i].width) / 2 - BAND_LABEL_GAP;
    centres[i] = Math.min(centres[i], ceiling);
  }
  return centres;
}

/**
 * Where each row and runtime heading stands, from the plot's top: a heading above each runtime's rows when there are
 * several; a narrow row whose answer would run into its label puts the answer on a line of its own.
 * @param {AnswerRow[]} rows @param {Layout} layout
 * @param {{ plotW: number, charWidth: number }} room @param {boolean} headed
 */
function placeRows(rows, layout, { plotW, charWidth }, headed) {
  const { rowHeight } = LAYOUTS[layout];
  let y = 0;
  /** @type {{ runtime: string, y: number }[]} */
  const headings = [];
  const placed = rows.map((row, i) => {
    if (headed && row.runtime !== rows[i - 1]?.runtime) {
      headings.push({ runtime: row.runtime, y });
      y += HEADING_HEIGHT;
    }
    const split = layout === 'narrow' && (row.label.length + answerText(row).length * 1.1 + 2) * charWidth > plotW;
    const at = { row, y, split };
    y += rowHeight + (split ? LINE_HEIGHT : 0);
    return at;
  });
  return { rows: placed, headings, height: y };
}

/**
 * What the axis and the whiskers are, in two lines under the key.
 * @param {AnswerRow[]} rows @param {Analysis} analysis
 */
function axisWords(rows, analysis) {
  const { numerator, denominator } = analysis.compared.builtIn
    ? { numerator: 'Fastify', denominator: 'Express' }
    : analysis.compared;
  const levels = [...new Set(rows.filter((row) => row.interval).map((row) => formatLevel(row.level)))];
  const cpu = rows.some((row) => row.metric === CPU_PER_REQUEST);
  return [
    `${numerator} ÷ ${denominator} req/s${cpu ? ` (CPU per request: ${denominator}'s ÷ ${numerator}'s)` : ''}, log scale;`,
    `line: the ratio's ${levels.length ? levels.join(' or ') : formatLevel(CONFIDENCE)} interval`,
  ];
}
