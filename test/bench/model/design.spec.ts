import { MAX_BUDGET_ROUNDS, MAX_STARTS, designOf, upgradeDesign } from '../../../bench/model/design.js';
import { DEFAULT_BUDGET_SEC, DEFAULT_STARTS } from '../../../bench/run/options.js';
import { parseOptions } from '../support/options.js';

describe('designOf: the design the options ask for, resolved once', () => {
  it('by default, starts under the default budget, their rounds left to the budget', () => {
    expect(designOf(parseOptions([]))).toMatchObject({
      kind: 'budgeted-starts',
      starts: DEFAULT_STARTS,
      roundsPerStart: null,
      budgetPerRuntimeSec: DEFAULT_BUDGET_SEC,
    });
  });

  it('--rounds N: one start of N rounds, no budget', () => {
    expect(designOf(parseOptions(['--rounds', '8']))).toMatchObject({
      kind: 'rounds',
      starts: 1,
      roundsPerStart: 8,
      budgetPerRuntimeSec: null,
    });
  });

  it('--budget S --starts 1: rounds on one start while the budget lasts', () => {
    expect(designOf(parseOptions(['--budget', '60', '--starts', '1']))).toMatchObject({
      kind: 'budget',
      starts: 1,
      roundsPerStart: null,
      budgetPerRuntimeSec: 60,
    });
  });

  it('--starts N --rounds R: N starts of R rounds each, no budget', () => {
    expect(designOf(parseOptions(['--starts', '3', '--rounds', '4']))).toMatchObject({
      kind: 'starts',
      starts: 3,
      roundsPerStart: 4,
      budgetPerRuntimeSec: null,
    });
  });

  it('names a budget over starts apart from fixed starts, and upgrades one recorded as starts before it was named', () => {
    const recorded = { ...designOf({ rounds: 12, budgetSec: 300, starts: 4 }), kind: 'starts' as const };
    expect(upgradeDesign(recorded).kind).toBe('budgeted-starts');
    expect(upgradeDesign(designOf({ rounds: 4, budgetSec: null, starts: 3 })).kind).toBe('starts');
  });

  it('records the limits it runs under', () => {
    expect(designOf({ rounds: 12, budgetSec: null, starts: 1 }).limits).toMatchObject({
      maxRounds: MAX_BUDGET_ROUNDS,
      maxStarts: MAX_STARTS,
    });
  });
});
