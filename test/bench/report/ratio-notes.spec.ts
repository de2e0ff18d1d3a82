import type { RatioRow } from '../../../bench/analysis/analyze.js';
import type { PairState } from '../../../bench/analysis/server-state.js';
import { ratioNotes } from '../../../bench/report/ratio-notes.js';

const QUIET_STATE: PairState = {
  heapSteps: [],
  reducingGcs: [],
  fullGcCosts: [],
  stealRounds: [],
  stealMax: 0,
  otherCpuRounds: [],
  otherCpuMax: 0,
  unsettled: [],
};

/** A decided row with nothing to say about it but its servers' state. */
function row(state: Partial<PairState>): RatioRow {
  return {
    numerator: 'nest-fastify',
    denominator: 'nest-express',
    verdict: 'does not hold',
    measuredVerdict: 'does not hold',
    judged: true,
    summary: { n: 12, widened: false, lag1: 0 },
    tooSlow: [],
    failedAnswerRounds: [],
    someFailedAnswers: false,
    saturatedRounds: [],
    missingRounds: [],
    neighbourRounds: [],
    neighbourShare: 0,
    order: null,
    state: { ...QUIET_STATE, ...state },
  } as unknown as RatioRow;
}

describe('a ratio’s notes', () => {
  it('say nothing of a row whose servers ran no dearer after their full GCs', () => {
    expect(ratioNotes(row({}))).toEqual([]);
  });

  it('name the rounds a full GC made dearer, by how much, and where the cause is written up', () => {
    const [note] = ratioNotes(row({ fullGcCosts: [{ target: 'nest-express', rounds: [3, 4, 9], cpuRatio: 1.58 }] }));
    expect(note).toContain('nest-express ran a full GC before or during rounds 3–4, 9');
    expect(note).toContain('1.58×');
    expect(note).toContain('docs/experiments/jit-recompiles/');
  });
});
