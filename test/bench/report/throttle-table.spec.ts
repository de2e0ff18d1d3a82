import { throttleTables } from '../../../bench/report/throttle-table.js';
import type { Analysis } from '../../../bench/analysis/analyze.js';
import type { ThrottleRecord } from '../../../bench/model/own-app-record.js';

const GUARDS = [{ guard: 'ThrottlerGuard', version: '6.7.1', limits: [{ name: 'default', limit: '10', ttl: '60 s' }] }];
const analysisWith = (throttle?: ThrottleRecord) => ({ ownApp: { throttle } }) as unknown as Analysis;

describe('throttleTables', () => {
  it('says the throttler was lifted while timing, where it is configured and what it limits', () => {
    const [{ table }] = throttleTables(
      analysisWith({ timed: 'lift', guards: GUARDS, forRoot: 'src/app.module.ts:28' }),
    );
    expect(table.intro).toMatch(
      /^The app's throttler \(ThrottlerModule\.forRoot at src\/app\.module\.ts:28\) was lifted while timing/,
    );
    expect(table.intro).toContain('--keep-throttle');
    expect(table.rows).toEqual([['ThrottlerGuard', 'default', '10', '60 s', '@nestjs/throttler 6.7.1', 'lifted']]);
  });

  it('says it was kept with --keep-throttle, its refusals then findings', () => {
    const [{ table }] = throttleTables(analysisWith({ timed: 'keep', guards: GUARDS, forRoot: null }));
    expect(table.intro).toMatch(/kept as it is \(--keep-throttle\).*the refusal is its finding/);
    expect(table.rows[0].at(-1)).toBe('kept');
  });

  it('is absent for an app without one', () => {
    expect(throttleTables(analysisWith())).toEqual([]);
  });
});
