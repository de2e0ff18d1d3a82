// @ts-check
// Reads what ab printed (stdout and its -e percentile CSV) into a LoadResult.

/** @typedef {import('./registry.js').LoadResult} LoadResult */

/**
 * @param {string} text @param {RegExp} pattern @param {string} what
 */
function number(text, pattern, what) {
  const match = pattern.exec(text);
  if (!match) throw new Error(`ab output has no "${what}" line`);
  return Number(match[1]);
}

/**
 * @param {string} stdout ab's report
 * @param {string} csv the file written by `ab -e`: "percent,ms" rows for 0..100
 * @returns {Omit<LoadResult, 'generatorCpuSec'>}
 */
export function parseAbOutput(stdout, csv) {
  const requests = number(stdout, /^Complete requests:\s+(\d+)/m, 'Complete requests');
  const durationSec = number(stdout, /^Time taken for tests:\s+([\d.]+) seconds/m, 'Time taken for tests');
  const failures = /\(Connect: (\d+), Receive: (\d+), Length: \d+, Exceptions: (\d+)\)/.exec(stdout);
  /** @type {Map<number, number>} */
  const percentiles = new Map();
  for (const row of csv.trim().split('\n').slice(1)) {
    const [percent, ms] = row.split(',').map(Number);
    percentiles.set(percent, ms);
  }
  const at = (/** @type {number} */ percent) => {
    const value = percentiles.get(percent);
    if (value === undefined) throw new Error(`ab percentile file has no ${percent}% row`);
    return value;
  };
  const keepAliveRequests = number(stdout, /^Keep-Alive requests:\s+(\d+)/m, 'Keep-Alive requests');
  const non2xx = /^Non-2xx responses:\s+(\d+)/m.test(stdout)
    ? number(stdout, /^Non-2xx responses:\s+(\d+)/m, 'Non-2xx responses')
    : 0;
  return {
    requests,
    // ab counts statuses only as 2xx or not: every scenario expects a 2xx, but a 200 where 201 is due passes here
    statusCounts: null,
    durationSec,
    rps: durationSec > 0 ? (requests - non2xx) / durationSec : 0,
    // ab's percentile table has whole percents only: p99.9 does not exist there
    latencyMs: {
      p50: at(50),
      p90: at(90),
      p99: at(99),
      p999: null,
      mean: number(stdout, /^Time per request:\s+([\d.]+) \[ms\] \(mean\)$/m, 'Time per request'),
      max: at(100),
    },
    // "Length" failures are responses whose length differs from the first one: normal for dynamic bodies, not errors
    errors: failures ? Number(failures[1]) + Number(failures[2]) + Number(failures[3]) : 0,
    // ab has no per-request timeout count: a timeout (-s) aborts the whole run, which fails it instead
    timeouts: 0,
    unexpectedStatus: non2xx,
    // HTTP/1.0 keep-alive needs Content-Length on every response; without it each request opens a new connection
    warnings:
      keepAliveRequests < requests
        ? [
            `ab kept only ${keepAliveRequests} of ${requests} requests on a kept-alive connection (responses without Content-Length?)`,
          ]
        : [],
  };
}
