// @ts-check
// What a scenario's ratio divides, resolved once with the scenario. Closed loop, each server's req/s. Paced (its load
// has a connectionRate), the generator sets req/s on both sides alike, so the ratio divides their CPU per request
// instead: the denominator's over the numerator's, so that above 1 still means the numerator did better.

/** @typedef {'req/s' | 'cpu-per-request'} Metric */

/** @type {Metric} */
export const RATE = 'req/s';
/** @type {Metric} */
export const CPU_PER_REQUEST = 'cpu-per-request';
export const METRICS = Object.freeze([RATE, CPU_PER_REQUEST]);

/**
 * A scenario's metric when it names none: CPU per request where the load is paced, req/s otherwise.
 * @param {{ connectionRate: number | null } | null | undefined} load
 * @returns {Metric}
 */
export function defaultMetric(load) {
  return load?.connectionRate ? CPU_PER_REQUEST : RATE;
}

/** A microsecond in seconds. */
const US_PER_SEC = 1e6;

/**
 * A run's value on the metric, higher is better: its req/s, or the requests its server answered per CPU second; null
 * where the run did not measure it (no answers, or no server CPU to read).
 * @param {Metric} metric
 * @param {{ load?: { rps: number } | null, server?: { cpuUsPerRequest: number | null } | null }} run
 * @returns {number | null}
 */
export function metricValue(metric, run) {
  if (metric === CPU_PER_REQUEST) {
    const perRequest = run.server?.cpuUsPerRequest;
    return typeof perRequest === 'number' && perRequest > 0 ? US_PER_SEC / perRequest : null;
  }
  const rps = run.load?.rps;
  return typeof rps === 'number' && rps > 0 ? rps : null;
}

/**
 * What a ratio on the metric divides, in words: "req/s", or "CPU per request, Express's ÷ Fastify's".
 * @param {Metric} metric @param {{ numerator: string, denominator: string }} names
 */
export function metricWords(metric, { numerator, denominator }) {
  return metric === CPU_PER_REQUEST ? `CPU per request, ${denominator}'s ÷ ${numerator}'s` : 'req/s';
}

/**
 * What a row on the metric is labelled with after its scenario: nothing for req/s, " (CPU per request)" otherwise.
 * @param {Metric} metric
 */
export function metricSuffix(metric) {
  return metric === CPU_PER_REQUEST ? ' (CPU per request)' : '';
}
