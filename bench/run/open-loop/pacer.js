// @ts-check
// Wakes the generator when the next request is due, to well under a millisecond. Node's timers resolve whole
// milliseconds and fire late on a busy machine, and a wake-up handed over from another thread waits for the scheduler:
// either makes requests leave over a millisecond late. So the pacer sleeps on a timer only until SPIN_LEAD_NS before
// the next request, then spins on setImmediate, reading the clock between turns of the event loop, which still reads
// the answers in between. The generator owns its CPU during a run, so the spinning takes nothing from the servers; the
// time spun with nothing to do is counted, so the generator's own work can still be told from it.

/** How long before a due time the pacer stops sleeping and starts spinning: a timer's granularity and then some. */
export const SPIN_LEAD_NS = 2_000_000;
const NANOS_PER_MILLI = 1e6;

const NANOS_PER_MICRO = 1e3;

function cpuNs() {
  const { user, system } = process.cpuUsage();
  return (user + system) * NANOS_PER_MICRO;
}

/**
 * Nanoseconds since `originNs` on the monotonic clock.
 * @param {bigint} originNs
 */
export function elapsedNs(originNs) {
  return Number(process.hrtime.bigint() - originNs);
}

/**
 * Runs a schedule that started at originNs: onTick is called at once and then as soon as possible after each due time
 * it returns, until it returns null.
 * @param {bigint} originNs process.hrtime.bigint() at the schedule's start
 * @param {(elapsedNs: number) => number | null} onTick sends what is due; returns when the next request is due
 * @param {() => number} activity a count that grows whenever the generator does work (a send, an answer read)
 * @returns {Promise<{ idleSpinNs: number }>} idleSpinNs: CPU time spent between two checks with no work in between
 */
export function pace(originNs, onTick, activity) {
  return new Promise((resolve) => {
    let idleSpinNs = 0;
    /** the process' CPU time when the last check ended, and the activity count then; null after a sleep */
    let lastCheck = /** @type {{ cpuNs: number, activity: number } | null} */ (null);
    const check = () => {
      // CPU time, not wall time: time the scheduler gave to other processes was not spun
      if (lastCheck && activity() === lastCheck.activity) idleSpinNs += cpuNs() - lastCheck.cpuNs;
      const next = onTick(elapsedNs(originNs));
      if (next === null) {
        resolve({ idleSpinNs });
        return;
      }
      const endNs = elapsedNs(originNs);
      const sleepMs = Math.floor((next - endNs - SPIN_LEAD_NS) / NANOS_PER_MILLI);
      if (sleepMs >= 1) {
        lastCheck = null;
        setTimeout(check, sleepMs);
      } else {
        lastCheck = { cpuNs: cpuNs(), activity: activity() };
        setImmediate(check);
      }
    };
    check();
  });
}
