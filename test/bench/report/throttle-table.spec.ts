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

  it('names each other limiter at its file:line with its limits and what the timed servers did with it', () => {
    const limiters = [
      {
        kind: 'express-rate-limit' as const,
        name: 'rateLimit()',
        at: 'src/main.ts:14',
        limits: '100 per 900 s',
        lifted: true,
        note: 'lifted while timing (unless --keep-throttle): its skip() answers true',
      },
      {
        kind: 'answer' as const,
        name: 'LimitMiddleware',
        at: 'src/limit.middleware.ts:9',
        limits: null,
        lifted: false,
        note: 'kept while timing: it answers 429 in its own code',
      },
    ];
    const tables = throttleTables(analysisWith({ timed: 'lift', guards: [], forRoot: null, limiters }));
    expect(tables.map(({ table }) => table.title)).toEqual(["Your app's other rate limiters"]);
    expect(tables[0].table.intro).toMatch(/^1 of 2 lifted while timing/);
    expect(tables[0].table.rows).toEqual([
      ['rateLimit()', 'src/main.ts:14', '100 per 900 s', 'express-rate-limit', limiters[0].note],
      [
        'LimitMiddleware',
        'src/limit.middleware.ts:9',
        'not written as literals',
        'the app’s own code answering 429',
        limiters[1].note,
      ],
    ]);
    const both = throttleTables(analysisWith({ timed: 'lift', guards: GUARDS, forRoot: null, limiters }));
    expect(both.map(({ table }) => table.title)).toEqual(["Your app's rate limiter", "Your app's other rate limiters"]);
  });

  it('is absent for an app without one', () => {
    expect(throttleTables(analysisWith())).toEqual([]);
  });
});
