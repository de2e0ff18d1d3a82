import { formatDuration } from '../../../bench/model/durations.js';

describe('formatDuration', () => {
  it('gives seconds alone under a minute, rounded', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(42.4)).toBe('42s');
  });

  it('gives minutes and two-digit seconds from a minute on, rounding into the next minute', () => {
    expect(formatDuration(61)).toBe('1m01s');
    expect(formatDuration(59.6)).toBe('1m00s');
    expect(formatDuration(600)).toBe('10m00s');
  });

  it('reads a time already past as none left, never a negative one', () => {
    expect(formatDuration(-5)).toBe('0s');
  });
});
