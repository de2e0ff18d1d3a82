import { besidesReserveSec } from '../../../../bench/run/designs/besides.js';

const pair = (target: string, scenario: string) => ({ target, scenario, stack: 'bare' });
const compared = (scenario: string) => ({
  key: `${scenario}|bare`,
  pairs: [pair('nest-express', scenario), pair('nest-fastify', scenario)],
});

describe('the time a budget over starts holds back for the blocks beside the verdict', () => {
  const verdict = [compared('tls'), compared('close-every'), compared('idle-1k')];
  // seconds the first start took per block: 20, 30 and 90 for two targets each
  const blockSec = new Map([
    ['tls|bare', 20],
    ['close-every|bare', 30],
    ['idle-1k|bare', 90],
  ]);
  const h2 = { pairs: [pair('nest-fastify-h2', 'h2')] };
  const h2c = { pairs: [pair('nest-fastify-h2c', 'h2c')] };

  it("is the beside start's boot and, per target of each block without a compared pair, a compared block's median seconds per target", () => {
    expect(besidesReserveSec([h2, h2c], verdict, blockSec, 12)).toBe(12 + 15 + 15);
  });

  it('is nothing when no such block was planned', () => {
    expect(besidesReserveSec([], verdict, blockSec, 12)).toBe(0);
  });

  it('is the boot alone while no compared block has been timed', () => {
    expect(besidesReserveSec([h2], verdict, new Map(), 12)).toBe(12);
  });
});
