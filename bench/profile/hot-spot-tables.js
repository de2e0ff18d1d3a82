// @ts-check
/**
 * The profiles section of the bench report: per runtime and scenario, the targets side by side (Express before
 * Fastify) — share of ticks by group, the top functions by self time, links to each flame graph and text report.
 */
import path from 'node:path';

import { escapeHtml, formatPercent } from '../report/format.js';
import { code, em, htmlTable, htmlText, markdownTable, markdownText, strong } from '../report/rich-table.js';
import { GROUPS } from './groups.js';
import { BARE } from '../model/stacks.js';
import { diffFacts, diffTables, diffTitle } from './diff-tables.js';
import { layerChart, layerTable } from './layer-tables.js';

/** @typedef {import('./profile-targets.js').ProfileRecord} ProfileRecord */
/** @typedef {import('./diff-files.js').ProfileDiffRecord} ProfileDiffRecord */
/** @typedef {import('../report/rich-table.js').Table} Table */
/** @typedef {import('../report/rich-table.js').Text} Text */

const TOP_FUNCTIONS_SHOWN = 15;
/** Longer C++ names are cut: the flame graph and the summary JSON have them whole. */
const FUNCTION_NAME_CHARS = 70;

/** @param {number} share */
const pct = (share) => formatPercent(share, 1);

/** @param {string} name @param {number} max */
const shorten = (name, max) => (name.length > max ? `${name.slice(0, max - 1)}…` : name);

/**
 * Records grouped by runtime, then scenario and stack (a production section shows what each middleware group costs
 * on each adapter), keeping the order the bench profiled them in.
 * @param {ProfileRecord[]} profiles
 */
function sections(profiles) {
  /** @type {Map<string, ProfileRecord[]>} */
  const bySection = new Map();
  for (const record of profiles) {
    const { spec, version } = record.runtime;
    const stack = record.stack && record.stack !== BARE ? ` · ${record.stack}` : '';
    const key = `${record.scenario}${stack} — ${spec.includes(version) ? spec : `${spec} (${version})`}`;
    bySection.set(key, [...(bySection.get(key) ?? []), record]);
  }
  return [...bySection].map(([title, records]) => ({ title, records }));
}

/** @param {ProfileRecord} record */
function problem(record) {
  return record.skipped ? `skipped: ${record.skipped}` : record.error ? `failed: ${record.error}` : null;
}

/**
 * Groups that any of these profiles has ticks in, in report order.
 * @param {ProfileRecord[]} records
 */
function groupsPresent(records) {
  const present = new Set(records.flatMap((r) => r.summary?.groups.map((g) => g.id) ?? []));
  return GROUPS.filter((g) => present.has(g.id));
}

/** @param {ProfileRecord} record @param {string} id */
function groupOf(record, id) {
  return record.summary?.groups.find((g) => g.id === id) ?? null;
}

/** @param {string} reportDir @param {string} file */
const link = (reportDir, file) => path.relative(reportDir, file).split(path.sep).join('/');

/** @param {ProfileRecord} record */
function facts(record) {
  const s = /** @type {NonNullable<ProfileRecord['summary']>} */ (record.summary);
  const rps = record.load ? `, ${Math.round(record.load.rps)} req/s under the profiler (not a measurement)` : '';
  return `${s.ticks.inWindow} ticks in ${s.window.durationSec?.toFixed(1) ?? '?'} s of load, unaccounted ${pct(s.ticks.unaccountedShare)}${rps}`;
}

/** @type {Text} */
const INTRO = [
  'V8 sampling profiles (',
  code('--prof'),
  '), one separate run per target and scenario, processed with corrected symbols. ',
  'Share of ticks in the load window. ',
  em('self'),
  ': the code the tick landed in, V8 & native on its own; ',
  em('+ native called'),
  ": native code (V8 runtime, ICs, node C++) charged to the nearest JavaScript caller's group.",
];

/** @param {string} id */
const groupColor = (id) => GROUPS.find((g) => g.id === id)?.color ?? '#999';

/**
 * Each profile's links and facts, or why there is none.
 * @param {ProfileRecord} record @param {string} reportDir
 * @returns {Text | null}
 */
function recordLine(record, reportDir) {
  const issue = problem(record);
  if (issue) return [strong(record.target), `: ${issue}`];
  if (!record.files) return null;
  const { html, txt, json } = record.files;
  return [
    strong(record.target),
    ': ',
    { text: 'flame graph', href: link(reportDir, html) },
    ' · ',
    { text: 'node --prof-process', href: link(reportDir, txt) },
    ' · ',
    { text: 'summary', href: link(reportDir, json) },
    ` — ${facts(record)}`,
  ];
}

/**
 * Share of ticks per group, each profile's self and + native called side by side.
 * @param {ProfileRecord[]} records profiles with a summary
 * @returns {Table}
 */
