import { LATE_THRESHOLD_NS, createScheduler } from '../../../../bench/run/open-loop/scheduler.js';

const MS = 1e6;

interface Sent {
  index: number;
  dueNs: number;
  sentAtNs: number;
}

/**
 * A fake clock: the scheduler is woken at each of `wakeAtNs` in turn (the real generator wakes when the scheduler asks,
 * or later when it is busy), and every send is stamped with the fake time it happened at.
 */
function drive(scheduler: ReturnType<typeof createScheduler>, wakeAtNs: (askedNs: number) => number): Sent[] {
  const sent: Sent[] = [];
  let now = 0;
  for (;;) {
    const next = scheduler.dispatchDue(now, (index, dueNs) => sent.push({ index, dueNs, sentAtNs: now }));
    if (next === null) return sent;
    now = Math.max(now, wakeAtNs(next));
  }
}

describe('the open-loop scheduler', () => {
  it('sends rate × duration requests, request i due at i / rate', () => {
    const scheduler = createScheduler({ ratePerSec: 1000, durationSec: 0.05 });
    const sent = drive(scheduler, (asked) => asked);
    expect(scheduler.total).toBe(50);
    expect(sent.map((s) => s.index)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(sent.map((s) => s.dueNs)).toEqual(Array.from({ length: 50 }, (_, i) => i * MS));
    expect(scheduler.lateness()).toEqual({ dispatched: 50, late: 0, share: 0, maxNs: 0 });
  });

  it('never sends a request before it is due, however coarsely the clock wakes it', () => {
    const coarse = 0.3 * MS;
    const sent = drive(
      createScheduler({ ratePerSec: 7000, durationSec: 0.02 }),
      (asked) => Math.ceil(asked / coarse) * coarse,
    );
    expect(sent).toHaveLength(140);
    for (const s of sent) expect(s.sentAtNs).toBeGreaterThanOrEqual(s.dueNs);
  });

  it('after a stall sends the backlog at once with its original due times, and the schedule does not shift', () => {
    const stallFrom = 5 * MS;
    const stallUntil = 55.5 * MS;
    const scheduler = createScheduler({ ratePerSec: 1000, durationSec: 0.1 });
    const sent = drive(scheduler, (asked) => (asked > stallFrom && asked < stallUntil ? stallUntil : asked));
    const backlog = sent.filter((s) => s.sentAtNs === stallUntil);
    // due at 6, 7, ... 55 ms: all sent together when the clock came back, each still stamped with its own due time
    expect(backlog.map((s) => s.dueNs)).toEqual(Array.from({ length: 50 }, (_, i) => (6 + i) * MS));
    // the request after the backlog is due at 56 ms as planned, not 1 ms after the stall ended
    expect(sent.find((s) => s.index === 56)).toEqual({ index: 56, dueNs: 56 * MS, sentAtNs: 56 * MS });
    expect(sent).toHaveLength(100);
  });

  it('counts a request as late only when it left more than 1 ms after its due time', () => {
    const justInTime = createScheduler({ ratePerSec: 100, durationSec: 0.1 });
    drive(justInTime, (asked) => asked + LATE_THRESHOLD_NS);
    expect(justInTime.lateness()).toMatchObject({ dispatched: 10, late: 0, maxNs: LATE_THRESHOLD_NS });

    const tooLate = createScheduler({ ratePerSec: 100, durationSec: 0.1 });
    drive(tooLate, (asked) => asked + LATE_THRESHOLD_NS + 1);
    // the first request goes at time 0, on time; the other nine each wait one nanosecond too long
    expect(tooLate.lateness()).toMatchObject({ dispatched: 10, late: 9, share: 0.9, maxNs: LATE_THRESHOLD_NS + 1 });
  });

  it('refuses a rate or duration that is not above zero', () => {
    expect(() => createScheduler({ ratePerSec: 0, durationSec: 1 })).toThrow(/rate must be above 0/);
    expect(() => createScheduler({ ratePerSec: 10, durationSec: -1 })).toThrow(/duration must be above 0/);
  });
});
