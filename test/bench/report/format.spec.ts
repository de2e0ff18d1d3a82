import {
  DASH,
  escapeHtml,
  formatInterval,
  formatLevel,
  formatNumber,
  formatPercent,
  formatRatio,
} from '../../../bench/report/format.js';

describe('one formatter per kind of value', () => {
  it('writes a ratio with its digits and ×, infinity as ∞, and nothing measured as a dash', () => {
    expect(formatRatio(2)).toBe('2.00×');
    expect(formatRatio(1.4996, 3)).toBe('1.500×');
    expect(formatRatio(Infinity)).toBe('∞');
    expect(formatRatio(Number.NaN)).toBe(DASH);
  });

  it('writes a fraction as a percent, and a missing one as a dash', () => {
    expect(formatPercent(0.5)).toBe('50 %');
    expect(formatPercent(0.1234, 1)).toBe('12.3 %');
    expect(formatPercent(null)).toBe(DASH);
    expect(formatPercent(undefined)).toBe(DASH);
  });

  it('writes a confidence level with as few digits as it needs', () => {
    expect(formatLevel(0.95)).toBe('95 %');
    expect(formatLevel(0.995)).toBe('99.5 %');
  });

  it('groups thousands in a number', () => {
    expect(formatNumber(12345.6)).toBe('12,346');
    expect(formatNumber(0.456, 2)).toBe('0.46');
    expect(formatNumber(null)).toBe(DASH);
  });

  it('writes an interval with both ends in the given format, and none as a dash', () => {
    expect(formatInterval({ low: 1.8, high: 2.2 }, formatRatio)).toBe('1.80× – 2.20×');
    expect(formatInterval(null, formatRatio)).toBe(DASH);
  });
});

describe('escapeHtml', () => {
  it('makes text safe between tags and inside a quoted attribute', () => {
    expect(escapeHtml(`<a title="x">'Tom' & co</a>`)).toBe(
      '&lt;a title=&quot;x&quot;&gt;&#39;Tom&#39; &amp; co&lt;/a&gt;',
    );
    expect(escapeHtml(42)).toBe('42');
  });
});
