import { pace } from '../../../../bench/run/open-loop/pacer.js';

/** A clock that moves 1 µs each time it is read. */
function fakeClock() {
  let now = 0;
  return () => (now += 1000);
}

/** onTick for `turns` turns of the event loop, then done; `work` says whether a turn sent or read something. */
async function spin(turns: number, work: (turn: number) => boolean) {
  const clock = fakeClock();
  let turn = 0;
  let activity = 0;
  const startNs = clock();
  const { idleSpinNs } = await pace(
    clock,
    () => {
      turn++;
      if (work(turn)) activity++;
      return turn < turns ? turn : null;
    },
    () => activity,
  );
  return { idleSpinNs, spunNs: clock() - startNs, turn };
}

describe('the open-loop pacer', () => {
  it('turns the event loop until the schedule says it is done', async () => {
    expect((await spin(50, () => false)).turn).toBe(50);
  });

  it('counts as idle spinning only the turns that neither sent nor read anything', async () => {
    const idle = await spin(50, () => false);
    expect(idle.idleSpinNs).toBeGreaterThan(0.9 * idle.spunNs);
    expect((await spin(50, () => true)).idleSpinNs).toBe(0);
    const half = await spin(50, (turn) => turn % 2 === 0);
    expect(half.idleSpinNs).toBeGreaterThan(0.3 * idle.idleSpinNs);
    expect(half.idleSpinNs).toBeLessThan(0.7 * idle.idleSpinNs);
  });
});
