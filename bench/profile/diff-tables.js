// @ts-check
/**
 * A differential profile as tables — by layer, by group, the functions that changed most — for the .diff.md file,
 * the terminal and the bench report.
 */
import { DASH, formatPercent } from '../report/format.js';
import { code, markdownTable, markdownText } from '../report/rich-table.js';
import { GROUPS } from './groups.js';
import { LAYERS } from './layers.js';

/** @typedef {import('./diff.js').DiffSummary} ProfileDiff */
/** @typedef {import('./diff.js').DiffRow} DiffRow */
/** @typedef {import('./diff.js').DiffSide} DiffSide */
/** @typedef {import('../report/rich-table.js').Table} Table */
/** @typedef {import('../report/rich-table.js').Text} Text */

const FUNCTION_NAME_CHARS = 90;
const PRESENCE_NOTE = { both: '', added: ' (new)', removed: ' (gone)' };

/** @param {number} share */
const pct = (share) => formatPercent(share, 1);
/** @param {number | null} us */
const micros = (us) => (us === null ? DASH : us.toFixed(1));
/** @param {number} value @param {(v: number) => string} format */
const signed = (value, format) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${format(Math.abs(value))}`;
/** @param {number} share */
const points = (share) => `${(share * 100).toFixed(1)} pts`;

/** @param {DiffSide} side */
export function describeSide(side) {
  const v8 = side.v8Version ? `V8 ${side.v8Version}` : 'V8 version unknown';
  const cpu =
    side.cpuUsPerRequest === null
      ? 'CPU per request not measured'
      : `${side.cpuUsPerRequest.toFixed(1)} µs CPU per request (median of the timed runs)`;
  return `${side.runtime} (${v8}): ${side.busyTicks} busy ticks, ${cpu}`;
}

/** @param {ProfileDiff} diff */
export function diffTitle(diff) {
  // two profiles of different names already carry them in their labels
  const sameName = !diff.name.includes(' → ');
  return `${sameName ? `${diff.name}: ` : ''}${diff.older.label} → ${diff.newer.label}`;
}

/** @param {ProfileDiff} diff @returns {string[]} */
export function diffFacts(diff) {
  const lines = [`older: ${describeSide(diff.older)}`, `newer: ${describeSide(diff.newer)}`];
  const { older, newer } = diff;
  if (older.cpuUsPerRequest !== null && newer.cpuUsPerRequest !== null)
    lines.push(
      `CPU per request ${older.cpuUsPerRequest.toFixed(1)} → ${newer.cpuUsPerRequest.toFixed(1)} µs (${signed(newer.cpuUsPerRequest / older.cpuUsPerRequest - 1, (v) => formatPercent(v, 0))})`,
    );
  const busy = [older, newer]
    .map((s) =>
      s.loadAverage === null
        ? null
        : `${s.label}: machine load ${s.loadAverage.toFixed(1)}, other servers ${formatPercent(s.neighbourCpuShare ?? 0, 0)} of a core`,
    )
    .filter((line) => line !== null);
  if (busy.length) lines.push(`while profiled — ${busy.join('; ')}`);
  return lines;
}

/**
 * @param {DiffRow[]} rows @param {ProfileDiff} diff @param {(row: DiffRow) => Text} label
 * @param {string} what the first column's header
 * @returns {Table}
 */
function changeTable(rows, diff, label, what) {
  const a = diff.older.label;
  const b = diff.newer.label;
  return {
    headers: [what, `${a} share`, `${b} share`, 'Δ share', `${a} µs/req`, `${b} µs/req`, 'Δ µs/req'],
    align: ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
    rows: rows.map((row) => [
      label(row),
      pct(row.older.share),
      pct(row.newer.share),
      signed(row.deltaShare, points),
      micros(row.older.us),
      micros(row.newer.us),
      row.deltaUs === null ? DASH : signed(row.deltaUs, (v) => v.toFixed(1)),
    ]),
  };
}

/** @param {string} name */
const shorten = (name) => (name.length > FUNCTION_NAME_CHARS ? `${name.slice(0, FUNCTION_NAME_CHARS - 1)}…` : name);

/**
 * @param {ProfileDiff} diff
 * @returns {Table[]} by layer, by group, then the functions that changed most
 */
export function diffTables(diff) {
  const layerColor = new Map(LAYERS.map((l) => [/** @type {string} */ (l.id), l.color]));
  const groupColor = new Map(GROUPS.map((g) => [/** @type {string} */ (g.id), g.color]));
  return [
    {
      ...changeTable(diff.layers, diff, (row) => ({ text: row.label, swatch: layerColor.get(row.key) }), 'layer'),
      intro: 'By layer (self time, shares of the busy ticks; µs/req = the timed runs’ median CPU per request × share):',
    },
    {
      ...changeTable(diff.groups, diff, (row) => ({ text: row.label, swatch: groupColor.get(row.key) }), 'group'),
      intro: 'By group, self time, largest change first:',
    },
    {
      ...changeTable(
        diff.functions,
        diff,
        (row) => [code(shorten(row.label)), ` (${row.group})${PRESENCE_NOTE[row.presence]}`],
        'function',
      ),
      intro: `The ${diff.functions.length} functions (of ${diff.functionsCompared}) whose self time changed most; JavaScript functions matched by name and script, positions dropped:`,
    },
  ];
}

/**
 * @param {ProfileDiff} diff @param {{ flameGraph?: string }} [links] flameGraph: the differential flame graph's path
 * @returns {string} a Markdown section
 */
export function renderDiffMarkdown(diff, { flameGraph } = {}) {
  const out = [`## ${diffTitle(diff)}`, '', ...diffFacts(diff).map((line) => `- ${line}`)];
  if (flameGraph) out.push(`- differential flame graph: ${markdownText({ text: flameGraph, href: flameGraph })}`);
  out.push('');
  for (const table of diffTables(diff)) out.push(markdownTable(table));
  return out.join('\n');
}
