import { blockCapOf, decidedLeaving } from '../../../../bench/run/designs/server-starts.js';
import { MIN_STEADY_ROUNDS, firstJudgementRounds } from '../../../../bench/run/designs/steady-block.js';
import { designOf, type Standing } from '../../../../bench/model/design.js';

describe('decidedLeaving: which compared blocks a look after a start lets go', () => {
  const block = (key: string) => ({ key });
  const [headline, catalog, purchases] = ['hello|bare', 'catalog|bare', 'purchases|bare'].map(block);
  const standings = (byKey: Record<string, Standing>) => (b: { key: string }) => byKey[b.key];

  it('lets every decided block go but the headline, which is measured on every start the budget makes', () => {
    const standing = standings({ 'hello|bare': 'decided', 'catalog|bare': 'decided', 'purchases|bare': 'undecided' });
    expect(decidedLeaving([headline, catalog, purchases], headline, standing)).toEqual([catalog]);
  });

  it('keeps the headline when it is the only block left, decided', () => {
    expect(decidedLeaving([headline], headline, standings({ 'hello|bare': 'decided' }))).toEqual([]);
  });

  it('lets every decided block go when nothing is compared, so there is no headline', () => {
    const standing = standings({ 'catalog|bare': 'decided', 'purchases|bare': 'unjudged' });
    expect(decidedLeaving([catalog, purchases], undefined, standing)).toEqual([catalog]);
  });
});

describe("blockCapOf: where a start's block ends unsettled", () => {
  it("under a budget, at its first judgement, so its rounds go to the headline's starts", () => {
    expect(blockCapOf(designOf({ rounds: 12, budgetSec: 160, starts: 3 }))).toBe(
      firstJudgementRounds(MIN_STEADY_ROUNDS),
    );
  });

  it("with a fixed number of starts, at the block's own cap", () => {
    expect(blockCapOf(designOf({ rounds: 6, budgetSec: null, starts: 4 }))).toBeUndefined();
  });
});
