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
const UTIME = 14 - 3;
const STIME = 15 - 3;
const CUTIME = 16 - 3;
const CSTIME = 17 - 3;
const NANOS_PER_SEC = 1e9;

/** @param {string} path a process's or a thread's directory under /proc */
function cpuTicks(path) {
  const fields = statFields(path);
  return Number(fields[UTIME]) + Number(fields[STIME]);
}

/**
 * Nanoseconds of CPU a process has run so far, or null when it is gone: its live threads' schedstat (nanoseconds, where
 * /proc/<pid>/stat counts 10 ms ticks, which a 0.5 s run at a few thousand requests cannot resolve), plus, in ticks,
 * what its ended threads ran — the process's ticks less its live threads' — so that a thread ending mid-run does not
 * take its earlier time out of the total (Bun's servers start and end threads under load).
 * @param {number} pid
 */
export function processCpuNs(pid) {
  try {
    let liveNs = 0;
    let liveTicks = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const schedstat = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8');
        liveTicks += cpuTicks(`${pid}/task/${tid}`);
        liveNs += Number(schedstat.split(' ')[0]);
      } catch {
        // the thread ended between the listing and the read: the process's ticks below count it
      }
    }
    const endedTicks = Math.max(0, cpuTicks(String(pid)) - liveTicks);
    return liveNs + (endedTicks / CLOCK_TICKS_PER_SEC) * NANOS_PER_SEC;
  } catch {
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
