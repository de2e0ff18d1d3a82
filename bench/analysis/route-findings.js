// @ts-check
// --nest-app: per route, the load it was measured with and what its loads left behind: a backlog the server drained,
// a hang, or a crash, each with its evidence (results.routeLoads and results.drains).

/** @typedef {import('../model/results.js').Drain} Drain */

/**
 * @typedef {object} RouteFinding one route (or the traffic mix) of one runtime
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} stack
 * @property {Record<string, number | null>} aloneMs each adapter's single-request latency
 * @property {number} connections
 * @property {number} durationSec
 * @property {boolean} lowered fewer connections or a longer run than the flags
 * @property {{ loads: number, maxHeld: number, maxDrainedMs: number } | null} backlog loads after which the server
 *   still held requests and took a noticeable time to finish them
 * @property {Drain | null} trouble the first hang or crash: the route left the run after it
 */

/**
 * @param {import('../model/results.js').Results} results
 * @returns {RouteFinding[]} in the order the routes were fitted
 */
export function routeFindings(results) {
  const drains = results.drains ?? [];
  return (results.routeLoads ?? []).map((load) => {
    const own = drains.filter(
      (drain) => drain.runtime === load.runtime && drain.scenario === load.scenario && drain.stack === load.stack,
    );
    const backlogs = own.filter((drain) => drain.outcome === 'backlog');
    return {
      runtime: load.runtime,
      scenario: load.scenario,
      stack: load.stack,
      aloneMs: load.aloneMs,
      connections: load.connections,
      durationSec: load.durationSec,
      lowered: load.lowered,
      backlog: backlogs.length
        ? {
            loads: backlogs.length,
            maxHeld: Math.max(...backlogs.map((drain) => drain.heldAtEnd)),
            maxDrainedMs: Math.max(...backlogs.map((drain) => drain.drainedMs)),
          }
        : null,
      trouble: own.find((drain) => drain.outcome !== 'backlog') ?? null,
    };
  });
}
