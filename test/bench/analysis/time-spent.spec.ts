import { timeSpent } from '../../../bench/analysis/time-spent.js';
import { ROUNDS, results } from '../support/synthetic-results.js';

/** The synthetic run (2 × ROUNDS timed runs of 0.5 s each) ended `wallSec` after it started. */
function finishedAfter(wallSec: number) {
  const run = results(() => 2);
  run.finishedAt = new Date(Date.parse(run.startedAt) + wallSec * 1000).toISOString();
  return run;
}

describe('where a run’s wall time went', () => {
  it('is unknown while the run has no end', () => {
    expect(timeSpent(results(() => 2))).toBeNull();
  });

  it('counts the timed runs that measured something, and leaves the rest to the other work', () => {
    const run = finishedAfter(60);
    run.runs[0].status = 'failed';
    const timedSec = (2 * ROUNDS - 1) * 0.5;
    expect(timeSpent(run)).toEqual({
      wallSec: 60,
      timedSec,
      warmUpSec: 0,
      settleSec: 0,
      bootSec: 0,
      otherSec: 60 - timedSec,
    });
  });

  it('shares a slot’s wall time among the runs loaded together in it', () => {
    const run = finishedAfter(60);
    for (const record of run.runs) record.together = ['nest-express@bare', 'nest-fastify@bare'];
    expect(timeSpent(run)?.timedSec).toBe(ROUNDS * 0.5);
  });

  it('counts the waits for the servers to settle, and the boots of every start after the first', () => {
    const run = finishedAfter(60);
    run.runs[0].settle = { waitedMs: 1500, settled: true, inFlight: 0, cpuShare: 0, busiest: null };
    run.startBlocks = [
      { runtime: 'node@20', start: 0, rounds: 6, choice: 'steady', bootSec: 3 },
      { runtime: 'node@20', start: 1, rounds: 6, choice: 'steady', bootSec: 2 },
    ];
    expect(timeSpent(run)).toMatchObject({ settleSec: 1.5, bootSec: 2 });
  });
});
