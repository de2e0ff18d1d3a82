// @ts-check
/**
 * Turns the ticks node's tick processor resolved (`--prof-process --preprocess`: code entries, and per tick the stack
 * as code-entry ids) into what the reports show: ticks by VM state, self and total ticks per function and per group,
 * the unaccounted share, and the call tree a flame graph draws.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createScriptClassifier } from './groups.js';

/** @typedef {import('./groups.js').GroupId} GroupId */
/**
 * @typedef {{ name: string, type: string, kind?: string }} CodeEntry
 * @typedef {{ tm: number, vm: number, s: number[] }} PreprocessedTick
 * @typedef {{ code: CodeEntry[], ticks: PreprocessedTick[] }} Preprocessed
 * @typedef {{ name: string, group: GroupId }} Frame
 * @typedef {import('../model/profile-record.js').FlameNode} FlameNode
 * @typedef {{ name: string, group: GroupId, selfTicks: number, totalTicks: number }} FunctionTicks
 * @typedef {{
 *   ticks: number,
 *   unaccounted: number,
 *   unaccountedShare: number,
 *   unnamedNative: number,
 *   noPc: number,
 *   vmStates: Record<string, number>,
 *   groups: { id: GroupId, selfTicks: number, totalTicks: number }[],
 *   callerGroups: { id: GroupId, ticks: number }[],
 *   functions: FunctionTicks[],
 *   flame: FlameNode,
 * }} Analysis
 */

/** V8's StateTag (include/v8-unwinder.h), the order tick lines carry it in. */
export const VM_STATES = [
  'JS',
  'GC',
  'PARSER',
  'BYTECODE_COMPILER',
  'COMPILER',
  'OTHER',
  'EXTERNAL',
  'ATOMICS_WAIT',
  'IDLE',
  'LOGGING',
];
const VM_GC = 1;
const VM_IDLE = 8;
/** In the IDLE state the main thread may still be reading sockets; only the wait itself is idle time. */
const EVENT_LOOP_WAIT = /^(?:__)?epoll_p?wait/;
const UNACCOUNTED_ID = -1;
const STACK_STRIDE = 2; // code id, offset
const JS_POSITION = /:\d+:\d+$/;
const SKIPPED = Symbol('skipped frame');
const NATIVE_GROUPS = new Set(['native', 'gc', 'idle', 'unaccounted']);

/**
 * A short, stable label for a script: the part after the last node_modules/, or relative to the working directory.
 * @param {string} url
 */
export function shortScript(url) {
  let file = url;
  if (url.startsWith('file://')) {
    try {
      file = fileURLToPath(url);
    } catch {
      return url;
    }
  }
  const inModules = file.lastIndexOf('/node_modules/');
  if (inModules >= 0) return file.slice(inModules + '/node_modules/'.length);
  if (path.isAbsolute(file)) {
    const relative = path.relative(process.cwd(), file);
    return relative.startsWith('..') ? file : relative;
  }
  return file;
}

/**
 * @param {CodeEntry} entry
 * @param {(url: string) => GroupId | null} classifyScript
 * @returns {{ name: string, group: GroupId | null } | typeof SKIPPED}
 */
function describe(entry, classifyScript) {
  switch (entry.type) {
    case 'JS': {
      // "<function name> <script>:<line>:<column>", the function name empty for anonymous functions.
      const text = entry.name.trim();
      const space = text.lastIndexOf(' ');
      const fn = space >= 0 ? text.slice(0, space) : '(anonymous)';
      const location = space >= 0 ? text.slice(space + 1) : text;
      const script = location.replace(JS_POSITION, '');
      return { name: `${fn} ${shortScript(script)}${location.slice(script.length)}`, group: classifyScript(script) };
    }
    case 'CODE':
      // Bytecode handlers run an interpreted function's bytecode: their ticks are that function's, as in
      // node --prof-process's default (--separate-bytecodes off).
      if (entry.kind === 'BytecodeHandler') return SKIPPED;
      return { name: `${entry.kind ?? 'Code'}: ${entry.name}`, group: 'native' };
    case 'CPP':
      // Embedded builtins V8 did not log by name keep their symbol, Builtins_<name>.
      return {
        name: entry.name.startsWith('Builtins_') ? `Builtin: ${entry.name.slice('Builtins_'.length)}` : entry.name,
        group: 'native',
      };
    case 'SHARED_LIB':
      return { name: `${path.basename(entry.name)} (no symbol)`, group: 'native' };
    default:
      return { name: entry.name, group: 'native' };
  }
}

/**
 * @param {Preprocessed} preprocessed
 * @param {{ classifyScript?: (url: string) => GroupId | null }} [options]
 * @returns {Analysis}
 */
