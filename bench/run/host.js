// @ts-check
// The host under a run: the CPU's identity, the kernel and virtualisation once per run, and for each timed run the
// time the hypervisor stole and the busy time on the server's core not charged to the server (/proc/stat).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { release } from 'node:os';
import { join } from 'node:path';

const NANOS_PER_SEC = 1e9;
const CACHE_DIR = '/sys/devices/system/cpu/cpu0/cache';

/**
 * @typedef {import('../model/records.js').CpuIdentity} CpuIdentity
 * @typedef {import('../model/records.js').HostIdentity} HostIdentity
 *
 * @typedef {{ busy: number, steal: number, total: number }} CpuTicks
 * @typedef {{ all: CpuTicks, byCpu: Map<string, CpuTicks>, atNs: bigint }} CpuTimes
 *
 * @typedef {import('../model/records.js').HostDuringRun} HostDuringRun
 */

/** @returns {HostIdentity} */
export function hostIdentity() {
  return { cpu: cpuIdentity(), kernel: kernel(), virtualization: virtualization() };
}

/** @returns {CpuIdentity} */
export function cpuIdentity(cpuinfo = readOrNull('/proc/cpuinfo') ?? '') {
  const first = cpuinfo.split(/\n\s*\n/)[0] ?? '';
  const field = (/** @type {string} */ name) =>
    new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(first)?.[1].trim() ?? null;
  const number = (/** @type {string} */ name) => {
    const text = field(name);
    return text === null || Number.isNaN(Number(text)) ? null : Number(text);
  };
  return {
    vendor: field('vendor_id'),
    family: number('cpu family'),
    model: number('model'),
    modelName: field('model name') ?? 'unknown',
    stepping: number('stepping'),
    microcode: field('microcode'),
    caches: caches(),
  };
}

function caches() {
  try {
    return readdirSync(CACHE_DIR)
      .filter((name) => name.startsWith('index'))
      .map((name) => ({
        level: Number(readOrNull(join(CACHE_DIR, name, 'level'))),
        type: readOrNull(join(CACHE_DIR, name, 'type')) ?? 'unknown',
        size: readOrNull(join(CACHE_DIR, name, 'size')) ?? 'unknown',
      }));
  } catch {
    return [];
  }
}

function kernel() {
  const version = readOrNull('/proc/sys/kernel/version');
  return version ? `Linux ${release()} ${version}` : `Linux ${release()}`;
}

function virtualization() {
  const vm = detectVirt('--vm') ?? dmiProduct();
  return {
    vm: vm ?? (/^flags\s*:.*\bhypervisor\b/m.test(readOrNull('/proc/cpuinfo') ?? '') ? 'unnamed hypervisor' : null),
    container: detectVirt('--container'),
  };
}

/** @param {'--vm' | '--container'} kind @returns {string | null} */
function detectVirt(kind) {
  try {
    const detected = execFileSync('systemd-detect-virt', [kind], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return detected === 'none' ? null : detected;
  } catch {
    return null; // absent, or "none" with a non-zero exit
  }
}

function dmiProduct() {
  const names = [readOrNull('/sys/class/dmi/id/sys_vendor'), readOrNull('/sys/class/dmi/id/product_name')];
  const known = names.filter(Boolean);
  return known.length > 0 ? known.join(' ') : null;
}

/** @param {string} path */
function readOrNull(path) {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

/** USER_HZ: the unit of /proc/stat. */
const TICKS_PER_SEC = Number(
  (() => {
    try {
      return execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim();
    } catch {
      return '100';
    }
  })(),
);

/** @returns {CpuTimes | null} */
export function readCpuTimes(stat = readOrNull('/proc/stat')) {
  if (stat === null) return null;
  /** @type {Map<string, CpuTicks>} */
  const byCpu = new Map();
  /** @type {CpuTicks | null} */
  let all = null;
  for (const line of stat.split('\n')) {
    const match = /^cpu(\d*)\s+(.*)$/.exec(line);
    if (!match) continue;
    // user nice system idle iowait irq softirq steal guest guest_nice; guest time is already in user
    const [user, nice, system, idle, iowait, irq, softirq, steal = 0] = match[2].split(/\s+/).map(Number);
    const busy = user + nice + system + irq + softirq;
    const ticks = { busy, steal, total: busy + idle + iowait + steal };
    if (match[1] === '') all = ticks;
    else byCpu.set(match[1], ticks);
  }
  return all ? { all, byCpu, atNs: process.hrtime.bigint() } : null;
}

/**
 * @param {CpuTimes | null} before
 * @param {CpuTimes | null} after
 * @param {{ serverCpu: string | null, serverCpuNs: number | null }} server the core the server is pinned to, if it is
 *   a single core, and the CPU the server used meanwhile
 * @returns {HostDuringRun}
 */
export function hostDuring(before, after, { serverCpu, serverCpuNs }) {
  if (!before || !after) return { stealShare: null, serverCore: null };
  const share = (/** @type {CpuTicks} */ a, /** @type {CpuTicks} */ b) =>
    b.total > a.total ? (b.steal - a.steal) / (b.total - a.total) : 0;
  const coreBefore = serverCpu === null ? undefined : before.byCpu.get(serverCpu);
  const coreAfter = serverCpu === null ? undefined : after.byCpu.get(serverCpu);
  const elapsedNs = Number(after.atNs - before.atNs);
  return {
    stealShare: share(before.all, after.all),
    serverCore:
      serverCpu !== null && coreBefore && coreAfter
        ? {
            cpu: serverCpu,
            stealShare: share(coreBefore, coreAfter),
            otherShare:
              serverCpuNs === null || elapsedNs <= 0
                ? null
                : Math.max(0, ((coreAfter.busy - coreBefore.busy) / TICKS_PER_SEC) * NANOS_PER_SEC - serverCpuNs) /
                  elapsedNs,
          }
        : null,
  };
}
