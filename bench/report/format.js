// @ts-check
// How the bench writes values and text, for every report, summary and profile page: one formatter per kind of value,
// one HTML escaper.

/** An empty cell: nothing measured, or nothing to say. */
export const DASH = '—';

/** @param {number} value @param {number} [digits] */
export function formatRatio(value, digits = 2) {
  if (value === Infinity) return '∞';
  return Number.isFinite(value) ? `${value.toFixed(digits)}×` : DASH;
}

/**
 * @param {number | null | undefined} value a fraction (0.5 is 50 %)
 * @param {number} [digits] decimals after the percent's whole number
 */
export function formatPercent(value, digits = 0) {
  return typeof value === 'number' && Number.isFinite(value) ? `${(value * 100).toFixed(digits)} %` : DASH;
}

/**
 * A confidence level as few digits as it needs: 95 %, 99.5 %.
 * @param {number} level
 */
export function formatLevel(level) {
  return `${Number((level * 100).toFixed(1))} %`;
}

/** @param {number | null | undefined} value @param {number} [digits] */
export function formatNumber(value, digits = 0) {
  return typeof value === 'number' && Number.isFinite(value)
    ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : DASH;
}

/** @param {{ low: number, high: number } | null} ci @param {(v: number) => string} format */
export function formatInterval(ci, format) {
  return ci ? `${format(ci.low)} – ${format(ci.high)}` : DASH;
}

const HTML_ENTITIES = /** @type {Record<string, string>} */ ({
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
});

/** Text for HTML or SVG, safe both between tags and inside a quoted attribute. @param {string | number} text */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]);
}

/**
 * The app's packages in one line: `@nestjs/core 11.1.3, @nestjs/platform-express 11.1.3, express 5.1.0, ...`.
 * @param {Record<string, string>} versions
 */
export function describeVersions(versions) {
  return Object.entries(versions)
    .map(([name, version]) => `${name} ${version}`)
    .join(', ');
}
