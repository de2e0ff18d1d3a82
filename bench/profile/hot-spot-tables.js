// @ts-check
/**
 * The profiles section of the bench report: per runtime and scenario, the targets side by side (Express before
 * Fastify) — share of ticks by group, the top functions by self time, links to each flame graph and text report.
 */
import path from 'node:path';

import { escapeHtml } from './flamegraph-html.js';
import { GROUPS } from './groups.js';

/** @typedef {import('./profile-targets.js').ProfileRecord} ProfileRecord */

const TOP_FUNCTIONS_SHOWN = 15;
const MARKDOWN_NAME_CHARS = 70;

/** @param {number} share */
const pct = (share) => `${(share * 100).toFixed(1)} %`;

/** @param {string} name @param {number} max */
const shorten = (name, max) => (name.length > max ? `${name.slice(0, max - 1)}…` : name);

/**
 * Records grouped by runtime, then scenario, keeping the order the bench profiled them in.
 * @param {ProfileRecord[]} profiles
 */
function sections(profiles) {
  /** @type {Map<string, ProfileRecord[]>} */
  const bySection = new Map();
  for (const record of profiles) {
    const { spec, version } = record.runtime;
    const key = `${record.scenario} — ${spec.includes(version) ? spec : `${spec} (${version})`}`;
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

const GROUPS_NOTE =
  'Share of ticks in the load window. *self*: the code the tick landed in, V8 & native on its own; ' +
  "*+ native called*: native code (V8 runtime, ICs, node C++) charged to the nearest JavaScript caller's group.";

/**
 * @param {ProfileRecord[]} profiles
 * @param {string} reportDir the directory report.md is written to; links are relative to it
 * @returns {string} a Markdown section starting with "## Profiles"
 */
export function renderProfilesMarkdown(profiles, reportDir) {
  const out = [
    '## Profiles',
    '',
    `V8 sampling profiles (\`--prof\`), one separate run per target and scenario, processed with corrected symbols. ${GROUPS_NOTE}`,
    '',
  ];
  for (const { title, records } of sections(profiles)) {
    out.push(`### ${title}`, '');
    for (const record of records) {
      const issue = problem(record);
      if (issue) out.push(`- **${record.target}**: ${issue}`);
      else if (record.files)
        out.push(
          `- **${record.target}**: [flame graph](${link(reportDir, record.files.html)}) · [node --prof-process](${link(reportDir, record.files.txt)}) · [summary](${link(reportDir, record.files.json)}) — ${facts(record)}`,
        );
    }
    const ok = records.filter((r) => r.summary);
    if (ok.length === 0) {
      out.push('');
      continue;
    }
    out.push(
      '',
      `| group | ${ok.map((r) => `${r.target} self | ${r.target} + native called`).join(' | ')} |`,
      `|---|${ok.map(() => '---:|---:').join('|')}|`,
    );
    for (const group of groupsPresent(ok)) {
      const cells = ok.map((r) => {
        const g = groupOf(r, group.id);
        return `${pct(g?.selfShare ?? 0)} | ${pct(g?.callerShare ?? 0)}`;
      });
      out.push(`| ${group.label} | ${cells.join(' | ')} |`);
    }
    out.push(
      '',
      `Top ${TOP_FUNCTIONS_SHOWN} functions by self time:`,
      '',
      `| # | ${ok.map((r) => `${r.target} | self`).join(' | ')} |`,
      `|---:|${ok.map(() => '---|---:').join('|')}|`,
    );
    for (let i = 0; i < TOP_FUNCTIONS_SHOWN; i += 1) {
      const cells = ok.map((r) => {
        const fn = r.summary?.topFunctions[i];
        return fn
          ? `\`${shorten(fn.name, MARKDOWN_NAME_CHARS).replace(/[|`]/g, '\\$&')}\` (${fn.group}) | ${pct(fn.selfShare)}`
          : ' | ';
      });
      out.push(`| ${i + 1} | ${cells.join(' | ')} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

/**
 * @param {ProfileRecord[]} profiles
 * @param {string} reportDir the directory report.html is written to; links are relative to it
 * @returns {string} an HTML <section> with its own styles, for report.html
 */
export function renderProfilesHtml(profiles, reportDir) {
  const swatch = (/** @type {string} */ id) =>
    `<i class="swatch" style="background:${GROUPS.find((g) => g.id === id)?.color ?? '#999'}"></i>`;
  const parts = [
    '<section class="profiles">',
    '<style>.profiles table{border-collapse:collapse;margin:8px 0 16px}.profiles td,.profiles th{border:1px solid #ddd;padding:3px 8px;font-size:13px}' +
      '.profiles td.n{text-align:right;white-space:nowrap}' +
      '.profiles .fn{font-family:ui-monospace,monospace;font-size:12px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}' +
      '.profiles .swatch{display:inline-block;width:10px;height:10px;margin-right:5px;border-radius:2px}' +
      '.profiles .side{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:16px}' +
      '.profiles .side table{width:100%;table-layout:fixed}.profiles .side col.k{width:24px}.profiles .side col.n{width:64px}' +
      '.profiles .problem{color:#b00}</style>',
    '<h2>Profiles</h2>',
    `<p>V8 sampling profiles (<code>--prof</code>), one separate run per target and scenario, processed with corrected symbols. ${escapeHtml(GROUPS_NOTE).replace(/\*([^*]+)\*/g, '<em>$1</em>')}</p>`,
  ];
  for (const { title, records } of sections(profiles)) {
    parts.push(`<h3>${escapeHtml(title)}</h3>`, '<ul>');
    for (const record of records) {
      const issue = problem(record);
      if (issue)
        parts.push(
          `<li><strong>${escapeHtml(record.target)}</strong>: <span class="problem">${escapeHtml(issue)}</span></li>`,
        );
      else if (record.files) {
        parts.push(
          `<li><strong>${escapeHtml(record.target)}</strong>: <a href="${escapeHtml(link(reportDir, record.files.html))}">flame graph</a> · ` +
            `<a href="${escapeHtml(link(reportDir, record.files.txt))}">node --prof-process</a> · <a href="${escapeHtml(link(reportDir, record.files.json))}">summary</a> — ${escapeHtml(facts(record))}</li>`,
        );
      }
    }
    parts.push('</ul>');
    const ok = records.filter((r) => r.summary);
    if (ok.length === 0) continue;
    parts.push(
      '<table><tr><th rowspan="2">group</th>',
      ...ok.map((r) => `<th colspan="2">${escapeHtml(r.target)}</th>`),
      '</tr><tr>',
      ...ok.map(() => '<th>self</th><th>+ native called</th>'),
      '</tr>',
    );
    for (const group of groupsPresent(ok)) {
      parts.push(
        `<tr><td>${swatch(group.id)}${escapeHtml(group.label)}</td>`,
        ...ok.map((r) => {
          const g = groupOf(r, group.id);
          return `<td class="n">${pct(g?.selfShare ?? 0)}</td><td class="n">${pct(g?.callerShare ?? 0)}</td>`;
        }),
        '</tr>',
      );
    }
    parts.push('</table>', '<div class="side">');
    for (const r of ok) {
      parts.push(
        `<table><col class="k"><col><col class="n"><tr><th colspan="3">${escapeHtml(r.target)}: top ${TOP_FUNCTIONS_SHOWN} by self time</th></tr>`,
      );
      for (const fn of r.summary?.topFunctions.slice(0, TOP_FUNCTIONS_SHOWN) ?? []) {
        parts.push(
          `<tr><td>${swatch(fn.group)}</td><td class="fn" title="${escapeHtml(fn.name)}">${escapeHtml(fn.name)}</td><td class="n">${pct(fn.selfShare)}</td></tr>`,
        );
      }
      parts.push('</table>');
    }
    parts.push('</div>');
  }
  parts.push('</section>');
  return parts.join('\n');
}
