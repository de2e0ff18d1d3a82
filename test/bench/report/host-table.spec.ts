import { analyze } from '../../../bench/analysis/analyze.js';
import { hostTable } from '../../../bench/report/host-table.js';
import { plainText } from '../../../bench/report/rich-table.js';
import { TWO_HOSTS, XEON, runOn } from '../support/hosts.js';

describe('where this host stands', () => {
  it('says in one sentence where the host stands: its headline, the span the committed hosts read, and which side', () => {
    const analysis = analyze(runOn(XEON, 1.51, TWO_HOSTS));
    const table = hostTable(analysis);
    const intro = plainText(table.intro!);
    expect(intro).toMatch(
      /^node@20 .*: this host, Intel family 6 model 167 stepping 1, microcode 0x1: 1\.53× \(.*\); the committed hosts read 2\.02×–2\.09×, this host below every one \(results\/reference\/xeon ran on this CPU\)\./,
    );
    expect(table.rows.map((row) => plainText(row[5]))).toEqual([
      'this run',
      'results/reference/xeon (2026-01-01)',
      'results/reference/epyc (2026-01-01)',
    ]);
  });

  it('has no rows, so no section, for a run that recorded no references', () => {
    expect(hostTable(analyze(runOn(XEON, 1.51))).rows).toEqual([]);
  });
});
