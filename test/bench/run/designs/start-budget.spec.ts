import { takesHeadlineStart } from '../../../../bench/run/designs/budget.js';
import { StartBudget, expectedToFit } from '../../../../bench/run/designs/start-budget.js';
import { designOf, FIRST_LOOK_STARTS, MAX_STARTS } from '../../../../bench/model/design.js';

describe('takesHeadlineStart: whether another row’s block costs the headline one of its later starts', () => {
  const plan = { nextStartSec: 10, startsLeft: MAX_STARTS };

  it('takes one when the block leaves too little for a start the budget had room for', () => {
    expect(takesHeadlineStart({ ...plan, leftSec: 25, blockSec: 6 })).toBe(true);
  });

  it('takes none when what the headline’s starts leave over holds the block', () => {
    expect(takesHeadlineStart({ ...plan, leftSec: 27, blockSec: 6 })).toBe(false);
  });

  it('takes none when no start of the headline fits anyway, so the block has what is left', () => {
    expect(takesHeadlineStart({ ...plan, leftSec: 8, blockSec: 6 })).toBe(false);
  });

  it('takes none once the headline has all the starts MAX_STARTS allows', () => {
    expect(takesHeadlineStart({ ...plan, startsLeft: 0, leftSec: 25, blockSec: 6 })).toBe(false);
  });
});

describe('expectedToFit: the blocks a start expects to measure after its first', () => {
  it('keeps a block while what the blocks before it leave holds it, skipping one that does not fit', () => {
    const blockSec = new Map([
      ['a', 5],
      ['b', 8],
      ['c', 3],
    ]);
    const blocks = ['a', 'b', 'c'].map((key) => ({ key }));
    const fitsIn = (block: { key: string }, left: number) => (blockSec.get(block.key) ?? 0) <= left;
    expect(expectedToFit(blocks, 10, blockSec, fitsIn).map((block) => block.key)).toEqual(['a', 'c']);
  });
});

describe('StartBudget: which blocks a later start boots and measures', () => {
  const design = designOf({ rounds: 12, budgetSec: 160, starts: 3 });
  const [headline, catalog, purchases] = ['hello|bare', 'catalog|bare', 'purchases|bare'].map((key) => ({ key }));
  const blockSec = new Map([
    [headline.key, 5],
    [catalog.key, 6],
    [purchases.key, 7],
  ]);
  /** a budget with `spentSec` of its 160 s gone, the latest start's boot 4 s and priming 3 s: a start costs 12 s */
  const budgetAt = (spentSec: number) => {
    const budget = new StartBudget(design, spentSec, blockSec, headline.key);
    budget.bootSec = 4;
    budget.primeSec = 3;
    return budget;
  };

  it('counts a start’s boot, its priming and its first block as what the next start costs', () => {
    expect(budgetAt(0).nextStartSec(headline)).toBe(12);
  });

  it('before the first look, has every block due on every start', () => {
    const budget = budgetAt(150);
    const ordered = [headline, catalog, purchases];
    expect(budget.dueOn(FIRST_LOOK_STARTS - 1, ordered)).toEqual(ordered);
  });

  it('after the first look, has another row’s block due only where the headline’s later starts leave room', () => {
    // 160 − 122 = 38 s: this start's own 12 s leave 26, two more headline starts; 6 s of catalog would leave one
    expect(budgetAt(122).dueOn(FIRST_LOOK_STARTS, [headline, catalog, purchases])).toEqual([headline]);
    // 160 − 117 = 43 s: 31 s after this start, two more starts and 7 s over, which catalog's 6 s fit in
    expect(budgetAt(117).dueOn(FIRST_LOOK_STARTS, [headline, catalog, purchases])).toEqual([headline, catalog]);
  });

  it('gives what is left to another row’s block once no more headline start fits', () => {
    // 160 − 140 = 20 s: this start's 12 s leave 8, no other start; catalog's 6 s fit
    expect(budgetAt(140).dueOn(FIRST_LOOK_STARTS, [headline, catalog, purchases])).toEqual([headline, catalog]);
  });

  it('measures a block on a later start only while its latest time fits in what is left', () => {
    // 6.5 s left: the headline's 5 s fit, purchases' 7 s do not
    const fits = budgetAt(153.5).fitsOn(1, headline);
    expect(fits(headline)).toBe(true);
    expect(fits(purchases)).toBe(false);
  });
});