export function analyzeTicks(preprocessed, { classifyScript = createScriptClassifier() } = {}) {
  const described = preprocessed.code.map((entry) => describe(entry, classifyScript));
  // a bytecode handler's tick whose stack walk found no function above it: the interpreter's, by its bytecode
  const interpreter = preprocessed.code.map((entry) =>
    entry.kind === 'BytecodeHandler'
      ? { name: `BytecodeHandler: ${entry.name}`, group: /** @type {GroupId} */ ('native') }
      : null,
  );
  /** @type {Map<string, FunctionTicks>} */
  const functions = new Map();
  /** @type {Map<GroupId, { self: number, total: number }>} */
  const groups = new Map();
  /** @type {Map<GroupId, number>} */
  const callerGroups = new Map();
  /** @type {Record<string, number>} */
  const vmStates = {};
  /** @type {FlameNode} */
  const flame = { n: 'all', g: 'native', v: 0, c: [] };
  let unaccounted = 0;
  let unnamedNative = 0;
  let noPc = 0;

  for (const tick of preprocessed.ticks) {
    const state = VM_STATES[tick.vm] ?? `state ${tick.vm}`;
    vmStates[state] = (vmStates[state] ?? 0) + 1;
    // pc 0: the sampler caught the thread with no program counter to read; only V8's state names where it was
    const noPcSampled = tick.s[0] === UNACCOUNTED_ID && tick.s[1] === 0;
    /** @type {Frame[]} */
    const frames = noPcSampled
      ? [{ name: `(no pc sampled, V8 state ${state})`, group: 'native' }]
      : resolveFrames(tick, described, interpreter);
    if (noPcSampled) noPc += 1;
    if (frames[0].group === 'unaccounted') unaccounted += 1;
    if (tick.s[0] >= 0 && preprocessed.code[tick.s[0]].type === 'SHARED_LIB') unnamedNative += 1;

    const seenFunctions = new Set();
    const seenGroups = new Set();
    frames.forEach((frame, i) => {
      const key = `${frame.group}\0${frame.name}`;
      let fn = functions.get(key);
      if (!fn) functions.set(key, (fn = { name: frame.name, group: frame.group, selfTicks: 0, totalTicks: 0 }));
      if (i === 0) fn.selfTicks += 1;
      if (!seenFunctions.has(key)) {
        seenFunctions.add(key);
        fn.totalTicks += 1;
      }
      let group = groups.get(frame.group);
      if (!group) groups.set(frame.group, (group = { self: 0, total: 0 }));
      if (i === 0) group.self += 1;
      if (!seenGroups.has(frame.group)) {
        seenGroups.add(frame.group);
        group.total += 1;
      }
    });
    const charged = chargedGroup(frames);
    callerGroups.set(charged, (callerGroups.get(charged) ?? 0) + 1);
    addPath(flame, frames);
  }

  const ticks = preprocessed.ticks.length;
  return {
    ticks,
    unaccounted,
    unaccountedShare: ticks ? unaccounted / ticks : 0,
    unnamedNative,
    noPc,
    vmStates,
    groups: [...groups]
      .map(([id, g]) => ({ id, selfTicks: g.self, totalTicks: g.total }))
      .sort((a, b) => b.selfTicks - a.selfTicks),
    callerGroups: [...callerGroups].map(([id, n]) => ({ id, ticks: n })),
    functions: [...functions.values()].sort((a, b) => b.selfTicks - a.selfTicks || b.totalTicks - a.totalTicks),
    flame,
  };
}

/**
 * The tick's frames, leaf first, each with its group settled.
 * @param {PreprocessedTick} tick
 * @param {ReturnType<typeof describe>[]} described
 * @param {(Frame | null)[]} interpreter by code id: a bytecode handler as a frame, for a tick with no other
 * @returns {Frame[]}
 */
function resolveFrames(tick, described, interpreter) {
  /** @type {{ name: string, group: GroupId | null }[]} */
  const frames = [];
  for (let i = 0; i < tick.s.length; i += STACK_STRIDE) {
    const id = tick.s[i];
    if (id === UNACCOUNTED_ID) {
      // Only an unknown pc makes a tick unaccounted (as in node --prof-process); unknown return addresses are dropped.
      if (i === 0) frames.push({ name: '(unaccounted)', group: 'unaccounted' });
      continue;
    }
    const frame = described[id];
    if (frame !== SKIPPED) frames.push(frame);
  }
  if (frames.length === 0) frames.push(interpreter[tick.s[0]] ?? { name: '(unaccounted)', group: 'unaccounted' });

  // Code compiled at run time (new Function, eval) has no script: it counts for the package whose code called it,
  // e.g. fast-json-stringify's serializers for fastify, mysql2's row parsers for the driver.
  let callerGroup = /** @type {GroupId} */ ('app');
  for (let i = frames.length - 1; i >= 0; i -= 1) {
    const group = frames[i].group;
    if (group === null) frames[i] = { ...frames[i], group: callerGroup };
    else if (!NATIVE_GROUPS.has(group)) callerGroup = group;
  }

  // The native frames at the top of a GC tick are the collector; at the top of an idle tick, the event loop waiting.
  const leafGroup =
    tick.vm === VM_GC ? 'gc' : tick.vm === VM_IDLE && EVENT_LOOP_WAIT.test(frames[0].name) ? 'idle' : null;
  if (leafGroup) {
    for (let i = 0; i < frames.length && frames[i].group === 'native'; i += 1)
      frames[i] = { ...frames[i], group: leafGroup };
  }
  return /** @type {Frame[]} */ (frames);
}

/**
 * Who a tick is charged to when native code the JavaScript called (V8's runtime, ICs, node's C++) counts for the
 * nearest JavaScript caller's group: what express's code costs including the V8 work it causes. GC, idle and
 * unaccounted ticks stay as they are.
 * @param {Frame[]} frames leaf first
 * @returns {GroupId}
 */
function chargedGroup(frames) {
  if (frames[0].group !== 'native') return frames[0].group;
  return frames.find((f) => !NATIVE_GROUPS.has(f.group))?.group ?? 'native';
}

/**
 * @param {FlameNode} root
 * @param {Frame[]} frames leaf first
 */
function addPath(root, frames) {
  root.v += 1;
  let node = root;
  for (let i = frames.length - 1; i >= 0; i -= 1) {
    const { name, group } = frames[i];
    let child = node.c.find((c) => c.n === name && c.g === group);
    if (!child) node.c.push((child = { n: name, g: group, v: 0, c: [] }));
    child.v += 1;
    node = child;
  }
}
