import { median, quantile } from '../../../bench/maths/quantile.js';

describe('median and quantiles', () => {
  it('takes the middle value of an odd-sized sample, whatever the input order', () => {
    expect(median([5, 1, 4, 2, 3])).toBe(3);
  });

  it('averages the two middle values of an even-sized sample', () => {
    expect(median([10, 2, 4, 8])).toBe(6);
  });

  it('interpolates quantiles linearly between closest ranks', () => {
    expect(quantile([1, 2, 3, 4, 5], 0.1)).toBeCloseTo(1.4, 12);
    expect(quantile([1, 2, 3, 4, 5], 0.9)).toBeCloseTo(4.6, 12);
  });

  it('returns NaN for no values instead of a number that looks measured', () => {
    expect(median([])).toBeNaN();
  });
});
