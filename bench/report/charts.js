// @ts-check
// Inline SVG charts for report.html: no scripts, no network, readable when printed.
import { escapeHtml } from './format.js';
import {
  AXIS_COLOR,
  FONT,
  bandsAndRefs,
  gridLines,
  layoutWithLegend,
  legendLayout,
  lineLegend,
  tickLabel,
  ticks,
} from './chart-parts.js';

/**
 * @typedef {{ label: string, value: number, low?: number, high?: number, color: string }} Bar
 * @typedef {{ title: string, bars: Bar[] }} Panel
 */

/**
 * Small multiples: one bar chart per panel, each with its own y axis from zero, whiskers for intervals.
 * @param {{ panels: Panel[], yLabel: string }} chart
 */
export function barPanels({ panels, yLabel }) {
  const panelWidth = 230;
  const panelHeight = 206;
  const perRow = 4;
  const margin = { top: 22, right: 8, bottom: 64, left: 44 };
  const rowsCount = Math.ceil(panels.length / perRow);
  const width = Math.min(panels.length, perRow) * panelWidth;
  const height = rowsCount * panelHeight;
  const parts = panels
    .map((panel, index) => {
      const x0 = (index % perRow) * panelWidth;
      const y0 = Math.floor(index / perRow) * panelHeight;
      const plotW = panelWidth - margin.left - margin.right;
      const plotH = panelHeight - margin.top - margin.bottom;
      const finiteHighs = panel.bars.map((b) => (Number.isFinite(b.high) ? /** @type {number} */ (b.high) : 0));
      const max = Math.max(1, ...panel.bars.map((b, i) => Math.max(b.value || 0, finiteHighs[i]))) * 1.05;
      // an interval still open at one end (a budgeted one after few rounds) runs to the panel's edge
      const y = (/** @type {number} */ v) => margin.top + plotH - (Math.min(v, max) / max) * plotH;
      const slot = plotW / Math.max(1, panel.bars.length);
      const grid = gridLines('y', ticks(0, max, false), y, {
        from: margin.left,
        to: margin.left + plotW,
        labelAt: margin.left - 4,
      });
      const bars = panel.bars
        .map((bar, i) => {
          const cx = margin.left + slot * (i + 0.5);
          const w = slot * 0.7;
          const value = Number.isFinite(bar.value) ? bar.value : 0;
          const whisker =
            bar.low !== undefined && bar.high !== undefined
              ? `<line x1="${cx}" x2="${cx}" y1="${y(bar.low)}" y2="${y(bar.high)}" stroke="#222"/>` +
                `<line x1="${cx - 4}" x2="${cx + 4}" y1="${y(bar.low)}" y2="${y(bar.low)}" stroke="#222"/>` +
                `<line x1="${cx - 4}" x2="${cx + 4}" y1="${y(bar.high)}" y2="${y(bar.high)}" stroke="#222"/>`
              : '';
          return (
            `<rect x="${cx - w / 2}" y="${y(value)}" width="${w}" height="${y(0) - y(value)}" fill="${bar.color}"><title>${escapeHtml(`${bar.label}: ${Math.round(value)}`)}</title></rect>${whisker}` +
            `<text transform="translate(${cx + 3},${margin.top + plotH + 6}) rotate(40)" fill="#333">${escapeHtml(bar.label)}</text>`
          );
        })
        .join('');
      return (
        `<g transform="translate(${x0},${y0})"><text x="${margin.left}" y="14" font-weight="bold">${escapeHtml(panel.title)}</text>${grid}${bars}` +
        `<line x1="${margin.left}" x2="${margin.left + plotW}" y1="${y(0)}" y2="${y(0)}" stroke="${AXIS_COLOR}"/></g>`
      );
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ${FONT} role="img" aria-label="${escapeHtml(yLabel)}">${parts}</svg>`;
}

/**
 * @typedef {{ value: number | null, low?: number, high?: number, series: string }} Point
 * @typedef {{ label: string, points: Point[] }} DotRow
 * @typedef {{ name: string, color: string }} Series
 */

/**
 * Horizontal dot plot: one row per label, a dot per series, optional whiskers and shaded bands.
 * @param {{ rows: DotRow[], series: Series[], xLabel: string, log?: boolean,
 *   bands?: { from: number, to: number, label: string, color: string }[], refLines?: number[] }} chart
 */
export function dotPlot({ rows, series, xLabel, log = false, bands = [], refLines = [] }) {
  const rowHeight = 18;
  const plotW = 520;
  const legendPlaces = series.length > 1 ? legendLayout(series, plotW) : [];
  const legendRows = legendPlaces.length ? Math.max(...legendPlaces.map((place) => place.row)) + 1 : 0;
  const margin = { top: 28, right: 20, bottom: 40 + legendRows * 14, left: 210 };
  const width = margin.left + plotW + margin.right;
  const height = margin.top + rows.length * rowHeight + margin.bottom;
  const values = rows
    .flatMap((r) => r.points.flatMap((p) => [p.value, p.low, p.high]))
    .concat(
      bands.flatMap((b) => [b.from, b.to]),
      refLines,
    )
    .filter((v) => typeof v === 'number' && Number.isFinite(v) && (!log || v > 0));
  const numbers = /** @type {number[]} */ (values);
  const min = log ? Math.min(...numbers) / 1.5 : 0;
  const max = Math.max(...numbers, log ? 1 : 0.1) * (log ? 1.5 : 1.08);
  const x = (/** @type {number} */ v) =>
    margin.left +
    (log ? ((Math.log10(v) - Math.log10(min)) / (Math.log10(max) - Math.log10(min))) * plotW : (v / max) * plotW);
  const bottom = margin.top + rows.length * rowHeight;
  const grid = gridLines('x', ticks(min, max, log), x, { from: margin.top, to: bottom, labelAt: bottom + 14 });
  const { shaded, refs } = bandsAndRefs('x', bands, refLines, x, { from: margin.top, to: bottom });
  const colorOf = (/** @type {string} */ name) => series.find((s) => s.name === name)?.color ?? '#333';
  const body = rows
    .map((row, i) => {
      const cy = margin.top + i * rowHeight + rowHeight / 2;
      const dots = row.points
        .filter((p) => typeof p.value === 'number' && Number.isFinite(p.value) && (!log || p.value > 0))
        .map((p) => {
          const value = /** @type {number} */ (p.value);
          // an interval still open at one end runs to the plot's edge
          const clamped = (/** @type {number} */ v) => x(Math.min(max, Math.max(min, v)));
          const whisker =
            p.low !== undefined && p.high !== undefined
              ? `<line x1="${clamped(p.low)}" x2="${clamped(p.high)}" y1="${cy}" y2="${cy}" stroke="${colorOf(p.series)}" stroke-width="2"/>`
              : '';
          return `${whisker}<circle cx="${x(value)}" cy="${cy}" r="4" fill="${colorOf(p.series)}"><title>${escapeHtml(`${row.label} ${p.series}: ${Number(value.toPrecision(3))}`)}</title></circle>`;
        })
        .join('');
      return `<text x="${margin.left - 8}" y="${cy + 4}" text-anchor="end" fill="#333">${escapeHtml(row.label)}</text>${dots}`;
    })
    .join('');
  const legend = legendPlaces
    .map(({ x: offset, row }, i) => {
      const ly = bottom + 46 + row * 14;
      return (
        `<circle cx="${margin.left + offset + 5}" cy="${ly - 4}" r="4" fill="${series[i].color}"/>` +
        `<text x="${margin.left + offset + 13}" y="${ly}">${escapeHtml(series[i].name)}</text>`
      );
    })
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ${FONT} role="img" aria-label="${escapeHtml(xLabel)}">` +
    `${shaded}${grid}${refs}${body}<text x="${width - margin.right}" y="${bottom + 28}" text-anchor="end" fill="#555">${escapeHtml(xLabel)}</text>${legend}</svg>`
  );
}

/**
 * @typedef {{ x: number, y: number | null, low?: number, high?: number }} LinePoint y null: nothing to draw there
 * @typedef {{ name: string, color: string, dashed?: boolean, points: LinePoint[] }} Line
 */

/**
 * Lines against a linear x axis from zero and a log y axis, each with a shaded band from its points' low to high.
 * @param {{ title: string, lines: Line[], xLabel: string, yLabel: string }} chart
 */
export function lineChart({ title, lines, xLabel, yLabel }) {
  const width = 560;
  const height = 300;
  const margin = { top: 24, right: 16, bottom: 58, left: 52 };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const drawn = lines.map((line) => ({
    ...line,
    points: line.points.filter((p) => typeof p.y === 'number' && Number.isFinite(p.y) && p.y > 0),
  }));
  const ys = drawn
    .flatMap((line) => line.points.flatMap((p) => [p.y, p.low, p.high]))
    .filter((v) => typeof v === 'number' && v > 0);
  const xs = drawn.flatMap((line) => line.points.map((p) => p.x));
  const numbers = /** @type {number[]} */ (ys);
  const yMin = (numbers.length ? Math.min(...numbers) : 0.1) / 1.3;
  const yMax = (numbers.length ? Math.max(...numbers) : 1) * 1.3;
  const xMax = Math.max(1, ...xs) * 1.05;
  const x = (/** @type {number} */ v) => margin.left + (v / xMax) * plotW;
  const y = (/** @type {number} */ v) =>
    margin.top + plotH - ((Math.log10(v) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * plotH;
  const bottom = margin.top + plotH;
  const grid =
    gridLines('y', ticks(yMin, yMax, true), y, {
      from: margin.left,
      to: margin.left + plotW,
      labelAt: margin.left - 4,
    }) + gridLines('x', ticks(0, xMax, false), x, { from: margin.top, to: bottom, labelAt: bottom + 14 });
  const body = drawn
    .map((line) => {
      const banded = line.points.filter((p) => p.low !== undefined && p.high !== undefined && p.low > 0);
      const band =
        banded.length > 1
          ? `<polygon points="${[
              ...banded.map((p) => `${x(p.x)},${y(/** @type {number} */ (p.high))}`),
              ...[...banded].reverse().map((p) => `${x(p.x)},${y(/** @type {number} */ (p.low))}`),
            ].join(' ')}" fill="${line.color}" fill-opacity="0.15"/>`
          : '';
      const path = line.points.map((p) => `${x(p.x)},${y(/** @type {number} */ (p.y))}`).join(' ');
      const dots = line.points
        .map(
          (p) =>
            `<circle cx="${x(p.x)}" cy="${y(/** @type {number} */ (p.y))}" r="3" fill="${line.color}"><title>${escapeHtml(`${line.name} at ${tickLabel(p.x)}: ${Number(/** @type {number} */ (p.y).toPrecision(3))}`)}</title></circle>`,
        )
        .join('');
      return `${band}<polyline points="${path}" fill="none" stroke="${line.color}" stroke-width="2"${line.dashed ? ' stroke-dasharray="6 4"' : ''}/>${dots}`;
    })
    .join('');
  const legend = lineLegend(drawn, { left: margin.left, top: height - 22, columnWidth: 240 });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ${FONT} role="img" aria-label="${escapeHtml(title)}">` +
    `<text x="${margin.left}" y="14" font-weight="bold">${escapeHtml(title)}</text>${grid}` +
    `<line x1="${margin.left}" x2="${margin.left}" y1="${margin.top}" y2="${bottom}" stroke="${AXIS_COLOR}"/>` +
    `<line x1="${margin.left}" x2="${margin.left + plotW}" y1="${bottom}" y2="${bottom}" stroke="${AXIS_COLOR}"/>${body}` +
    `<text x="${margin.left + plotW}" y="${bottom + 28}" text-anchor="end" fill="#555">${escapeHtml(xLabel)}</text>` +
    `<text transform="translate(12,${margin.top + plotH / 2}) rotate(-90)" text-anchor="middle" fill="#555">${escapeHtml(yLabel)}</text>` +
    `${legend}</svg>`
  );
}

/**
 * @typedef {{ name: string, value: number, color: string }} Segment
 * @typedef {{ label: string, segments: Segment[], note?: string }} StackedRow note: printed after the bar's total
 */

/**
 * Horizontal stacked bars on one shared x axis from zero, a key of the segments' names above.
 * @param {{ rows: StackedRow[], xLabel: string }} chart
 */
export function stackedBars({ rows, xLabel }) {
  const labelWidth = 250;
  const rowHeight = 26;
  const keyHeight = 22;
  const plotW = 560;
  const right = 150;
  const width = labelWidth + plotW + right;
  const top = keyHeight + 8;
  const height = top + rows.length * rowHeight + 36;
  const max = Math.max(1, ...rows.map((r) => r.segments.reduce((sum, s) => sum + s.value, 0))) * 1.02;
  const x = (/** @type {number} */ v) => labelWidth + (v / max) * plotW;
  const names = [...new Map(rows.flatMap((r) => r.segments.map((s) => [s.name, s.color]))).entries()];
  let keyX = 0;
  const key = names
    .map(([name, color]) => {
      const part = `<rect x="${keyX}" y="4" width="10" height="10" fill="${color}"/><text x="${keyX + 14}" y="13" fill="#333">${escapeHtml(name)}</text>`;
      keyX += 24 + name.length * 6;
      return part;
    })
    .join('');
  const grid = gridLines('x', ticks(0, max, false), x, {
    from: top - 4,
    to: top + rows.length * rowHeight,
    labelAt: top + rows.length * rowHeight + 14,
  });
  const bars = rows
    .map((row, i) => {
      const y = top + i * rowHeight;
      let at = 0;
      const parts = row.segments
        .filter((s) => s.value > 0)
        .map((s) => {
          const rect = `<rect x="${x(at)}" y="${y + 3}" width="${x(at + s.value) - x(at)}" height="${rowHeight - 8}" fill="${s.color}"><title>${escapeHtml(`${row.label} — ${s.name}: ${s.value.toFixed(1)}`)}</title></rect>`;
          at += s.value;
          return rect;
        })
        .join('');
      const total = `${at.toFixed(1)}${row.note ? ` ${row.note}` : ''}`;
      return (
        `<text x="${labelWidth - 6}" y="${y + rowHeight / 2 + 4}" text-anchor="end" fill="#222">${escapeHtml(row.label)}</text>${parts}` +
        `<text x="${x(at) + 4}" y="${y + rowHeight / 2 + 4}" fill="#444">${escapeHtml(total)}</text>`
      );
    })
    .join('');
  const axisLabel = `<text x="${labelWidth + plotW / 2}" y="${height - 4}" text-anchor="middle" fill="#555">${escapeHtml(xLabel)}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${Math.max(width, keyX)} ${height}" width="${Math.max(width, keyX)}" height="${height}" ${FONT} role="img" aria-label="${escapeHtml(xLabel)}"><g>${key}</g>${grid}${bars}${axisLabel}</svg>`;
}

/**
 * @typedef {{ y: number, low?: number, high?: number } | null} CategoryPoint null: nothing measured there
 * @typedef {{ name: string, color: string, dashed?: boolean, points: CategoryPoint[] }} CategoryLine
 */

/**
 * Lines across categories in a fixed order (runtimes in release order), a linear y axis from zero, each point with
 * its interval as a whisker; the series are set a little apart so their whiskers do not cover each other.
 * @param {{ title: string, categories: string[][], lines: CategoryLine[], yLabel: string,
 *   format: (v: number) => string, bands?: { from: number, to: number, label: string, color: string }[],
 *   refLines?: number[] }} chart categories: each one's label, one line of text per item
 */
export function categoryChart({ title, categories, lines, yLabel, format, bands = [], refLines = [] }) {
  const width = 580;
  const plotH = 260;
  const { margin, height, plotW } = layoutWithLegend(
    { width, plotH, entries: lines.length },
    { top: 26, right: 16, bottom: 58, left: 52 },
  );
  const values = lines
    .flatMap((line) => line.points.flatMap((p) => (p ? [p.y, p.low, p.high] : [])))
    .concat(
      bands.flatMap((b) => [b.from, b.to]),
      refLines,
    )
    .filter((v) => typeof v === 'number' && Number.isFinite(v));
  const max = Math.max(0.1, .../** @type {number[]} */ (values)) * 1.08;
  const slot = plotW / Math.max(1, categories.length);
  const spread = Math.min(slot * 0.6, lines.length * 6);
  const x = (/** @type {number} */ category, /** @type {number} */ line) =>
    margin.left + slot * (category + 0.5) + (lines.length > 1 ? (line / (lines.length - 1) - 0.5) * spread : 0);
  const y = (/** @type {number} */ v) => margin.top + plotH - (v / max) * plotH;
  const bottom = margin.top + plotH;
  const grid = gridLines(
    'y',
    ticks(0, max, false),
    y,
    { from: margin.left, to: margin.left + plotW, labelAt: margin.left - 4 },
    format,
  );
  const { shaded, refs } = bandsAndRefs('y', bands, refLines, y, { from: margin.left, to: margin.left + plotW });
  const labels = categories
    .map(
      (text, i) =>
        `<text x="${margin.left + slot * (i + 0.5)}" y="${bottom + 14}" text-anchor="middle" fill="#333">` +
        text
          .map(
            (part, j) => `<tspan x="${margin.left + slot * (i + 0.5)}" dy="${j ? 12 : 0}">${escapeHtml(part)}</tspan>`,
          )
          .join('') +
        `</text>`,
    )
    .join('');
  const body = lines
    .map((line, l) => {
      const drawn = line.points.flatMap((p, i) => (p && Number.isFinite(p.y) ? [{ ...p, cx: x(i, l) }] : []));
      const path = drawn.map((p) => `${p.cx},${y(p.y)}`).join(' ');
      const marks = drawn
        .map((p) => {
          const whisker =
            p.low !== undefined && p.high !== undefined
              ? `<line x1="${p.cx}" x2="${p.cx}" y1="${y(p.low)}" y2="${y(p.high)}" stroke="${line.color}" stroke-width="1.5"/>`
              : '';
          const interval = p.low !== undefined && p.high !== undefined ? ` (${format(p.low)} – ${format(p.high)})` : '';
          return `${whisker}<circle cx="${p.cx}" cy="${y(p.y)}" r="3.5" fill="${line.color}"><title>${escapeHtml(`${line.name}: ${format(p.y)}${interval}`)}</title></circle>`;
        })
        .join('');
      return `<polyline points="${path}" fill="none" stroke="${line.color}" stroke-width="1.5"${line.dashed ? ' stroke-dasharray="6 4"' : ''}/>${marks}`;
    })
    .join('');
  const legend = lineLegend(lines, { left: margin.left, top: bottom + 52, columnWidth: 260 });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ${FONT} role="img" aria-label="${escapeHtml(title)}">` +
    `<text x="${margin.left}" y="14" font-weight="bold">${escapeHtml(title)}</text>${shaded}${grid}${refs}` +
    `<line x1="${margin.left}" x2="${margin.left + plotW}" y1="${bottom}" y2="${bottom}" stroke="${AXIS_COLOR}"/>${labels}${body}` +
    `<text transform="translate(12,${margin.top + plotH / 2}) rotate(-90)" text-anchor="middle" fill="#555">${escapeHtml(yLabel)}</text>` +
    `${legend}</svg>`
  );
}

/**
 * @typedef {{ x: number, y: number, mark?: 'major' | 'reducing', note: string }} RoundPoint
 * @typedef {{ name: string, color: string, points: RoundPoint[] }} RoundLine
 */

/**
 * Each line's value per round on a linear axis from zero, rounds with a major GC marked by a triangle, those with a
 * all-external-memory one by a red ring: a step in a server's state shows as a step in its line.
 * @param {{ title: string, lines: RoundLine[], yLabel: string }} chart
 */
export function roundChart({ title, lines, yLabel }) {
  const width = 380;
  const plotH = 164;
  const { margin, height, plotW } = layoutWithLegend(
    { width, plotH, entries: lines.length },
    { top: 24, right: 12, bottom: 48, left: 48 },
  );
  const rounds = lines.flatMap((line) => line.points.map((p) => p.x));
  const xMax = Math.max(2, ...rounds);
  const yMax = Math.max(1, ...lines.flatMap((line) => line.points.map((p) => p.y))) * 1.1;
  const x = (/** @type {number} */ v) => margin.left + ((v - 1) / (xMax - 1)) * plotW;
  const y = (/** @type {number} */ v) => margin.top + plotH - (v / yMax) * plotH;
  const bottom = margin.top + plotH;
  const roundTicks = ticks(0, xMax, false).filter((t) => t >= 1 && Number.isInteger(t));
  const grid =
    gridLines('y', ticks(0, yMax, false), y, { from: margin.left, to: margin.left + plotW, labelAt: margin.left - 4 }) +
    gridLines('x', roundTicks.length > 1 ? roundTicks : [1, xMax], x, {
      from: margin.top,
      to: bottom,
      labelAt: bottom + 14,
    });
  const body = lines
    .map((line) => {
      const path = line.points.map((p) => `${x(p.x)},${y(p.y)}`).join(' ');
      const points = line.points
        .map((p) => {
          const [cx, cy] = [x(p.x), y(p.y)];
          const title = `<title>${escapeHtml(`${line.name}, round ${p.x}: ${p.note}`)}</title>`;
          if (p.mark === 'reducing')
            return `<circle cx="${cx}" cy="${cy}" r="6" fill="none" stroke="#c0392b" stroke-width="2">${title}</circle>`;
          if (p.mark === 'major')
            return `<path d="M${cx},${cy - 6} l5,9 h-10 z" fill="${line.color}" stroke="#222" stroke-width="0.7">${title}</path>`;
          return `<circle cx="${cx}" cy="${cy}" r="2.5" fill="${line.color}">${title}</circle>`;
        })
        .join('');
      return `<polyline points="${path}" fill="none" stroke="${line.color}" stroke-width="1.5"/>${points}`;
    })
    .join('');
  const legend = lineLegend(lines, { left: margin.left, top: margin.top + plotH + 44, columnWidth: 160 });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ${FONT} role="img" aria-label="${escapeHtml(title)}">` +
    `<text x="${margin.left}" y="14" font-weight="bold">${escapeHtml(title)}</text>${grid}` +
    `<line x1="${margin.left}" x2="${margin.left}" y1="${margin.top}" y2="${bottom}" stroke="${AXIS_COLOR}"/>` +
    `<line x1="${margin.left}" x2="${margin.left + plotW}" y1="${bottom}" y2="${bottom}" stroke="${AXIS_COLOR}"/>${body}` +
    `<text x="${margin.left + plotW}" y="${bottom + 28}" text-anchor="end" fill="#555">round</text>` +
    `<text transform="translate(12,${margin.top + plotH / 2}) rotate(-90)" text-anchor="middle" fill="#555">${escapeHtml(yLabel)}</text>` +
    `${legend}</svg>`
  );
}
