// @ts-check
// Reading the servers' own telemetry: per target the young generation's size, GC and event-loop figures over the
// rounds; per compared pair the rounds where one side's heap sizing stepped away from its usual state, a
// memory-reducing collection ran, or the hypervisor stole time.
import { median } from '../maths/quantile.js';

/** @typedef {import('../model/results.js').RunRecord} RunRecord */
/** @typedef {import('../model/results.js').GcSummary} GcSummary */

/** A young generation at most this share of the largest a target had in its rounds marks a round as stepped down. */
export const YOUNG_STEP_SHARE = 0.5;
/** Rounds where the hypervisor stole more than this share of the CPUs' time are named. */
export const STEAL_LIMIT = 0.02;
/**
 * Work on the server's core not charged to the server (other processes, interrupts) beyond this share of it is named; /proc/stat counts in ticks,
 * so a short run reads a few percent either way.
 */
export const OTHER_CPU_LIMIT = 0.05;
/** A side's rounds with a full GC are named when they cost at least this many times its other rounds' CPU per request. */
export const FULL_GC_COST_LIMIT = 1.2;
/** ...and when there are at least this many of them, and twice as many rounds without, to compare with. */
const FULL_GC_MIN_ROUNDS = 2;
/** The flag V8 gives the memory reducer's collections (and low-memory notifications). */
const REDUCING_FLAG = 'allExternalMemory';

/**
 * @typedef {object} TargetState one target's server state over its rounds
 * @property {{ low: number, high: number } | null} youngMiB the young generation's size at the runs' starts
 * @property {number | null} youngUsualMiB its median: the size most rounds started with
 * @property {number | null} minorGcsPerRun median scavenges in a run
 * @property {number | null} gcShare median share of a run's wall time spent in GC pauses
 * @property {number | null} majorGcs mark-compacts during the runs and between them, over the rounds; null when the
 *   runtime reports no GC
 * @property {number[]} reducingRounds rounds before or during which a memory-reducing collection ran
 * @property {number | null} eventLoopP99Ms median of the runs' event-loop delay p99
 * @property {number | null} stealMax the most steal in one run
 * @property {number} runsWithState how many runs carried telemetry
 * @property {RoundState[]} rounds each successful run, in round order
 *
 * @typedef {object} RoundState
 * @property {number} round
 * @property {number} rps
 * @property {number | null} youngMiB at the run's start
 * @property {number} majorGcs before (since the previous run) and during the run
 * @property {boolean} reducing a memory-reducing collection among them
 *
 * @typedef {object} HeapStep rounds in which one side started with a much smaller young generation than usual
 * @property {string} target
 * @property {number[]} rounds
 * @property {{ low: number, high: number }} steppedMiB the young generation in those rounds
 * @property {number} usualMiB in the other rounds (median)
 *
 * @typedef {object} PairState what the two sides' telemetry says about a ratio's rounds
 * @property {HeapStep[]} heapSteps
 * @property {Array<{ target: string, rounds: number[] }>} reducingGcs
 * @property {Array<{ target: string, rounds: number[], cpuRatio: number }>} fullGcCosts rounds whose server ran a full
 *   (mark-compact) GC just before or during its run, where they cost FULL_GC_COST_LIMIT or more times the CPU per request
 *   of the side's other rounds, net of the run's own GC pauses (V8 then recompiles what the GC threw away:
 *   docs/experiments/jit-recompiles/)
 * @property {number[]} stealRounds rounds where either run had more than STEAL_LIMIT steal
 * @property {number} stealMax
 * @property {number[]} otherCpuRounds rounds where work not charged to the server took more than OTHER_CPU_LIMIT of the
 *   server's core during either run
 * @property {number} otherCpuMax
 * @property {Array<{ round: number, target: string, busiest: string | null, inFlight: number, cpuShare: number }>}
 *   unsettled runs that started before the servers had settled (bench/run/settle.js)
 */

/**
 * @template {object} T @template {keyof T} K
 * @param {T} object @param {K[]} keys
 * @returns {Pick<T, K>}
 */
function pick(object, keys) {
  return /** @type {Pick<T, K>} */ (Object.fromEntries(keys.map((key) => [key, object[key]])));
}

/** @param {RunRecord} run */
const youngOf = (run) => run.state?.heapBefore?.youngMiB ?? null;

/** @param {(number | null | undefined)[]} values */
function medianOrNull(values) {
  const present = /** @type {number[]} */ (values.filter((v) => typeof v === 'number' && Number.isFinite(v)));
  return present.length ? median(present) : null;
}

/** @param {GcSummary | null | undefined} gc @param {string} kind */
const countOf = (gc, kind) => gc?.pauses[kind]?.count ?? 0;

/** @param {GcSummary | null | undefined} gc */
const pauseMsOf = (gc) => Object.values(gc?.pauses ?? {}).reduce((total, sum) => total + sum.totalMs, 0);

