// @ts-check
/**
 * A self-contained flame graph page: d3 and d3-flame-graph inlined from node_modules, the call tree inlined as JSON,
 * frames coloured by group. Opens from disk with no network.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { GROUPS } from './groups.js';
import { escapeHtml, formatPercent } from '../report/format.js';

/** @typedef {import('./tick-analysis.js').FlameNode} FlameNode */

const require = createRequire(import.meta.url);

/**
 * A package's directory, found from its main entry (d3's exports map hides its dist/ files from require.resolve).
 * @param {string} name
 */
function packageDir(name) {
  let dir = path.dirname(require.resolve(name));
  while (!readJsonName(path.join(dir, 'package.json'), name)) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the ${name} package directory`);
    dir = parent;
  }
  return dir;
}

/** @param {string} file @param {string} name */
function readJsonName(file, name) {
  try {
    return JSON.parse(readFileSync(file, 'utf8')).name === name;
  } catch {
    return false;
  }
}

/** @type {{ d3: string, flamegraph: string, css: string } | null} */
let assets = null;
/** d3, d3-flame-graph and its CSS, read from node_modules once, to inline in a page. */
export function loadAssets() {
  if (!assets) {
    const d3 = packageDir('d3');
    const flamegraph = packageDir('d3-flame-graph');
    assets = {
      d3: readFileSync(path.join(d3, 'dist', 'd3.min.js'), 'utf8'),
      flamegraph: readFileSync(path.join(flamegraph, 'dist', 'd3-flamegraph.umd.min.js'), 'utf8'),
      css: readFileSync(path.join(flamegraph, 'dist', 'd3-flamegraph.css'), 'utf8'),
    };
  }
  return assets;
}

/** Inline text must not end its <script> or <style> element early. @param {string} text */
export const inlineSafe = (text) => text.replace(/<\/(script|style)/gi, '<\\/$1');

const BASE_STYLE = `body { font: 14px system-ui, sans-serif; margin: 16px; color: #222; }
h1 { font-size: 20px; margin: 0 0 4px; }
p.fact { margin: 2px 0; color: #444; }
.legend { margin: 10px 0; display: flex; flex-wrap: wrap; align-items: center; gap: 6px 16px; }
.key i { display: inline-block; width: 12px; height: 12px; margin-right: 5px; vertical-align: -1px; border-radius: 2px; }
.tools { margin: 8px 0; }
#details { min-height: 1.4em; color: #333; font-family: ui-monospace, monospace; font-size: 12px; }`;

/**
 * A flame graph page's document start up to <body>: d3-flame-graph's CSS inlined, the pages' shared style, and any more.
 * @param {string} title @param {string} [style] more CSS
 */
export function flamePageHead(title, style = '') {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>${inlineSafe(loadAssets().css)}</style>
<style>
${BASE_STYLE}
${style}
</style>
</head>`;
}

/**
 * @param {{ title: string, lines: string[], flame: FlameNode, groupShares: Map<string, number> }} page
 *   lines: facts printed under the title (window, ticks, unaccounted share); groupShares: group id → self share
 */
export function renderFlameGraphHtml({ title, lines, flame, groupShares }) {
  const { d3, flamegraph } = loadAssets();
  const colors = Object.fromEntries(GROUPS.map((g) => [g.id, g.color]));
  const legend = GROUPS.filter((g) => groupShares.has(g.id))
    .map(
      (g) =>
        `<span class="key"><i style="background:${g.color}"></i>${escapeHtml(g.label)} ${formatPercent(groupShares.get(g.id) ?? 0, 1)}</span>`,
    )
    .join('');
  const data = JSON.stringify(flame).replace(/</g, '\\u003c');
  return `${flamePageHead(title)}
<body>
<h1>${escapeHtml(title)}</h1>
${lines.map((line) => `<p class="fact">${escapeHtml(line)}</p>`).join('\n')}
<div class="legend">${legend}<span>(self share of ticks; frame width = ticks with the frame on the stack)</span></div>
<div class="tools"><input id="term" type="search" placeholder="search frames (regex)" size="40"> <button id="reset">reset zoom</button></div>
<div id="chart"></div>
<div id="details"></div>
<script id="profile-data" type="application/json">${data}</script>
<script>${inlineSafe(d3)}</script>
<script>${inlineSafe(flamegraph)}</script>
<script>
const colors = ${JSON.stringify(colors)};
const ZOOM_TRANSITION_MS = 500;
const data = JSON.parse(document.getElementById('profile-data').textContent);
const tip = flamegraph.tooltip.defaultFlamegraphTooltip()
  .text((d) => d.data.n + ' — ' + d.data.g + ', ' + d.data.v + ' ticks (' + (100 * d.data.v / data.v).toFixed(1) + ' %)');
const chart = flamegraph.default()
  .width(Math.max(960, document.body.clientWidth - 32))
  .cellHeight(18)
  .minFrameSize(1)
  .sort((a, b) => b.value - a.value)
  .tooltip(tip)
  .setDetailsElement(document.getElementById('details'))
  .setColorMapper((d, original) => (d.highlight ? '#e600e6' : colors[d.data.g] || original))
  .transitionDuration(0); // drawn at once, so a page printed or captured on load shows the frames
d3.select('#chart').datum(data).call(chart);
chart.transitionDuration(ZOOM_TRANSITION_MS);
document.getElementById('term').addEventListener('input', (e) => chart.search(e.target.value));
document.getElementById('reset').addEventListener('click', () => { chart.resetZoom(); });
</script>
</body>
</html>
`;
}
