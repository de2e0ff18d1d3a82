import { Writable } from 'node:stream';
import type { Glance } from '../../../bench/model/design.js';
import { measureBudget } from '../../../bench/run/designs/budget.js';
import { measureRounds } from '../../../bench/run/designs/rounds.js';
import { measureStarts } from '../../../bench/run/designs/server-starts.js';
import { createProgress } from '../../../bench/run/progress.js';
import { answered, fakeSession, HELLO_PAIR, RUNTIME } from '../support/fake-session.js';

/** What a terminal gets before the live line is written again. */
const CLEAR_LINE = '\r\u001b[2K';

/** A stream that keeps what was written: a CI log, or with `terminal` a terminal as wide as `columns`. */
function logStream({ terminal = false } = {}) {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  Object.assign(stream, { isTTY: terminal, columns: 200 });
  return {
    stream: stream as unknown as NodeJS.WriteStream,
    text: () => chunks.join(''),
    /** what a terminal shows in turn: each rewrite of the live line, and each line that stays */
    shown: () =>
      chunks
        .join('')
        .split(CLEAR_LINE)
        .flatMap((part) => part.split('\n'))
        .filter(Boolean),
    lines: () => chunks.join('').split('\n').slice(0, -1),
  };
}

const step = { runtime: 'node@26.10.0', phase: 'round 1/12', target: 'nest-express', scenario: 'hello', plannedSec: 1 };

const GLANCE: Glance = {
  pair: 'nest-fastify ÷ nest-express',
  ratio: 2.013,
  interval: { low: 1.881, high: 2.154 },
  verdict: 'holds',
  standing: 'decided',
};

const blockEnd = {
  runtime: 'node@26.10.0',
  scenario: 'hello',
  stack: 'bare',
  start: 3,
  rounds: 5,
  ran: 9,
  steady: true,
  glance: GLANCE,
  stand: 'decided' as const,
};

