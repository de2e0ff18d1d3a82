// @ts-check
/**
 * Differential profiles: two saved profile summaries (.json, as the bench and profile:process write them) of the same
 * target and scenario on two runtimes, runs or stacks — which layers, groups and functions gained or lost share of
 * the busy ticks, and in µs of CPU per request (each profile's measured CPU per request × its share) — and the newer
 * profile's call tree annotated with the older's values for the differential flame graph.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

import { UsageError } from '../errors.js';
import { GROUPS } from './groups.js';
import { LAYERS, layerTicks } from './layers.js';

/** @typedef {import('./process-log.js').ProfileSummary} ProfileSummary */
/** @typedef {import('./tick-analysis.js').FlameNode} FlameNode */
/**
 * @typedef {{ file: string, name: string, summary: ProfileSummary }} SavedProfile name: the file's base name
 * @typedef {import('../model/profile-record.js').Side} Side
 * @typedef {import('../model/profile-record.js').DiffRow} DiffRow
 * @typedef {import('../model/profile-record.js').DiffSide} DiffSide
 * @typedef {import('../model/profile-record.js').DiffFlameNode} DiffFlameNode
 * @typedef {import('../model/profile-record.js').ProfileDiff} ProfileDiff
 * @typedef {import('../model/profile-record.js').DiffSummary} DiffSummary
 */

const PROFILE_EXTENSIONS = ['.json', '.v8.log', '.txt', '.html'];
/** A JavaScript function's position in its script: it moves between versions of the same file, so it is not compared. */
const JS_POSITION = /:\d+:\d+$/;
export const TOP_FUNCTIONS = 20;

/**
 * The .json of a saved profile, from any of its files or its path without extension.
 * @param {string} given
 */
export function profileJsonPath(given) {
  const ext = PROFILE_EXTENSIONS.find((e) => given.endsWith(e));
  const base = ext ? given.slice(0, -ext.length) : given;
  return `${base}.json`;
}

/**
 * @param {string} given a profile's file (or path without extension)
 * @returns {SavedProfile}
 */
export function loadProfile(given) {
  const file = profileJsonPath(given);
  if (!existsSync(file)) throw new UsageError(`no saved profile at ${given} (looked for ${file})`);
  let summary;
  try {
    summary = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`${file} is not JSON: ${/** @type {Error} */ (error).message}`);
  }
  if (!Array.isArray(summary?.functions) || typeof summary?.ticks?.inWindow !== 'number')
    throw new UsageError(`${file} is not a profile summary (no functions or ticks): give a .json the bench wrote`);
  if (!summary.flame)
    throw new UsageError(
      `${file} has no call tree (written before profiles kept one): run npm run profile:process on its .v8.log first`,
    );
  return { file, name: path.basename(file, '.json'), summary };
}

/**
 * The profiles to compare: two profiles, or two directories, each profile name found in both.
 * @param {string} a @param {string} b
 * @returns {{ older: SavedProfile, newer: SavedProfile }[]}
 */
export function profilePairs(a, b) {
  const aIsDir = isDirectory(a);
  if (aIsDir !== isDirectory(b))
    throw new UsageError(`give two profiles or two directories of profiles, not one of each: ${a} ${b}`);
  if (!aIsDir) return [{ older: loadProfile(a), newer: loadProfile(b) }];
  // a profile's .json has its .txt report beside it; results.json and the like do not
  const names = (/** @type {string} */ dir) =>
    readdirSync(dir).filter((file) => file.endsWith('.json') && existsSync(path.join(dir, `${file.slice(0, -5)}.txt`)));
  const inB = new Set(names(b));
  const shared = [...names(a)].filter((file) => inB.has(file)).sort();
  if (shared.length === 0) throw new UsageError(`${a} and ${b} have no profile of the same name in common`);
  return shared.map((file) => ({ older: loadProfile(path.join(a, file)), newer: loadProfile(path.join(b, file)) }));
}

/** @param {string} p */
function isDirectory(p) {
  if (!existsSync(p) && !existsSync(profileJsonPath(p))) throw new UsageError(`not found: ${p}`);
  return existsSync(p) && statSync(p).isDirectory();
}

/** @param {string} name */
const comparable = (name) => name.replace(JS_POSITION, '');

/**
 * @param {SavedProfile} profile
 * @returns {DiffSide}
 */
function sideOf({ file, summary }) {
  const context = summary.context ?? null;
  const runtime = context ? `${context.runtime.name} ${context.runtime.version}` : runtimeFromTitle(summary.title);
  return {
    label: context ? `${context.runtime.name} ${context.runtime.version}` : path.basename(path.dirname(file)),
    runtime,
    v8Version: summary.v8Version,
    cpuUsPerRequest: context?.measured?.cpuUsPerRequest ?? null,
    busyTicks: busyTicks(summary),
    neighbourCpuShare: context?.measured?.neighbourCpuShare ?? null,
    loadAverage: context?.loadAverage ?? null,
    file,
  };
}

