import { Writable } from 'node:stream';
import { createProgress } from '../../bench/run/progress.js';

/** A non-terminal stream that keeps what was written, as a CI log would. */
function logStream() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => chunks.join('') };
}

const step = { runtime: 'node@26.10.0', phase: 'round 1/12', target: 'nest-express', scenario: 'hello', plannedSec: 1 };

describe('progress lines', () => {
  it('name the stack a target runs with, so the production stack reads apart from the bare app', () => {
    const log = logStream();
    const progress = createProgress({ stream: log.stream, totalPlannedSec: 10 });
    progress.start({ ...step, stack: 'production' });
    progress.start({ ...step, stack: 'bare' });
    expect(log.text().split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(/^node@26\.10\.0 · round 1\/12 · nest-express@production · hello · \d+s left$/),
      expect.stringMatching(/^node@26\.10\.0 · round 1\/12 · nest-express@bare · hello · /),
    ]);
  });

  it('name the start when the servers are started several times, and leave a single start unsaid', () => {
    const log = logStream();
    const progress = createProgress({ stream: log.stream, totalPlannedSec: 10 });
    progress.start({ ...step, stack: 'bare', start: 2, starts: 3 });
    progress.start({ ...step, stack: 'bare', start: 1, starts: 1 });
    progress.start(step);
    const [several, single, bare] = log.text().split('\n');
    expect(several).toContain(' · nest-express@bare (start 2/3) · hello · ');
    expect(single).toContain(' · nest-express@bare · hello · ');
    expect(bare).toContain(' · nest-express · hello · ');
  });

  it('count down the wall time a budget plans, however much of it went to loads', () => {
    const log = logStream();
    let now = 0;
    const progress = createProgress(
      { stream: log.stream, totalPlannedSec: 155, clock: () => now },
      { wallPlanned: true },
    );
    now = 60_000;
    progress.finish({ ...step, plannedSec: 0.25 });
    progress.start(step);
    expect(log.text()).toContain(' · 1m35s left');
  });
});

describe('progress under --quiet', () => {
  it('writes nothing, neither the steps nor the messages', () => {
    const log = logStream();
    const progress = createProgress({ stream: log.stream, totalPlannedSec: 10, mode: 'silent' });
    progress.start(step);
    progress.finish(step);
    progress.log('node@26.10.0: starting nest-express, nest-fastify');
    progress.done();
    expect(log.text()).toBe('');
  });
});
