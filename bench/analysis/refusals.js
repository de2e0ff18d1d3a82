// @ts-check
// A route whose timed answers were mostly not its success status (429 from a rate limiter, 401 once a token expired,
// 503) measured the refusal, not the route: it is a finding with its cause and fix, and no ratio of it is reported.

/** More than this share of a target's timed answers another status than the scenario's: they measured a refusal. */
export const REFUSED_SHARE = 0.5;

/** What each refusal usually means, and what lets the bench through. */
const CAUSES = {
  401: {
    cause: 'the sign-in stopped working (a token that expired during the run)',
    fix: 'sign in again in authenticate(), for a token that outlives the run',
  },
  403: { cause: 'a guard refused the principal', fix: 'sign in as a principal allowed on this route' },
  429: {
    cause: 'a rate limiter (a throttler) refused the load',
    fix: "raise its limit, or exempt the bench's address (127.0.0.1) from it while measuring",
  },
  503: {
    cause: 'the app said it was unavailable (a health check, a circuit breaker, a full pool)',
    fix: 'fix what it depends on, or lower --connections',
  },
};

/**
 * A 429 from the app's own throttler (Nest's): the two ways to let the bench through, at the module's line when known.
 * @param {{ forRoot: string | null }} throttler the scan's (own-app/scan.js)
 * @param {string} statuses what each refused target answered: `429 on nest-express, 500 on nest-fastify`
 * @param {boolean} kept --keep-throttle kept it while timing
 */
function throttlerRefusal({ forRoot }, statuses, kept) {
  const lift = kept ? 'run without --keep-throttle (the bench lifts it while timing), or ' : '';
  return {
    cause: `the app's @nestjs/throttler${forRoot ? ` (ThrottlerModule.forRoot at ${forRoot})` : ''} refused the load (${statuses})`,
    fix: `${lift}@SkipThrottle() on the route's controller while measuring, or a limit the bench's address (127.0.0.1) stays under (ThrottlerModule.forRoot's limit, or its skipIf)`,
  };
}

/**
 * @typedef {object} Refusal
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} stack
 * @property {string} target the first adapter whose runs were refused
 * @property {number | null} status the refusing status, null where the generator does not count statuses
 * @property {number} share of that target's timed answers not its success status
 * @property {string} cause
 * @property {string} fix
 */

/**
 * The refusing status of one target's timed runs, when most of their answers were not the success status.
 * @param {import('../model/results.js').RunRecord[]} runs one target's
 * @returns {{ status: number | null, share: number } | null}
 */
export function targetRefusal(runs) {
  const loads = runs.flatMap((run) => (run.status === 'ok' && run.load ? [run.load] : []));
  const requests = loads.reduce((sum, load) => sum + load.requests, 0);
  if (requests === 0) return null;
  const share = loads.reduce((sum, load) => sum + load.unexpectedStatus, 0) / requests;
  if (share <= REFUSED_SHARE) return null;
  /** @type {Record<string, number>} */
  const counts = {};
  for (const load of loads)
    for (const [status, count] of Object.entries(load.statusCounts ?? {}))
      if (Number(status) >= 400) counts[status] = (counts[status] ?? 0) + count;
  const [top] = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  return { status: top ? Number(top[0]) : null, share };
}

/**
 * The refusal among the runs of one runtime, scenario and stack, if either compared target's answers were mostly
 * refusals.
 * @param {import('../model/results.js').RunRecord[]} runs
 * @param {{ runtime: string, scenario: string, stack: string }} where
 * @param {string[]} targets the compared pair
 * @param {{ throttler?: { forRoot: string | null } } | null} [scan] what the scan of a --nest-app found: a throttler
 *   names itself as the cause of a 429
 * @param {{ timed: 'lift' | 'keep' } | null} [throttle] what the timed servers did with the app's throttler
 * @returns {Refusal | null}
 */
export function refusalOf(runs, where, targets, scan = null, throttle = null) {
  const refused = targets.flatMap((target) => {
    const found = targetRefusal(runs.filter((run) => run.target === target));
    return found ? [{ target, ...found }] : [];
  });
  if (refused.length === 0) return null;
  const worst = refused.reduce((a, b) => (b.share > a.share ? b : a));
  // a throttler's 429 can reach the client as another status on one adapter (an exception filter that fails there)
  const throttled =
    scan?.throttler && runs.some((run) => targets.includes(run.target) && (run.load?.statusCounts?.['429'] ?? 0) > 0);
  const statuses = refused.map((r) => `${r.status ?? 'another status'} on ${r.target}`).join(', ');
  const known = throttled
    ? throttlerRefusal(
        /** @type {{ forRoot: string | null }} */ (scan?.throttler),
        statuses,
        throttle?.timed === 'keep',
      )
    : worst.status === null
      ? null
      : CAUSES[/** @type {keyof typeof CAUSES} */ (worst.status)];
  return {
    ...where,
    ...worst,
    cause: known?.cause ?? `the app answered ${worst.status ?? 'another status'} instead of the route's success status`,
    fix: known?.fix ?? "find why it refuses under load in the app's log, then measure it again",
  };
}
