// @ts-check
// Where a run's host stands: its headline row beside the same row in the committed reference runs, one host each, so a
// reader knows whether their answer is typical or their CPU's own (docs/method.md, "The host as a level"). The
// references are an index (reference-hosts.json, built by scripts/reference-hosts.mjs) that a run records when it
// starts, so its report rebuilds the same however the index grows.

/** @typedef {import('../model/records.js').CpuIdentity} CpuIdentity */

/** @typedef {import('../model/reference-host.js').ReferenceHost} ReferenceHost */

/**
 * A run's headline on one runtime, with the references' on the same runtime line.
 * @typedef {object} HostPlace
 * @property {string} runtime
 * @property {string} host this run's CPU identity in words
 * @property {{ ratio: number, interval: { low: number, high: number } | null, verdict: string }} headline
 * @property {Array<ReferenceHost & { host: string, sameHost: boolean }>} references one per run, in the index's order
 *
 * @typedef {object} HostPlacing
 * @property {string} scenario the headline's
 * @property {string} stack
 * @property {HostPlace[]} places one per runtime with a headline and a reference on its line
 */

/** The fields that tell two CPUs apart, as `compare` reads them (analysis/comparison.js). */
const IDENTITY_FIELDS = /** @type {const} */ (['vendor', 'family', 'model', 'stepping', 'microcode']);
/** The vendor strings CPUs report, in the words a reader knows. */
const VENDOR_NAMES = /** @type {Record<string, string>} */ ({ AuthenticAMD: 'AMD', GenuineIntel: 'Intel' });

/**
 * A CPU identity in words: `Intel family 6 model 167 stepping 1, microcode 0x1`.
 * @param {Omit<CpuIdentity, 'caches'>} cpu
 */
export function hostWords(cpu) {
  const vendor = cpu.vendor === null ? cpu.modelName : (VENDOR_NAMES[cpu.vendor] ?? cpu.vendor);
  const numbers = /** @type {const} */ (['family', 'model', 'stepping'])
    .filter((field) => cpu[field] !== null)
    .map((field) => `${field} ${cpu[field]}`);
  return `${[vendor, ...numbers].join(' ')}${cpu.microcode ? `, microcode ${cpu.microcode}` : ''}`;
}

/** @param {Omit<CpuIdentity, 'caches'>} a @param {Omit<CpuIdentity, 'caches'>} b */
function sameCpu(a, b) {
  return IDENTITY_FIELDS.every((field) => a[field] === b[field]);
}

/** `node@26.12.1` → `node@26`: runs on one release line are placed together. */
const runtimeLine = (/** @type {string} */ runtime) => runtime.replace(/^([^@]+@\d+).*$/, '$1');

/**
 * The identity a record keeps of a CPU: without its caches, which the words and the match do not use.
 * @param {CpuIdentity} cpu
 * @returns {ReferenceHost['cpu']}
 */
function identityOf({ vendor, family, model, modelName, stepping, microcode }) {
  return { vendor, family, model, modelName, stepping, microcode };
}

/**
 * The judged row a run is read for, on each runtime: the built-in app's hello on the bare stack.
 * @param {import('./rows.js').RatioRow[]} ratios
 * @param {{ scenario: string, stack: string }} headline
 */
function headlineRows(ratios, { scenario, stack }) {
  return ratios.filter(
    (row) =>
      row.judged &&
      row.scenario === scenario &&
      row.stack === stack &&
      row.verdict !== 'too slow' &&
      Number.isFinite(row.summary.median),
  );
}

/** The row every reference and every placed run is compared on. */
export const HEADLINE = Object.freeze({ scenario: 'hello', stack: 'bare' });

/**
 * A committed run's entries in the index: its headline on each runtime, when the run recorded its CPU identity.
 * @param {string} run its folder, from the repository's root
 * @param {import('../model/results.js').Results} results
 * @param {import('./rows.js').RatioRow[]} ratios its analysis's
 * @returns {ReferenceHost[]}
 */
export function referenceEntries(run, results, ratios) {
  const cpu = results.environment.host?.cpu;
  if (!cpu) return [];
  return headlineRows(ratios, HEADLINE).map((row) => ({
    run,
    startedAt: results.startedAt,
    cpu: identityOf(cpu),
    runtime: row.runtime,
    ...HEADLINE,
    ratio: row.summary.median,
    interval: row.summary.ci
      ? {
          low: row.summary.ci.low,
          high: row.summary.ci.high,
          level: row.starts?.interval?.coverage ?? row.summary.ci.coverage,
        }
      : null,
    verdict: row.verdict ?? 'inconclusive',
  }));
}

/**
 * Where the run's host stands, from the references it recorded when it started; null when it recorded none (a run
 * from before they were recorded, or of another app) or did not record its CPU.
 * @param {import('../model/results.js').Results} results
 * @param {import('./rows.js').RatioRow[]} ratios
 * @returns {HostPlacing | null}
 */
export function hostPlacing(results, ratios) {
  const cpu = results.environment.host?.cpu;
  const references = results.referenceHosts;
  if (!cpu || !references?.length) return null;
  const places = headlineRows(ratios, HEADLINE).flatMap((row) => {
    const onLine = references.filter(
      (entry) =>
        runtimeLine(entry.runtime) === runtimeLine(row.runtime) &&
        entry.scenario === HEADLINE.scenario &&
        entry.stack === HEADLINE.stack,
    );
    if (!onLine.length) return [];
    return [
      {
        runtime: row.runtime,
        host: hostWords(cpu),
        headline: {
          ratio: row.summary.median,
          interval: row.summary.ci && { low: row.summary.ci.low, high: row.summary.ci.high },
          verdict: row.verdict ?? 'inconclusive',
        },
        references: onLine.map((entry) => ({
          ...entry,
          host: hostWords(entry.cpu),
          sameHost: sameCpu(cpu, entry.cpu),
        })),
      },
    ];
  });
  return places.length ? { ...HEADLINE, places } : null;
}
