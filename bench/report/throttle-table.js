// @ts-check
// --nest-app: what the bench did with the app's rate limiters (@nestjs/throttler, express-rate-limit, @fastify/rate-limit,
// rate-limiter-flexible, its own 429s) while timing it, where each is configured and what it limits, so a ratio is
// never read as the app's with its limiter in place when it was not.

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

/** What each kind of limiter is, in the table's words. */
const LIMITER_KINDS = {
  'express-rate-limit': 'express-rate-limit',
  '@fastify/rate-limit': '@fastify/rate-limit',
  'rate-limiter-flexible': 'rate-limiter-flexible',
  guard: 'a guard of the app’s that throws 429',
  answer: 'the app’s own code answering 429',
};

/**
 * The app's rate limiters besides @nestjs/throttler: each at its file:line with its limits as written, and what the
 * timed servers did with it (lifted, or kept and why, with the fix).
 * @param {import('../model/own-app-record.js').LimiterTimed[]} limiters
 * @returns {Table}
 */
function limitersTable(limiters) {
  const lifted = limiters.filter((limiter) => limiter.lifted).length;
  return {
    title: "Your app's other rate limiters",
    intro:
      `${lifted} of ${limiters.length} lifted while timing, each in the bench's server process only: the app was not ` +
      'edited. A limiter kept refuses the load as it would refuse a client; its refusals are findings, not ratios.',
    headers: ['limiter', 'where', 'limits', 'kind', 'while timing'],
    align: ['left', 'left', 'left', 'left', 'left'],
    rows: limiters.map(({ kind, name, at, limits, note }) => [
      name,
      at,
      limits ?? 'not written as literals',
      LIMITER_KINDS[kind],
      note,
    ]),
  };
}

/**
 * The app's throttler guards and their limits, and its other rate limiters, with what the timed servers did with
 * them; none when it has none.
 * @param {import('../analysis/analyze.js').Analysis} analysis
 * @returns {{ table: Table }[]}
 */
export function throttleTables({ ownApp }) {
  const throttle = ownApp?.throttle;
  if (!throttle) return [];
  const limiters = throttle.limiters ?? [];
  return [
    ...(throttle.guards.length
      ? [
          {
            table: {
              title: "Your app's rate limiter",
              intro: throttleIntro(throttle),
              headers: ['guard', 'throttler', 'limit', 'per', 'package', 'while timing'],
              align: /** @type {Table['align']} */ (['left', 'left', 'right', 'right', 'left', 'left']),
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
        ]
      : []),
    ...(limiters.length ? [{ table: limitersTable(limiters) }] : []),
  ];
}
