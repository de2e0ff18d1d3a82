// @ts-check
/**
 * CPU per request by layer, for the bench report: each profiled pair's measured CPU per request (the timed runs'
 * median) split by its profile's shares of busy ticks per layer — a stacked bar per target × runtime and a table.
 */
import { DASH, formatPercent } from '../report/format.js';
import { stackedBars } from '../report/charts.js';
import { BARE } from '../model/stacks.js';
import { LAYERS } from './layers.js';

/** @typedef {import('./profile-targets.js').ProfileRecord} ProfileRecord */
/** @typedef {import('../report/rich-table.js').Table} Table */

/** @param {ProfileRecord} record */
const pairLabel = (record) =>
  `${record.target}${record.stack && record.stack !== BARE ? `@${record.stack}` : ''} · ${record.scenario}`;
/** @param {ProfileRecord} record */
const runtimeLabel = (record) => `${record.runtime.name} ${record.runtime.version}`;

/**
 * Profiles with layers and a measured CPU per request, pair by pair, each pair's runtimes together.
 * @param {ProfileRecord[]} profiles
 */
function layered(profiles) {
  const ok = profiles.filter((r) => r.summary?.layers && r.measured);
  const pairs = [...new Set(ok.map(pairLabel))];
  return pairs.flatMap((pair) => ok.filter((r) => pairLabel(r) === pair));
}

/** @param {ProfileRecord} record @returns {{ id: string, label: string, color: string, us: number, share: number }[]} */
function layerCosts(record) {
  const cpu = record.measured?.cpuUsPerRequest ?? 0;
  const layers = record.summary?.layers ?? [];
  return LAYERS.map((l) => {
    const share = layers.find((x) => x.id === l.id)?.share ?? 0;
    return { id: l.id, label: l.label, color: l.color, us: share * cpu, share };
  });
}

export const LAYER_INTRO =
  'CPU per request by layer: the timed runs’ median CPU per request (all the server’s threads, schedstat) split by ' +
  'the profile’s shares of busy ticks by the layer of the code each tick was in (self time: V8’s ICs and runtime ' +
  'count for V8, not for the JavaScript that called them; libuv’s threads are not sampled, their CPU is spread in ' +
  'proportion).';

/**
 * @param {ProfileRecord[]} profiles
 * @returns {Table | null}
 */
export function layerTable(profiles) {
  const records = layered(profiles);
  if (records.length === 0) return null;
  return {
    intro: LAYER_INTRO,
    headers: ['pair', 'runtime', 'V8', 'CPU µs/req', ...LAYERS.map((l) => l.label)],
    align: ['left', 'left', 'left', 'right', ...LAYERS.map(() => /** @type {const} */ ('right'))],
    rows: records.map((r) => [
      pairLabel(r),
      runtimeLabel(r),
      r.summary?.v8Version ?? DASH,
      (r.measured?.cpuUsPerRequest ?? 0).toFixed(1),
      ...layerCosts(r).map((l) => `${l.us.toFixed(1)} (${formatPercent(l.share, 0)})`),
    ]),
  };
}

/**
 * @param {ProfileRecord[]} profiles
 * @returns {string} an SVG, or '' when no profile has a measured CPU per request
 */
export function layerChart(profiles) {
  const records = layered(profiles);
  if (records.length === 0) return '';
  return stackedBars({
    rows: records.map((r) => ({
      label: `${pairLabel(r)} — ${runtimeLabel(r)}`,
      segments: layerCosts(r).map((l) => ({ name: l.label, value: l.us, color: l.color })),
      note: 'µs',
    })),
    xLabel: 'µs of CPU per request, by layer',
  });
}