describe('the live line on a terminal', () => {
  it('names the stack a target runs with, so the production stack reads apart from the bare app', () => {
    const log = logStream({ terminal: true });
    const progress = createProgress({ stream: log.stream, totalPlannedSec: 10 });
    progress.start({ ...step, stack: 'production' });
    progress.start({ ...step, stack: 'bare' });
    expect(log.shown()).toEqual([
      expect.stringMatching(/^node@26\.10\.0 · round 1\/12 · nest-express@production · hello · \d+s left$/),
      expect.stringMatching(/^node@26\.10\.0 · round 1\/12 · nest-express@bare · hello · /),
    ]);
    expect(log.text()).not.toContain('\n');
  });

  it('names the start when the servers are started several times, and leaves a single start unsaid', () => {
    const log = logStream({ terminal: true });
    const progress = createProgress({ stream: log.stream, totalPlannedSec: 10 });
    progress.start({ ...step, stack: 'bare', start: 2, starts: 3 });
    progress.start({ ...step, stack: 'bare', start: 1, starts: 1 });
    progress.start(step);
    const [several, single, bare] = log.shown();
    expect(several).toContain(' · nest-express@bare (start 2/3) · hello · ');
    expect(single).toContain(' · nest-express@bare · hello · ');
    expect(bare).toContain(' · nest-express · hello · ');
  });

  it('counts down the wall time a budget plans, however much of it went to loads', () => {
    const log = logStream({ terminal: true });
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

  it("keeps a block's line above the live line", () => {
    const log = logStream({ terminal: true });
    const progress = createProgress({ stream: log.stream, totalPlannedSec: 10 });
    progress.start(step);
    progress.block(blockEnd);
    progress.start(step);
    expect(log.lines()).toHaveLength(1);
    expect(log.lines()[0].split(CLEAR_LINE).at(-1)).toMatch(/^node@26\.10\.0 · start 3 · hello · bare · /);
  });
});

describe('a log (not a terminal)', () => {
  it('gets no line per run', () => {
    const log = logStream();
    const progress = createProgress({ stream: log.stream, totalPlannedSec: 10 });
    for (let round = 1; round <= 12; round++) {
      progress.start({ ...step, phase: `round ${round}/12` });
      progress.finish(step);
    }
    expect(log.text()).toBe('');
  });

  it('gets the step under way when nothing was written for a minute, so it never looks hung', () => {
    const log = logStream();
    let now = 0;
    const progress = createProgress({ stream: log.stream, totalPlannedSec: 600, clock: () => now });
    now = 59_000;
    progress.start(step);
    now = 60_000;
    progress.start(step);
    now = 90_000;
    progress.start(step);
    progress.log('node@26.10.0 nest-express × hello round 2 failed: connection refused');
    now = 140_000;
    progress.start(step);
    expect(log.lines()).toEqual([
      expect.stringMatching(/^node@26\.10\.0 · round 1\/12 · nest-express · hello · \d+m\d+s left$/),
      'node@26.10.0 nest-express × hello round 2 failed: connection refused',
    ]);
  });

  it("gets a line per block: its runtime, start, scenario and stack, rounds kept, the pair's ratio with its interval, and the verdict", () => {
    const log = logStream();
    const progress = createProgress({ stream: log.stream, totalPlannedSec: 10 });
    progress.block(blockEnd);
    expect(log.lines()).toEqual([
      'node@26.10.0 · start 3 · hello · bare · 5 of 9 rounds kept · nest-fastify ÷ nest-express 2.01× (1.88×–2.15×) · holds, decided',
    ]);
  });

  it('names the edge of a block decided borderline', () => {
    const log = logStream();
    const progress = createProgress({ stream: log.stream, totalPlannedSec: 10 });
    const atEdge = { ...GLANCE, ratio: 1.497, interval: { low: 1.46, high: 1.53 }, verdict: 'borderline at 1.5×' };
    progress.block({ ...blockEnd, glance: atEdge });
    expect(log.lines()[0]).toMatch(
      / · nest-fastify ÷ nest-express 1\.50× \(1\.46×–1\.53×\) · borderline at 1\.5×, decided$/,
    );
  });

  it('shows an interval too wide to read as open-ended', () => {
    const log = logStream();
    const progress = createProgress({ stream: log.stream, totalPlannedSec: 10 });
    const open = { ...GLANCE, interval: { low: 0.004, high: 6.9e13 }, verdict: 'inconclusive' };
    progress.block({ ...blockEnd, start: 2, glance: open, stand: 'so far' });
    expect(log.lines()[0]).toContain(' · nest-fastify ÷ nest-express 2.01× (0.00×–>100×) · inconclusive so far');
  });

  it('says when a block reached no steady state, ran with fewer connections, or is open', () => {
    const log = logStream();
    const progress = createProgress({ stream: log.stream, totalPlannedSec: 10 });
    const open = { ...GLANCE, verdict: 'inconclusive', interval: null, standing: 'undecided' as const };
    progress.block({
      ...blockEnd,
      start: 1,
      rounds: 3,
      ran: 12,
      steady: false,
      connections: 7,
      glance: open,
      stand: 'so far',
    });
    expect(log.lines()).toEqual([
      'node@26.10.0 · start 1 · hello · bare · 3 of 12 rounds kept, no steady state · 7 connections · nest-fastify ÷ nest-express 2.01× · inconclusive so far',
    ]);
  });

  it('says why a block stopped undecided, and leaves the start out where the servers start once', () => {
    const log = logStream();
    const progress = createProgress({ stream: log.stream, totalPlannedSec: 10 });
    const open = { ...GLANCE, verdict: 'inconclusive', standing: 'undecided' as const };
    progress.block({
      runtime: 'node@26.10.0',
      scenario: 'hello',
      stack: 'bare',
      rounds: 24,
      glance: open,
      stand: 'budget',
    });
    progress.block({
      runtime: 'node@26.10.0',
      scenario: 'hello',
      stack: 'bare',
      rounds: 6,
      glance: null,
      stand: 'final',
    });
    expect(log.lines()).toEqual([
      'node@26.10.0 · hello · bare · 24 rounds · nest-fastify ÷ nest-express 2.01× (1.88×–2.15×) · inconclusive, stopped on the budget',
      'node@26.10.0 · hello · bare · 6 rounds · not judged',
    ]);
  });
});

// each round waits for the stand-in servers to settle, which takes longer on a busy host
describe("a run's log, on a stand-in session", { timeout: 60_000 }, () => {
  /** The compared pair on hello, bare and with the production stack: two blocks. */
  const pairs = [...HELLO_PAIR, ...HELLO_PAIR.map((pair) => ({ ...pair, stack: 'production' }))];
  const glance = () => GLANCE;

  it('has one line per block of the starts design, however many rounds each block ran', async () => {
    const log = logStream();
    const { plan, state, results } = fakeSession(
      pairs,
      { starts: 1, rounds: 1, pairing: 'together' },
      async (r) => answered(r),
      {
        glance,
        log: log.stream,
      },
    );
    expect(await measureStarts(plan, state, pairs, 0)).toBe(true);
    expect(results.steadyBlocks!.map((block) => block.rounds)).toEqual([expect.any(Number), expect.any(Number)]);
    for (const block of results.steadyBlocks!) expect(block.rounds).toBeGreaterThanOrEqual(4);
    expect(log.lines()).toEqual([
      expect.stringMatching(/^node@20 · start 1 · hello · bare · 1 of \d+ rounds kept · nest-fastify ÷ nest-express /),
      expect.stringMatching(/^node@20 · start 1 · hello · production · 1 of \d+ rounds kept · /),
    ]);
  });

  it('has one line per block of the rounds design, after its last round', async () => {
    const log = logStream();
    const { plan, state } = fakeSession(pairs, { rounds: 2 }, async (r) => answered(r), {
      glance,
      log: log.stream,
    });
    await measureRounds(plan, state, pairs);
    expect(log.lines()).toEqual([
      `${RUNTIME} · hello · bare · 2 rounds · nest-fastify ÷ nest-express 2.01× (1.88×–2.15×) · holds`,
      `${RUNTIME} · hello · production · 2 rounds · nest-fastify ÷ nest-express 2.01× (1.88×–2.15×) · holds`,
    ]);
  });

  it('has one line for a block of the budget design, when it stops, however many rounds it ran', async () => {
    const log = logStream();
    const { plan, state } = fakeSession(HELLO_PAIR, { budgetSec: 3600 }, async (r) => answered(r), {
      glance,
      standing: () => 'decided',
      log: log.stream,
    });
    await measureBudget(plan, state, HELLO_PAIR);
    expect(log.lines()).toEqual([expect.stringMatching(/^node@20 · hello · bare · 6 rounds · .* · holds, decided$/)]);
  });
});

describe('progress under --quiet', () => {
  it('writes nothing, neither the steps nor the messages nor the blocks', () => {
    const log = logStream();
    const progress = createProgress({ stream: log.stream, totalPlannedSec: 10, mode: 'silent' });
    progress.start(step);
    progress.finish(step);
    progress.log('node@26.10.0: starting nest-express, nest-fastify');
    progress.block(blockEnd);
    progress.done();
    expect(log.text()).toBe('');
  });
});
