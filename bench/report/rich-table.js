// @ts-check
/**
 * The one table type of every report (report.md, report.html, the terminal summary, the profiles section) and its
 * two renderings. Modules that add a table build a {@link Table} of {@link Text} cells and hand it to
 * `markdownTable` or `htmlTable`; they never write Markdown or HTML into a cell, so both renderings say the same.
 *
 * @example
 * // a row whose verdict is emphasised: `**holds**` in report.md, <strong>holds</strong> in report.html
 * const table = {
 *   title: 'Verdict',
 *   headers: ['scenario', 'ratio', 'verdict'],
 *   align: ['left', 'right', 'left'],
 *   rows: [['hello', formatRatio(1.8), strong('holds')]],
 *   notes: [['† ', 'the load generator was saturated']],
 * };
 */
import { escapeHtml } from './format.js';

/**
 * A piece of text with a look; the renderers decide how the look is written.
 * @typedef {object} Span
 * @property {string} text
 * @property {'strong' | 'em'} [emphasis] strong: a verdict or a term being defined; em: a term used in passing
 * @property {boolean} [code] a name from a program (a function, a file): monospace
 * @property {string} [href] a link target, relative to the report
 * @property {string} [swatch] a CSS colour shown in HTML as a small square before the text (a chart's key)
 */

/**
 * What a cell, an intro or a note holds: plain text, one span, or a run of them.
 * @typedef {string | Span | (string | Span)[]} Text
 */

/**
 * @typedef {object} Table
 * @property {string} [title] the table's heading; without one the table follows the text before it
 * @property {Text} [intro] one paragraph above the table
 * @property {string[]} headers
 * @property {('left' | 'right')[]} align one per column: numbers are right-aligned
 * @property {Text[][]} rows
 * @property {Text[]} [notes] paragraphs below the table (footnotes to marks in the cells)
 */

/** @param {string} text @returns {Span} */
export const strong = (text) => ({ text, emphasis: 'strong' });

/** @param {string} text @returns {Span} */
export const em = (text) => ({ text, emphasis: 'em' });

/** @param {string} text @returns {Span} */
export const code = (text) => ({ text, code: true });

/** @param {Text} text @returns {(string | Span)[]} */
const spans = (text) => (Array.isArray(text) ? text : [text]);

/** The words alone, without their look: for the terminal, and for tests. @param {Text} text */
export function plainText(text) {
  return spans(text)
    .map((span) => (typeof span === 'string' ? span : span.text))
    .join('');
}

/** @param {Text} text */
export function markdownText(text) {
  return spans(text)
    .map((span) => {
      if (typeof span === 'string') return span;
      let out = span.code ? codeSpan(span.text) : span.text;
      if (span.emphasis === 'strong') out = `**${out}**`;
      if (span.emphasis === 'em') out = `*${out}*`;
      return span.href ? `[${out}](${span.href})` : out;
    })
    .join('');
}

/** A Markdown code span that survives backticks in the name. @param {string} text */
function codeSpan(text) {
  const fence = text.includes('`') ? '``' : '`';
  return fence === '`' ? `\`${text}\`` : `${fence} ${text} ${fence}`;
}

/** @param {Text} text */
export function htmlText(text) {
  return spans(text)
    .map((span) => {
      if (typeof span === 'string') return escapeHtml(span);
      let out = escapeHtml(span.text);
      if (span.code) out = `<code>${out}</code>`;
      if (span.emphasis === 'strong') out = `<strong>${out}</strong>`;
      if (span.emphasis === 'em') out = `<em>${out}</em>`;
      if (span.href) out = `<a href="${escapeHtml(span.href)}">${out}</a>`;
      return span.swatch ? `<i class="swatch" style="background:${escapeHtml(span.swatch)}"></i>${out}` : out;
    })
    .join('');
}

/** A cell's Markdown: a pipe would end the cell and a newline the row. @param {Text} cell */
function markdownCell(cell) {
  return markdownText(cell).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/**
 * @param {Table} table
 * @param {string} [emptyText] shown instead of an empty table; without it an empty table renders nothing
 */
export function markdownTable(table, emptyText) {
  const heading = table.title ? [`### ${table.title}`, ''] : [];
  if (table.rows.length === 0) return emptyText ? [...heading, emptyText, ''].join('\n') : '';
  const line = (/** @type {Text[]} */ cells) => `| ${cells.map(markdownCell).join(' | ')} |`;
  return [
    ...heading,
    ...(table.intro ? [markdownText(table.intro), ''] : []),
    line(table.headers),
    `|${table.align.map((a) => (a === 'right' ? ' ---: ' : ' --- ')).join('|')}|`,
    ...table.rows.map(line),
    // a blank line before each note: Markdown would run consecutive lines into one paragraph
    ...(table.notes ?? []).flatMap((note) => ['', markdownText(note)]),
    '',
  ].join('\n');
}

/**
 * @param {Table} table
 * @param {string} [emptyText] shown instead of an empty table; without it an empty table renders nothing
 */
export function htmlTable(table, emptyText) {
  const heading = table.title ? `<h2>${escapeHtml(table.title)}</h2>` : '';
  if (table.rows.length === 0) return emptyText ? `${heading}<p>${escapeHtml(emptyText)}</p>` : '';
  const head = table.headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const rows = table.rows
    .map(
      (row) =>
        `<tr>${row.map((cell, i) => `<td${table.align[i] === 'right' ? ' class="right"' : ''}>${htmlText(cell)}</td>`).join('')}</tr>`,
    )
    .join('\n');
  const intro = table.intro ? `<p>${htmlText(table.intro)}</p>` : '';
  const notes = (table.notes ?? []).map((note) => `<p class="note">${htmlText(note)}</p>`).join('');
  return `${heading}${intro}<table><thead><tr>${head}</tr></thead><tbody>\n${rows}\n</tbody></table>${notes}`;
}
