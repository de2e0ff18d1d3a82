// @ts-check
// The open-loop schedule: request i is due at i / rate seconds after the start, whatever became of earlier requests.
// The clock is passed in, so the schedule can be driven by a real clock in the generator and a fake one in tests.

const NANOS_PER_SEC = 1e9;
/** A request that leaves later than this after its due time counts as late. */
export const LATE_THRESHOLD_NS = 1_000_000;
/** A run where more than this share of requests left late measured the generator, not the server. */
export const MAX_LATE_SHARE = 0.01;

/** @typedef {import('../../model/records.js').Lateness} Lateness */

/**
 * @param {{ ratePerSec: number, durationSec: number }} plan
 */
export function createScheduler({ ratePerSec, durationSec }) {
  if (!(ratePerSec > 0)) throw new RangeError(`rate must be above 0 requests per second, got ${ratePerSec}`);
  if (!(durationSec > 0)) throw new RangeError(`duration must be above 0 seconds, got ${durationSec}`);
  const intervalNs = NANOS_PER_SEC / ratePerSec;
  const total = Math.max(1, Math.round(ratePerSec * durationSec));
  let next = 0;
  let late = 0;
  let maxNs = 0;

  /** @param {number} index */
  const dueNs = (index) => index * intervalNs;

  return {
    total,
    intervalNs,
    dueNs,
    /**
     * Dispatch every request due by `elapsedNs` (time since the start), in order, each stamped with its due time: a
     * generator that fell behind sends its backlog at once and never shifts the schedule, so a stalled server cannot
     * slow the offered rate (the coordinated omission of closed-loop generators).
     * @param {number} elapsedNs
     * @param {(index: number, dueNs: number) => void} send
     * @returns {number | null} nanoseconds after the start when the next request is due, null once all have gone
     */
    dispatchDue(elapsedNs, send) {
      while (next < total && dueNs(next) <= elapsedNs) {
        const lateNs = elapsedNs - dueNs(next);
        if (lateNs > LATE_THRESHOLD_NS) late++;
        if (lateNs > maxNs) maxNs = lateNs;
        send(next, dueNs(next));
        next++;
      }
      return next < total ? dueNs(next) : null;
    },
    /** @returns {Lateness} */
    lateness() {
      return { dispatched: next, late, share: next ? late / next : 0, maxNs };
    },
  };
}