/**
 * Two profiles on one runtime (two stacks, two targets, two runs) are told apart by name, else by directory.
 * @param {DiffSide} older @param {DiffSide} newer @param {SavedProfile} olderProfile @param {SavedProfile} newerProfile
 * @returns {[DiffSide, DiffSide]}
 */
function distinctLabels(older, newer, olderProfile, newerProfile) {
  if (older.label !== newer.label) return [older, newer];
  const [a, b] =
    olderProfile.name !== newerProfile.name
      ? [olderProfile.name, newerProfile.name]
      : [path.basename(path.dirname(olderProfile.file)), path.basename(path.dirname(newerProfile.file))];
  return [
    { ...older, label: `${a} (${older.label})` },
    { ...newer, label: `${b} (${newer.label})` },
  ];
}

/** "… on node@24 (24.21.0)" → "node 24.21.0"; a title profile:process wrote names no runtime. @param {string} title */
function runtimeFromTitle(title) {
  const match = / on (\w+)@\S+ \(([^)]+)\)$/.exec(title);
  return match ? `${match[1]} ${match[2]}` : 'runtime unknown';
}

/** Ticks that were CPU: all but the event loop's waits. @param {ProfileSummary} summary */
function busyTicks(summary) {
  return (summary.layers ?? layerTicks(summary.functions)).reduce((sum, layer) => sum + layer.ticks, 0);
}

/**
 * @param {number} ticks @param {DiffSide} side
 * @returns {Side}
 */
function sideValue(ticks, side) {
  const share = side.busyTicks ? ticks / side.busyTicks : 0;
  return { ticks, share, us: side.cpuUsPerRequest === null ? null : share * side.cpuUsPerRequest };
}

/**
 * Rows for every key in either profile, largest change first (in µs when both sides have it, else in share).
 * @param {Map<string, { label: string, group?: string, older: number, newer: number }>} ticks
 * @param {DiffSide} older @param {DiffSide} newer
 * @returns {DiffRow[]}
 */
function diffRows(ticks, older, newer) {
  return [...ticks]
    .map(([key, t]) => {
      const a = sideValue(t.older, older);
      const b = sideValue(t.newer, newer);
      return {
        key,
        label: t.label,
        ...(t.group ? { group: t.group } : {}),
        older: a,
        newer: b,
        deltaShare: b.share - a.share,
        deltaUs: a.us === null || b.us === null ? null : b.us - a.us,
        presence: /** @type {DiffRow['presence']} */ (t.older === 0 ? 'added' : t.newer === 0 ? 'removed' : 'both'),
      };
    })
    .sort((x, y) => Math.abs(y.deltaUs ?? y.deltaShare) - Math.abs(x.deltaUs ?? x.deltaShare));
}

/**
 * @param {ProfileSummary} summary
 * @returns {Map<string, { label: string, group: string, ticks: number }>} self ticks by function, positions dropped
 */
function functionTicks(summary) {
  const out = new Map();
  for (const fn of summary.functions) {
    if (fn.group === 'idle' || fn.selfTicks === 0) continue;
    const label = comparable(fn.name);
    const key = `${fn.group}\0${label}`;
    const entry = out.get(key) ?? { label, group: fn.group, ticks: 0 };
    entry.ticks += fn.selfTicks;
    out.set(key, entry);
  }
  return out;
}

/**
 * @param {SavedProfile} olderProfile
 * @param {SavedProfile} newerProfile
 * @param {{ top?: number }} [options] top: how many functions to keep
 * @returns {ProfileDiff}
 */
