import { MIN_BUDGET_ROUNDS } from '../../../../bench/model/design.js';
import { measureBudget } from '../../../../bench/run/designs/budget.js';
import { answered, fakeSession, HELLO_PAIR, RUNTIME } from '../../support/fake-session.js';

const pairs = HELLO_PAIR;

describe('the budget design', () => {
  it('runs the minimum rounds however small the budget, then records the block stopped on the budget', async () => {
    const { plan, state, results } = fakeSession(pairs, { budgetSec: 0 }, async (request) => answered(request));
    expect(await measureBudget(plan, state, pairs)).toBe(true);
    expect(results.runs).toHaveLength(MIN_BUDGET_ROUNDS * pairs.length);
    expect(results.stops).toEqual([
      { runtime: RUNTIME, scenario: 'hello', stack: 'bare', rounds: MIN_BUDGET_ROUNDS, stoppedOn: 'budget' },
    ]);
  });

  it('asks where the block stands under its runtime, and stops a decided one after the minimum rounds', async () => {
    const asked: unknown[] = [];
    const { plan, state, results } = fakeSession(pairs, { budgetSec: 3600 }, async (request) => answered(request), {
      standing: (block) => {
        asked.push(block);
        return 'decided';
      },
    });
    await measureBudget(plan, state, pairs);
    expect(asked).toEqual([{ runtime: RUNTIME, scenario: 'hello', stack: 'bare' }]);
    expect(results.stops).toEqual([
      { runtime: RUNTIME, scenario: 'hello', stack: 'bare', rounds: MIN_BUDGET_ROUNDS, stoppedOn: 'decided' },
    ]);
  });
});