/** @param {RunRecord} run */
const reducedAround = (run) =>
  (run.state?.between.flagged[REDUCING_FLAG] ?? 0) + (run.state?.during.flagged[REDUCING_FLAG] ?? 0) > 0;

/**
 * @param {RunRecord[]} runs one target's, of one runtime, scenario and stack
 * @returns {TargetState | null} null when no run carried telemetry or host figures
 */
export function targetState(runs) {
  const observed = runs.filter((run) => run.state || run.host);
  if (observed.length === 0) return null;
  const withState = observed.filter((run) => run.state);
  // a runtime that reports no GC would read as one that never collected
  const gcRuns = withState.filter((run) => !run.state?.unsupported.gc);
  const young = /** @type {number[]} */ (withState.map(youngOf).filter((v) => v !== null));
  const steals = /** @type {number[]} */ (observed.map((run) => run.host?.stealShare).filter((v) => v != null));
  return {
    youngMiB: young.length ? { low: Math.min(...young), high: Math.max(...young) } : null,
    youngUsualMiB: medianOrNull(young),
    minorGcsPerRun: medianOrNull(gcRuns.map((run) => countOf(run.state?.during, 'minor'))),
    gcShare: medianOrNull(
      gcRuns.map((run) =>
        run.load && run.load.durationSec > 0 ? pauseMsOf(run.state?.during) / (run.load.durationSec * 1000) : null,
      ),
    ),
    majorGcs: gcRuns.length
      ? gcRuns.reduce(
          (total, run) => total + countOf(run.state?.between, 'major') + countOf(run.state?.during, 'major'),
          0,
        )
      : null,
    reducingRounds: withState.filter(reducedAround).map((run) => run.round),
    eventLoopP99Ms: medianOrNull(withState.map((run) => run.state?.eventLoopDelay?.p99Ms)),
    stealMax: steals.length ? Math.max(...steals) : null,
    runsWithState: withState.length,
    rounds: withState.flatMap((run) =>
      run.status === 'ok' && run.load
        ? [
            {
              round: run.round,
              rps: run.load.rps,
              youngMiB: youngOf(run),
              majorGcs: countOf(run.state?.between, 'major') + countOf(run.state?.during, 'major'),
              reducing: reducedAround(run),
            },
          ]
        : [],
    ),
  };
}

/**
 * @param {Array<{ round: number, numerator: RunRecord, denominator: RunRecord }>} pairs the ratio's paired rounds
 * @returns {PairState}
 */
export function pairState(pairs) {
  /** @type {HeapStep[]} */
  const heapSteps = [];
  /** @type {PairState['reducingGcs']} */
  const reducingGcs = [];
  /** @type {PairState['fullGcCosts']} */
  const fullGcCosts = [];
  for (const side of /** @type {const} */ (['numerator', 'denominator'])) {
    const runs = pairs.map((pair) => pair[side]);
    const target = runs[0]?.target;
    if (!target) continue;
    const step = heapStep(runs);
    if (step) heapSteps.push({ target, ...step });
    const rounds = runs.filter(reducedAround).map((run) => run.round);
    if (rounds.length) reducingGcs.push({ target, rounds });
    const cost = fullGcCost(runs);
    if (cost) fullGcCosts.push({ target, ...cost });
  }
  const worst = (/** @type {(run: RunRecord) => number | null | undefined} */ pick) =>
    pairs.map((pair) => Math.max(pick(pair.numerator) ?? 0, pick(pair.denominator) ?? 0));
  const steal = worst((run) => run.host?.stealShare);
  const other = worst((run) => run.host?.serverCore?.otherShare);
  return {
    heapSteps,
    reducingGcs,
    fullGcCosts,
    stealRounds: pairs.filter((_, i) => steal[i] > STEAL_LIMIT).map((pair) => pair.round),
    stealMax: Math.max(0, ...steal),
    otherCpuRounds: pairs.filter((_, i) => other[i] > OTHER_CPU_LIMIT).map((pair) => pair.round),
    otherCpuMax: Math.max(0, ...other),
    unsettled: pairs.flatMap((pair) =>
      [pair.numerator, pair.denominator].flatMap((run) =>
        run.settle && !run.settle.settled
          ? [{ round: pair.round, target: run.target, ...pick(run.settle, ['busiest', 'inFlight', 'cpuShare']) }]
          : [],
      ),
    ),
  };
}

/** @param {RunRecord} run */
const fullGcsAround = (run) => countOf(run.state?.between, 'major') + countOf(run.state?.during, 'major');

/**
 * The server's CPU per request in a run, without the run's GC pauses: what the code itself cost.
 * @param {RunRecord} run
 */