export function diffProfiles(olderProfile, newerProfile, { top = TOP_FUNCTIONS } = {}) {
  const [older, newer] = distinctLabels(sideOf(olderProfile), sideOf(newerProfile), olderProfile, newerProfile);
  const a = olderProfile.summary;
  const b = newerProfile.summary;

  const layerLabels = new Map(LAYERS.map((l) => [l.id, l.label]));
  const layerMap = new Map();
  const olderLayers = new Map((a.layers ?? layerTicks(a.functions)).map((l) => [l.id, l.ticks]));
  for (const layer of b.layers ?? layerTicks(b.functions))
    layerMap.set(layer.id, {
      label: layerLabels.get(layer.id) ?? layer.id,
      older: olderLayers.get(layer.id) ?? 0,
      newer: layer.ticks,
    });
  const layers = diffRows(layerMap, older, newer).sort(
    (x, y) => LAYERS.findIndex((l) => l.id === x.key) - LAYERS.findIndex((l) => l.id === y.key),
  );

  const groupLabels = new Map(GROUPS.map((g) => [/** @type {string} */ (g.id), g.label]));
  const groupMap = new Map();
  for (const [side, summary] of /** @type {const} */ ([
    ['older', a],
    ['newer', b],
  ])) {
    for (const g of summary.groups) {
      if (g.id === 'idle') continue;
      const entry = groupMap.get(g.id) ?? { label: groupLabels.get(g.id) ?? g.id, older: 0, newer: 0 };
      entry[side] = g.selfTicks;
      groupMap.set(g.id, entry);
    }
  }
  const groups = diffRows(groupMap, older, newer);

  const fnMap = new Map();
  for (const [side, summary] of /** @type {const} */ ([
    ['older', a],
    ['newer', b],
  ])) {
    for (const [key, fn] of functionTicks(summary)) {
      const entry = fnMap.get(key) ?? { label: fn.label, group: fn.group, older: 0, newer: 0 };
      entry[side] = fn.ticks;
      fnMap.set(key, entry);
    }
  }
  const functions = diffRows(fnMap, older, newer);

  return {
    name: olderProfile.name === newerProfile.name ? newerProfile.name : `${olderProfile.name} → ${newerProfile.name}`,
    older,
    newer,
    layers,
    groups,
    functions: functions.slice(0, top),
    functionsCompared: functions.length,
    newerFlame: annotateFlame(b.flame, a.flame, newer.busyTicks, older.busyTicks, 1),
    olderFlame: annotateFlame(a.flame, b.flame, older.busyTicks, newer.busyTicks, -1),
  };
}

/** @param {FlameNode} node */
const selfTicksOf = (node) => node.v - node.c.reduce((sum, c) => sum + c.v, 0);

/** V8's code objects as tick-analysis.js names them ("Builtin: …", "Stub: …"). */
const V8_CODE_FRAME = /^[A-Z][\w-]*: /;

/**
 * Between two runtimes the builtins that call into JavaScript change (one calls through CallApiCallbackOptimized,
 * the other through CallFunction_…): a builtin frame that calls on is not part of the path frames are matched by, so
 * the JavaScript above it still finds its counterpart.
 * @param {FlameNode} node
 */
const transparent = (node) => node.g === 'native' && node.c.length > 0 && V8_CODE_FRAME.test(node.n);

/** @param {FlameNode} node @param {string} parentPath */
const frameKey = (node, parentPath) => `${parentPath}\u0001${node.g}\u0000${comparable(node.n)}`;

/**
 * Total and self ticks by frame path (positions dropped, calling builtins skipped), summed where paths coincide.
 * @param {FlameNode} tree
 * @returns {Map<string, { v: number, s: number }>}
 */
function indexTree(tree) {
  /** @type {Map<string, { v: number, s: number }>} */
  const index = new Map();
  /** @type {[FlameNode, string][]} */
  const stack = [[tree, '']];
  while (stack.length) {
    const [node, parentPath] = /** @type {[FlameNode, string]} */ (stack.pop());
    const key = frameKey(node, parentPath);
    const entry = index.get(key) ?? { v: 0, s: 0 };
    entry.v += node.v;
    entry.s += selfTicksOf(node);
    index.set(key, entry);
    for (const child of node.c) stack.push([child, transparent(node) ? parentPath : key]);
  }
  return index;
}

/**
 * A call tree with, on each frame, the other tree's ticks on the same path (frames matched by name without JavaScript
 * positions and by group, calling builtins skipped) and the change in self share: newer − older, whichever of the two
 * this tree is.
 * @param {FlameNode} tree @param {FlameNode} other
 * @param {number} treeBusy @param {number} otherBusy
 * @param {1 | -1} direction 1: tree is the newer profile
 * @returns {DiffFlameNode}
 */
export function annotateFlame(tree, other, treeBusy, otherBusy, direction) {
  const otherIndex = indexTree(other);
  /** @param {FlameNode} node @param {string} parentPath @returns {DiffFlameNode} */
  const annotate = (node, parentPath) => {
    const key = frameKey(node, parentPath);
    const match = otherIndex.get(key) ?? null;
    const self = selfTicksOf(node);
    const selfShare = treeBusy ? self / treeBusy : 0;
    const otherShare = match && otherBusy ? match.s / otherBusy : 0;
    return {
      n: node.n,
      g: node.g,
      v: node.v,
      s: self,
      o: match ? match.v : null,
      os: match ? match.s : null,
      d: direction * (selfShare - otherShare),
      c: node.c.map((child) => annotate(child, transparent(node) ? parentPath : key)),
    };
  };
  return annotate(tree, '');
}
