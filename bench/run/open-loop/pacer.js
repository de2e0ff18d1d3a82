// @ts-check
// Wakes the generator when the next request is due, to well under a millisecond. It never sleeps during a run: Node's
// timers resolve whole milliseconds, a wake-up handed over from another thread waits for the scheduler, and a virtual
// CPU that went idle waits for the hypervisor to run it again — each made requests leave over a millisecond late. So
// the pacer spins on setImmediate from the schedule's start to its end, reading the clock between turns of the event
// loop, which still reads the answers in between. The generator owns its CPU during a run, so the spinning takes
// nothing from the servers; the turns that did no work are timed, so the generator's own work can still be told from
// the spinning. A turn makes no system call and allocates only its setImmediate (so the spinning is timed on the wall
// clock, not as CPU time): garbage brings the collector's pauses into the schedule.

const NANOS_PER_MILLI = 1e6;

/**
 * A clock started now: each call returns the nanoseconds since, on the monotonic clock.
 * @returns {() => number}
 */
export function startClock() {
  const originMs = performance.now();
  return () => (performance.now() - originMs) * NANOS_PER_MILLI;
}

/**
 * Runs a schedule: onTick is called at once and then on every turn of the event loop, and sends what is due, until it
 * returns null.
 * @param {() => number} elapsedNs the schedule's clock
 * @param {(elapsedNs: number) => number | null} onTick sends what is due; returns null once everything has gone
 * @param {() => number} activity a count that grows whenever the generator does work (a send, an answer read)
 * @returns {Promise<{ idleSpinNs: number }>} idleSpinNs: wall time of the turns that neither sent nor read anything
 */
export function pace(elapsedNs, onTick, activity) {
  return new Promise((resolve) => {
    let idleSpinNs = 0;
    let lastNs = elapsedNs();
    let lastActivity = activity();
    const check = () => {
      const nowNs = elapsedNs();
      const done = onTick(nowNs) === null;
      const endNs = elapsedNs();
      if (activity() === lastActivity) idleSpinNs += endNs - lastNs;
      else lastActivity = activity();
      lastNs = endNs;
      if (done) resolve({ idleSpinNs });
      else setImmediate(check);
    };
    check();
  });
}
