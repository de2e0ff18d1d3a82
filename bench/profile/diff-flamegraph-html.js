// @ts-check
/**
 * A differential flame graph page, after Brendan Gregg's: the newer profile's call tree, each frame coloured by how
 * its self share of the busy ticks changed against the older profile — red grew, blue shrank, deeper for a bigger
 * change, hatched where the older profile has no such frame. A button shows the older tree instead (hatched: gone in
 * the newer). d3 and d3-flame-graph inlined: opens from disk with no network.
 */
import { escapeHtml, formatPercent } from '../report/format.js';
import { htmlTable } from '../report/rich-table.js';
import { diffFacts, diffTables, diffTitle } from './diff-tables.js';
import { flamePageHead, inlineSafe, loadAssets } from './flamegraph-html.js';

/** @typedef {import('./diff.js').ProfileDiff} ProfileDiff */
/** @typedef {import('./diff.js').DiffFlameNode} DiffFlameNode */

/**
 * The change that gets full colour: the largest on either tree, so that both views share one scale.
 * @param {DiffFlameNode[]} roots
 */
function largestChange(roots) {
  let largest = 0;
  const stack = [...roots];
  while (stack.length) {
    const node = /** @type {DiffFlameNode} */ (stack.pop());
    largest = Math.max(largest, Math.abs(node.d));
    stack.push(...node.c);
  }
  return largest;
}

/** The page's own style, beside the flame graph's (flamePageHead). */
const DIFF_PAGE_STYLE = `.ramp { display: inline-block; width: 180px; height: 12px; vertical-align: -2px; background: linear-gradient(to right, rgb(0,0,255), rgb(235,235,235), rgb(255,0,0)); }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 3px 6px; }
td.right { text-align: right; }
code { font-size: 12px; word-break: break-all; }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 5px; border-radius: 2px; }`;

/** The page's script: the chart coloured by each frame's change, the view switched between the two profiles. */
const DIFF_PAGE_SCRIPT = `const ZOOM_TRANSITION_MS = 500;
const UNCHANGED = 235;
const diff = JSON.parse(document.getElementById('diff-data').textContent);
let view = location.hash === '#older' ? 'older' : 'newer'; // #older: open on the older profile
const other = () => (view === 'newer' ? 'older' : 'newer');
const pct = (ticks, busy) => (busy ? (100 * ticks) / busy : 0);
const us = (ticks, side) => (side.cpu === null || !side.busy ? '' : ', ' + ((ticks / side.busy) * side.cpu).toFixed(2) + ' µs/req');
function describe(d) {
  const here = diff.sides[view];
  const there = diff.sides[other()];
  const n = d.data;
  const value = (label, side, self, total) =>
    label + ' self ' + pct(self, side.busy).toFixed(2) + ' %' + us(self, side) + ', total ' + pct(total, side.busy).toFixed(1) + ' %';
  const mine = value(here.label, here, n.s, n.v);
  const theirs = n.o === null ? there.label + ': no such frame' : value(there.label, there, n.os, n.o);
  const [older, newer] = view === 'newer' ? [theirs, mine] : [mine, theirs];
  return n.n + ' (' + n.g + ') — ' + older + ' → ' + newer + '; Δ self ' + (n.d >= 0 ? '+' : '') + (100 * n.d).toFixed(2) + ' pts';
}
function color(d) {
  if (d.highlight) return '#e600e6';
  const n = d.data;
  if (n.o === null) return view === 'newer' ? 'url(#added)' : 'url(#removed)';
  const k = Math.min(1, Math.abs(n.d) / diff.scale);
  const fade = Math.round(UNCHANGED * (1 - k));
  return n.d >= 0 ? 'rgb(255,' + fade + ',' + fade + ')' : 'rgb(' + fade + ',' + fade + ',255)';
}
const tip = flamegraph.tooltip.defaultFlamegraphTooltip().text(describe);
const chart = flamegraph.default()
  .width(Math.max(960, document.body.clientWidth - 32))
  .cellHeight(18)
  .minFrameSize(1)
  .sort((a, b) => b.value - a.value)
  .tooltip(tip)
  .label(describe)
  .setDetailsElement(document.getElementById('details'))
  .setColorMapper(color)
  .transitionDuration(0); // drawn at once, so a page printed or captured on load shows the frames
function draw() {
  document.getElementById('showing').textContent =
    'showing ' + diff.sides[view].label + ' (frame width: its ticks)';
  document.getElementById('view').textContent = 'show ' + diff.sides[other()].label;
  d3.select('#chart').selectAll('*').remove();
  chart.transitionDuration(0);
  d3.select('#chart').datum(diff[view]).call(chart);
  chart.transitionDuration(ZOOM_TRANSITION_MS);
}
draw();
document.getElementById('view').addEventListener('click', () => { view = other(); draw(); });
document.getElementById('term').addEventListener('input', (e) => chart.search(e.target.value));
document.getElementById('reset').addEventListener('click', () => { chart.resetZoom(); });
`;

/** @param {ProfileDiff} diff */
export function renderDiffFlameGraphHtml(diff) {
  const { d3, flamegraph } = loadAssets();
  const title = diffTitle(diff);
  const scale = largestChange([diff.newerFlame, diff.olderFlame]) || 1;
  const side = (/** @type {import('./diff.js').DiffSide} */ s) => ({
    label: s.label,
    busy: s.busyTicks,
    cpu: s.cpuUsPerRequest,
  });
  const data = JSON.stringify({
    newer: diff.newerFlame,
    older: diff.olderFlame,
    scale,
    sides: { newer: side(diff.newer), older: side(diff.older) },
  }).replace(/</g, '\\u003c');
  const full = formatPercent(scale, 1);
  return `${flamePageHead(title, DIFF_PAGE_STYLE)}
<body>
<svg width="0" height="0" style="position:absolute"><defs>
<pattern id="added" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#ffd9d9"/><rect width="3" height="6" fill="#e00000"/></pattern>
<pattern id="removed" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#d9d9ff"/><rect width="3" height="6" fill="#0000e0"/></pattern>
</defs></svg>
<h1>${escapeHtml(title)}</h1>
${diffFacts(diff)
  .map((line) => `<p class="fact">${escapeHtml(line)}</p>`)
  .join('\n')}
<div class="legend">
<span>shrank <span class="ramp"></span> grew</span>
<span>(change in a frame's self share of the busy ticks, newer − older; full colour at ±${escapeHtml(full)})</span>
<span class="key"><i style="background:repeating-linear-gradient(45deg,#e00000 0 3px,#ffd9d9 3px 6px)"></i>not in the older profile</span>
<span class="key"><i style="background:repeating-linear-gradient(45deg,#0000e0 0 3px,#d9d9ff 3px 6px)"></i>not in the newer profile (older view)</span>
</div>
<div class="tools"><button id="view">show the older profile</button> <span id="showing"></span> · <input id="term" type="search" placeholder="search frames (regex)" size="36"> <button id="reset">reset zoom</button></div>
<div id="chart"></div>
<div id="details"></div>
${diffTables(diff)
  .map((table) => htmlTable(table))
  .join('\n')}
<script id="diff-data" type="application/json">${data}</script>
<script>${inlineSafe(d3)}</script>
<script>${inlineSafe(flamegraph)}</script>
<script>
${DIFF_PAGE_SCRIPT}</script>
</body>
</html>
`;
}