function cpuUsPerRequestBesidesGc(run) {
  const perRequest = run.server?.cpuUsPerRequest;
  if (perRequest == null || !run.load?.requests) return null;
  return perRequest - (pauseMsOf(run.state?.during) * 1000) / run.load.requests;
}

/**
 * The rounds with a full GC around them and what they cost beside the side's other rounds, or null when there are too
 * few of either or they cost less than FULL_GC_COST_LIMIT times as much.
 * @param {RunRecord[]} runs one side's, in round order
 */
function fullGcCost(runs) {
  const measured = runs.filter(
    (run) => run.state && !run.state.unsupported.gc && cpuUsPerRequestBesidesGc(run) !== null,
  );
  const around = measured.filter((run) => fullGcsAround(run) > 0);
  const rest = measured.filter((run) => fullGcsAround(run) === 0);
  if (around.length < FULL_GC_MIN_ROUNDS || rest.length < 2 * FULL_GC_MIN_ROUNDS) return null;
  const cpu = (/** @type {RunRecord[]} */ some) =>
    median(some.map((run) => /** @type {number} */ (cpuUsPerRequestBesidesGc(run))));
  const cpuRatio = cpu(around) / cpu(rest);
  return cpuRatio >= FULL_GC_COST_LIMIT ? { rounds: around.map((run) => run.round), cpuRatio } : null;
}

/**
 * The rounds whose young generation was at most YOUNG_STEP_SHARE of the largest it was in any round.
 * @param {RunRecord[]} runs one side's, in round order
 */
function heapStep(runs) {
  const sized = runs.flatMap((run) => {
    const young = youngOf(run);
    return young === null ? [] : [{ round: run.round, young }];
  });
  if (sized.length < 2) return null;
  const limit = Math.max(...sized.map((s) => s.young)) * YOUNG_STEP_SHARE;
  const stepped = sized.filter((s) => s.young <= limit);
  if (stepped.length === 0) return null;
  const rest = sized.filter((s) => s.young > limit);
  const youngs = stepped.map((s) => s.young);
  return {
    rounds: stepped.map((s) => s.round),
    steppedMiB: { low: Math.min(...youngs), high: Math.max(...youngs) },
    usualMiB: median(rest.map((s) => s.young)),
  };
}

/** A latency percentile this many times the median is a spike to explain. */
export const SPIKE_FACTOR = 10;
/** A pause or delay at least this share of the spike's latency can account for it: requests queued behind it. */
const ACCOUNTS_SHARE = 0.5;

/**
 * @typedef {object} Spike a percentile far above the median, and what in the same runs lined up with it
 * @property {string} percentile
 * @property {number} ms
 * @property {string} cause
 */

/**
 * @param {Record<string, { value: number } | undefined> | null} latencyMs percentiles by name, p50 among them
 * @param {Array<{ state?: import('../model/results.js').ServerState | null,
 *   host?: import('../model/results.js').HostDuringRun | null }>} runs the runs the percentiles came from
 * @returns {Spike[]}
 */
export function attributeSpikes(latencyMs, runs) {
  const p50 = latencyMs?.p50?.value;
  if (!latencyMs || !p50) return [];
  const pauses = runs.flatMap((run) =>
    Object.entries(run.state?.during.pauses ?? {}).map(([kind, sum]) => ({ kind, ms: sum.maxMs })),
  );
  const longest = pauses.reduce((a, b) => (b.ms > a.ms ? b : a), { kind: '', ms: 0 });
  const loopMax = Math.max(0, ...runs.map((run) => run.state?.eventLoopDelay?.maxMs ?? 0));
  const steal = Math.max(0, ...runs.map((run) => run.host?.stealShare ?? 0));
  const other = Math.max(0, ...runs.map((run) => run.host?.serverCore?.otherShare ?? 0));
  const observed = runs.some((run) => run.state || run.host);
  return Object.entries(latencyMs).flatMap(([percentile, estimate]) => {
    if (!estimate || percentile === 'p50' || estimate.value < SPIKE_FACTOR * p50) return [];
    const ms = estimate.value;
    const causes = [
      longest.ms >= ACCOUNTS_SHARE * ms ? `a ${longest.kind} GC pause of ${round(longest.ms)} ms` : '',
      longest.ms < ACCOUNTS_SHARE * ms && loopMax >= ACCOUNTS_SHARE * ms
        ? `an event-loop delay of ${round(loopMax)} ms, beyond any GC pause`
        : '',
      steal > STEAL_LIMIT ? `${round(steal * 100)} % of the CPUs stolen by the hypervisor` : '',
      other > OTHER_CPU_LIMIT ? `other work on the server's core (${round(other * 100)} % of it)` : '',
    ].filter(Boolean);
    const cause = causes.length ? causes.join('; ') : observed ? 'nothing found' : 'no telemetry recorded';
    return [{ percentile, ms, cause }];
  });
}

/** @param {number} value */
function round(value) {
  return Number(value.toPrecision(2));
}
