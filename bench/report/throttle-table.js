// @ts-check
// --nest-app: what the bench did with the app's rate limiter (@nestjs/throttler) while timing it, where it is
// configured and what it limits, so a ratio is never read as the app's with its limiter in place when it was not.

/** @typedef {import('./rich-table.js').Table} Table */

/**
 * @param {import('../model/own-app-record.js').ThrottleRecord} throttle
 * @returns {string}
 */
function throttleIntro({ timed, forRoot }) {
  const where = forRoot ? ` (ThrottlerModule.forRoot at ${forRoot})` : '';
  if (timed === 'keep')
    return (
      `The app's throttler${where} was kept as it is (--keep-throttle): a route it refused under load has no ratio, ` +
      'and the refusal is its finding.'
    );
  return (
    `The app's throttler${where} was lifted while timing: in the timed servers its guard let every request through ` +
    'without running, so no ratio measured its refusals, and its own cost is in none of them. The sign-in and the ' +
    'check before timing ran it on every request with its refusals let through, so its code was checked on both ' +
    'adapters. The app was not edited; --keep-throttle times it as it is.'
  );
}

/**
 * The app's throttler guards and their limits, with what the timed servers did with them; none when it has none.
 * @param {import('../analysis/analyze.js').Analysis} analysis
 * @returns {{ table: Table }[]}
 */
export function throttleTables({ ownApp }) {
  const throttle = ownApp?.throttle;
  if (!throttle) return [];
  return [
    {
      table: {
        title: "Your app's rate limiter",
        intro: throttleIntro(throttle),
        headers: ['guard', 'throttler', 'limit', 'per', 'package', 'while timing'],
        align: ['left', 'left', 'right', 'right', 'left', 'left'],
        rows: throttle.guards.flatMap(({ guard, version, limits }) =>
          limits.map(({ name, limit, ttl }) => [
            guard,
            name,
            limit,
            ttl,
            `@nestjs/throttler ${version}`,
            throttle.timed === 'keep' ? 'kept' : 'lifted',
          ]),
        ),
      },
    },
  ];
}
