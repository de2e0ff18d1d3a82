// @ts-check
// What every chart of report.html draws the same way: its font and colours, tick values, grid lines with labels,
// shaded bands and reference lines, and legends laid out to fit.
import { escapeHtml } from './format.js';

export const FONT = 'font-family="system-ui, sans-serif" font-size="11"';
export const AXIS_COLOR = '#888';
const GRID_COLOR = '#e5e5e5';

/**
 * Round tick values covering [0, max] (or [min, max] for log axes: powers of ten times 1, 2, 5).
 * @param {number} min @param {number} max @param {boolean} log
 */
export function ticks(min, max, log) {
  if (log) {
    const out = [];
    for (let decade = Math.floor(Math.log10(min)); decade <= Math.ceil(Math.log10(max)); decade++) {
      for (const m of [1, 2, 5]) {
        const v = m * 10 ** decade;
        if (v >= min && v <= max) out.push(v);
      }
    }
    return out;
  }
  const rough = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough || 1));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? rough;
  return Array.from({ length: Math.floor(max / step) + 1 }, (_, i) => i * step);
}

/** @param {number} v */
export function tickLabel(v) {
  if (v >= 1000) return `${Number((v / 1000).toPrecision(3))}k`;
  return String(Number(v.toPrecision(3)));
}

/**
 * Grid lines across the plot at each tick of one axis, each labelled beside that axis.
 * @param {'x' | 'y'} axis the axis the ticks belong to
 * @param {number[]} values tick values
 * @param {(v: number) => number} at a value's position along that axis
 * @param {{ from: number, to: number, labelAt: number }} across where each line starts and ends on the other axis, and
 *   where on it the labels stand
 * @param {(v: number) => string} [label] how a tick's value is written
 */
export function gridLines(axis, values, at, { from, to, labelAt }, label = tickLabel) {
  return values
    .map((t) => {
      const p = at(t);
      return axis === 'y'
        ? `<line x1="${from}" x2="${to}" y1="${p}" y2="${p}" stroke="${GRID_COLOR}"/>` +
            `<text x="${labelAt}" y="${p + 4}" text-anchor="end" fill="#555">${label(t)}</text>`
        : `<line x1="${p}" x2="${p}" y1="${from}" y2="${to}" stroke="${GRID_COLOR}"/>` +
            `<text x="${p}" y="${labelAt}" text-anchor="middle" fill="#555">${label(t)}</text>`;
    })
    .join('');
}

/**
 * Shaded bands between two values of one axis, labelled, and dashed reference lines at values of it, across the plot.
 * @param {'x' | 'y'} axis the axis the values belong to
 * @param {{ from: number, to: number, label: string, color: string }[]} bands
 * @param {number[]} refLines
 * @param {(v: number) => number} at a value's position along that axis
 * @param {{ from: number, to: number }} across where the plot starts and ends on the other axis
 */
export function bandsAndRefs(axis, bands, refLines, at, { from, to }) {
  const shaded = bands.map((b) => {
    const [low, high] = [at(b.from), at(b.to)].sort((p, q) => p - q);
    return axis === 'x'
      ? `<rect x="${low}" y="${from}" width="${high - low}" height="${to - from}" fill="${b.color}"/>` +
          `<text x="${(low + high) / 2}" y="${from - 6}" text-anchor="middle" fill="#555">${escapeHtml(b.label)}</text>`
      : `<rect x="${from}" y="${low}" width="${to - from}" height="${high - low}" fill="${b.color}"/>` +
          `<text x="${to - 4}" y="${low + 12}" text-anchor="end" fill="#555">${escapeHtml(b.label)}</text>`;
  });
  const refs = refLines.map((v) =>
    axis === 'x'
      ? `<line x1="${at(v)}" x2="${at(v)}" y1="${from}" y2="${to}" stroke="#999" stroke-dasharray="3 3"/>`
      : `<line x1="${from}" x2="${to}" y1="${at(v)}" y2="${at(v)}" stroke="#999" stroke-dasharray="3 3"/>`,
  );
  return { shaded: shaded.join(''), refs: refs.join('') };
}

/** Roughly how wide the chart font writes one character, for laying out a legend. */
const CHAR_WIDTH = 6.2;

/**
 * Where each series' legend entry stands: entries side by side, wrapped onto a new row where the next one would not fit.
 * @param {{ name: string }[]} series @param {number} width
 * @returns {{ x: number, row: number }[]}
 */
export function legendLayout(series, width) {
  let x = 0;
  let row = 0;
  return series.map(({ name }) => {
    const entry = 13 + name.length * CHAR_WIDTH + 18;
    if (x > 0 && x + entry > width) [x, row] = [0, row + 1];
    const place = { x, row };
    x += entry;
    return place;
  });
}

/**
 * A chart's margins and size when its bottom margin holds a two-column legend below the axis labels.
 * @param {{ width: number, plotH: number, entries: number }} chart
 * @param {{ top: number, right: number, bottom: number, left: number }} margin bottom: without the legend
 */
export function layoutWithLegend({ width, plotH, entries }, margin) {
  const withLegend = { ...margin, bottom: margin.bottom + Math.ceil(entries / 2) * 14 };
  return {
    margin: withLegend,
    height: withLegend.top + plotH + withLegend.bottom,
    plotW: width - withLegend.left - withLegend.right,
  };
}

/**
 * A legend of line samples with their names, two to a row.
 * @param {{ name: string, color: string, dashed?: boolean }[]} lines
 * @param {{ left: number, top: number, columnWidth: number }} place the first entry's text baseline and each column's width
 */
export function lineLegend(lines, { left, top, columnWidth }) {
  return lines
    .map((line, i) => {
      const lx = left + (i % 2) * columnWidth;
      const ly = top + Math.floor(i / 2) * 14;
      return (
        `<line x1="${lx}" x2="${lx + 22}" y1="${ly - 4}" y2="${ly - 4}" stroke="${line.color}" stroke-width="2"${line.dashed ? ' stroke-dasharray="6 4"' : ''}/>` +
        `<text x="${lx + 28}" y="${ly}">${escapeHtml(line.name)}</text>`
      );
    })
    .join('');
}
