import { isJudged, judgedPairOn } from '../../../bench/model/compared.js';

const target = (name: string, entry: string, scenarios: string[] | null) => ({
  name,
  command: ['node', entry],
  cwd: '/app',
  url: null,
  scenarios,
});

/** A compared pair that answers hello, its twins (same programs) for upload, and another pair for both. */
const config = {
  targets: [
    target('fast', 'fast.js', ['hello']),
    target('slow', 'slow.js', ['hello']),
    target('fast-twin', 'fast.js', ['upload']),
    target('slow-twin', 'slow.js', ['upload']),
    target('raw-fast', 'raw-fast.js', null),
    target('raw-slow', 'raw-slow.js', null),
  ],
  compare: ['fast', 'slow'] as [string, string],
  alsoCompare: [
    ['raw-fast', 'raw-slow'],
    ['fast-twin', 'slow-twin'],
  ] as [string, string][],
};

describe('the pair the verdict judges', () => {
  it('is the compared pair on a scenario it answers', () => {
    expect(judgedPairOn(config, 'hello')).toEqual(['fast', 'slow']);
  });

  it("is the compared pair's twins where only they answer, never another pair that answers too", () => {
    expect(judgedPairOn(config, 'upload')).toEqual(['fast-twin', 'slow-twin']);
    expect(isJudged(config, { target: 'raw-fast', scenario: 'upload' })).toBe(false);
  });

  it('takes no twin whose sides run the programs the other way round, or in another folder', () => {
    const swapped = { ...config, alsoCompare: [['slow-twin', 'fast-twin']] as [string, string][] };
    expect(judgedPairOn(swapped, 'upload')).toEqual(['fast', 'slow']);
    const elsewhere = {
      ...config,
      targets: config.targets.map((t) => (t.name === 'slow-twin' ? { ...t, cwd: '/other' } : t)),
    };
    expect(judgedPairOn(elsewhere, 'upload')).toEqual(['fast', 'slow']);
  });
});