function groupTable(records) {
  return {
    headers: ['group', ...records.flatMap((r) => [`${r.target} self`, `${r.target} + native called`])],
    align: ['left', ...records.flatMap(() => /** @type {const} */ (['right', 'right']))],
    rows: groupsPresent(records).map((group) => [
      { text: group.label, swatch: group.color },
      ...records.flatMap((r) => {
        const g = groupOf(r, group.id);
        return [pct(g?.selfShare ?? 0), pct(g?.callerShare ?? 0)];
      }),
    ]),
  };
}

/**
 * The functions with the most self time, each profile's beside the others'.
 * @param {ProfileRecord[]} records profiles with a summary
 * @returns {Table}
 */
function topFunctionsTable(records) {
  const rows = [];
  for (let i = 0; i < TOP_FUNCTIONS_SHOWN; i += 1) {
    rows.push([
      String(i + 1),
      ...records.flatMap((r) => {
        const fn = r.summary?.topFunctions[i];
        if (!fn) return ['', ''];
        return [
          [{ ...code(shorten(fn.name, FUNCTION_NAME_CHARS)), swatch: groupColor(fn.group) }, ` (${fn.group})`],
          pct(fn.selfShare),
        ];
      }),
    ]);
  }
  return {
    intro: `Top ${TOP_FUNCTIONS_SHOWN} functions by self time:`,
    headers: ['#', ...records.flatMap((r) => [r.target, 'self'])],
    align: ['right', ...records.flatMap(() => /** @type {const} */ (['left', 'right']))],
    rows,
  };
}

/**
 * The section's parts in order, for either rendering.
 * @param {ProfileRecord[]} profiles @param {string} reportDir
 */
function sectionParts(profiles, reportDir) {
  return sections(profiles).map(({ title, records }) => {
    const ok = records.filter((r) => r.summary);
    return {
      title,
      lines: records.map((r) => recordLine(r, reportDir)).filter((line) => line !== null),
      tables: ok.length ? [groupTable(ok), topFunctionsTable(ok)] : [],
    };
  });
}

/**
 * Each differential profile's heading, facts (with its flame graph's link) and tables: layers and functions.
 * @param {ProfileDiffRecord[]} diffs @param {string} reportDir
 */
function diffParts(diffs, reportDir) {
  return diffs.map((record) => {
    const [byLayer, , byFunction] = diffTables(record.diff);
    return {
      title: `${diffTitle(record.diff)}${record.stack !== BARE ? ` · ${record.stack}` : ''}`,
      lines: [
        ...diffFacts(record.diff).map((line) => /** @type {Text} */ (line)),
        /** @type {Text} */ ([
          { text: 'differential flame graph', href: link(reportDir, record.files.html) },
          ' · ',
          { text: 'all tables', href: link(reportDir, record.files.md) },
        ]),
      ],
      tables: [byLayer, byFunction],
    };
  });
}

/**
 * @param {ProfileRecord[]} profiles
 * @param {string} reportDir the directory report.md is written to; links are relative to it
 * @param {ProfileDiffRecord[]} [diffs] differential profiles between runtimes
 * @returns {string} a Markdown section starting with "## Profiles"
 */
export function renderProfilesMarkdown(profiles, reportDir, diffs = []) {
  const out = ['## Profiles', '', markdownText(INTRO), ''];
  const layers = layerTable(profiles);
  if (layers) out.push('### CPU per request by layer', '', markdownTable(layers));
  for (const { title, lines, tables } of [...diffParts(diffs, reportDir), ...sectionParts(profiles, reportDir)]) {
    out.push(`### ${title}`, '', ...lines.map((line) => `- ${markdownText(line)}`), '');
    for (const table of tables) out.push(markdownTable(table));
  }
  return out.join('\n');
}

const PROFILES_STYLE =
  '.profiles .swatch{display:inline-block;width:10px;height:10px;margin-right:5px;border-radius:2px}' +
  '.profiles code{font-size:12px;word-break:break-all}';

/**
 * @param {ProfileRecord[]} profiles
 * @param {string} reportDir the directory report.html is written to; links are relative to it
 * @param {ProfileDiffRecord[]} [diffs] differential profiles between runtimes
 * @returns {string} an HTML <section> with its own styles, for report.html
 */
export function renderProfilesHtml(profiles, reportDir, diffs = []) {
  const parts = [
    '<section class="profiles">',
    `<style>${PROFILES_STYLE}</style>`,
    '<h2>Profiles</h2>',
    `<p>${htmlText(INTRO)}</p>`,
  ];
  const layers = layerTable(profiles);
  if (layers)
    parts.push('<h3>CPU per request by layer</h3>', `<figure>${layerChart(profiles)}</figure>`, htmlTable(layers));
  for (const { title, lines, tables } of [...diffParts(diffs, reportDir), ...sectionParts(profiles, reportDir)]) {
    parts.push(
      `<h3>${escapeHtml(title)}</h3>`,
      `<ul>${lines.map((line) => `<li>${htmlText(line)}</li>`).join('')}</ul>`,
      ...tables.map((table) => htmlTable(table)),
    );
  }
  parts.push('</section>');
  return parts.join('\n');
}
