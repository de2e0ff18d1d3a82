// @ts-check
// Counting answers by status, which every driver does the same way: the statuses a request sequence expects, and how
// many answers had them.

/**
 * The statuses a mix's answers count as throughput with.
 * @param {import('./registry.js').RouteRequest[]} sequence
 */
export function expectedStatuses(sequence) {
  return [...new Set(sequence.map((request) => request.expectedStatus))];
}

/**
 * Responses with any of these statuses.
 * @param {Record<string, number>} statusCounts
 * @param {number | number[]} statuses
 */
export function countOf(statusCounts, statuses) {
  return [statuses].flat().reduce((total, status) => total + (statusCounts[status] ?? 0), 0);
}
