// @ts-check
// What a process cost, read from Linux /proc: CPU time (schedstat, in nanoseconds) and peak resident memory (VmHWM).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const CLOCK_TICKS_PER_SEC = readClockTicks();
const BYTES_PER_KIB = 1024;
/** Writing this to /proc/<pid>/clear_refs resets VmHWM to the current RSS (Linux ≥ 4.0). */
const RESET_PEAK_RSS = '5';

function readClockTicks() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100; // USER_HZ on every mainstream Linux build
  }
}

/**
 * Fields of /proc/<pid>/stat after the command name, which is in parentheses and may itself contain spaces.
 * @param {string} pid
 */
function statFields(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

// Indexes into statFields(): field numbers from proc(5) minus 3 (pid and comm are cut off, and proc(5) counts from 1).
const CUTIME = 16 - 3;
const CSTIME = 17 - 3;
const STARTTIME = 22 - 3;

/**
 * What processCpuNs saw of each process last time: its start time (a reused pid starts afresh), each live thread's
 * nanoseconds, and the last-seen nanoseconds of the threads that have ended since.
 * @type {Map<number, { startTime: string, threadNs: Map<string, number>, endedNs: number }>}
 */
const seen = new Map();

/**
 * Nanoseconds of CPU a process has run so far, or null when it is gone: its live threads' schedstat (nanoseconds, where
 * /proc/<pid>/stat counts 10 ms ticks, which a 0.5 s run at a few thousand requests cannot resolve), plus what its
 * ended threads had run when this process last read them — so a thread ending mid-run does not take its earlier time
 * out of the total (Bun's servers start and end threads under load). What a thread ran after the last reading before
 * it ended is not counted: an undercount, never a negative difference. The process's own ticks, which do count ended
 * threads, differ from the sum of its threads' by truncation, up to two ticks per thread, enough to turn a short
 * run's CPU negative.
 * @param {number} pid
 */
export function processCpuNs(pid) {
  try {
    const startTime = statFields(String(pid))[STARTTIME];
    const before = seen.get(pid);
    const known = before?.startTime === startTime ? before : { startTime, threadNs: new Map(), endedNs: 0 };
    /** @type {Map<string, number>} */
    const threadNs = new Map();
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        threadNs.set(tid, Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
      } catch {
        // the thread ended between the listing and the read: its last reading is counted below
      }
    }
    let { endedNs } = known;
    for (const [tid, ns] of known.threadNs) if (!threadNs.has(tid)) endedNs += ns;
    seen.set(pid, { startTime, threadNs, endedNs });
    let liveNs = 0;
    for (const ns of threadNs.values()) liveNs += ns;
    return liveNs + endedNs;
  } catch {
    seen.delete(pid);
    return null;
  }
}

/**
 * CPU seconds used by this process's children that have ended and been reaped. A generator spawned for one run
 * (wrk, ab) is measured as the growth of this value across the run: it is exact for the whole child, up to its exit.
 */
export function reapedChildrenCpuSec() {
  const fields = statFields('self');
  return (Number(fields[CUTIME]) + Number(fields[CSTIME])) / CLOCK_TICKS_PER_SEC;
}

/**
 * Start a new peak-RSS window; returns false when the kernel refused, so the peak then covers the process's life.
 * @param {number} pid
 */
export function resetPeakRss(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, RESET_PEAK_RSS);
    return true;
  } catch {
    return false;
  }
}

/**
 * Peak resident set size in MiB (VmHWM), or null when the process is gone.
 * @param {number} pid
 */
export function peakRssMiB(pid) {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / BYTES_PER_KIB : null;
  } catch {
    return null;
  }
}
