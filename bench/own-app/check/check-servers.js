// @ts-check
// The compatibility check's two servers. A request after which a server's process had ended is told apart from one
// that failed: how it ended and the last error it wrote are the finding, and the server is started again before the
// next route, so no later request is asked of a dead server.
import { errorLine } from '../../errors.js';
import { exitWithin } from '../../run/targets.js';

/** After a request failed, this long is allowed for its server's process to end. */
const EXIT_WAIT_MS = 1_000;

/** The adapters in the order the check asks them. */
export const CHECKED_ADAPTERS = /** @type {const} */ (['express', 'fastify']);

/**
 * @typedef {import('../../run/targets.js').RunningTarget} RunningTarget
 * @typedef {import('../../model/own-app-record.js').ProcessEnd} ProcessEnd
 */

/**
 * Starts both servers; one that does not start is the pair's failure.
 * @param {(adapter: number) => Promise<RunningTarget>} start adapter: an index into CHECKED_ADAPTERS
 */
export async function startPair(start) {
  const started = await Promise.allSettled(CHECKED_ADAPTERS.map((_, i) => start(i)));
  const servers = started.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : null));
  const failed = started.findIndex((outcome) => outcome.status === 'rejected');
  const reason = failed === -1 ? null : /** @type {PromiseRejectedResult} */ (started[failed]).reason;
  const running = (/** @type {number} */ i) => /** @type {RunningTarget} */ (servers[i]);
  return {
    /** @type {{ adapter: string, error: string } | null} */
    failure:
      failed === -1
        ? null
        : { adapter: CHECKED_ADAPTERS[failed], error: reason instanceof Error ? reason.message : String(reason) },
    /** @param {number} i */
    url: (i) => running(i).url,
    /**
     * How adapter i's process ended, or null while it runs; after a failed request, it is given a moment to end.
     * @param {number} i @param {boolean} requestFailed
     * @returns {Promise<ProcessEnd | null>}
     */
    async ended(i, requestFailed) {
      const server = running(i);
      const info = requestFailed ? await exitWithin(server, EXIT_WAIT_MS) : server.exitInfo();
      return info && { code: info.code, signal: info.signal, error: errorLine(server.stderrTail()) };
    },
    /**
     * Starts again each server whose process ended.
     * @returns {Promise<{ adapter: string, error: string } | null>} the one that did not start, and why
     */
    async restart() {
      for (const [i, server] of servers.entries()) {
        if (!server?.exitInfo()) continue;
        try {
          servers[i] = await start(i);
        } catch (error) {
          servers[i] = null;
          return { adapter: CHECKED_ADAPTERS[i], error: error instanceof Error ? error.message : String(error) };
        }
      }
      return null;
    },
    stop: () => Promise.all(servers.flatMap((server) => (server ? [server.stop()] : []))),
  };
}
