// @ts-check
// --load-curve: after the saturation rounds, the two Nest adapters driven at the same fixed offered rates (open loop),
// in paired, rotated rounds, with the server's CPU and memory read around every run.
import { median } from '../maths/quantile.js';
import { DEFAULT_LOAD_LEVELS, LOAD_CURVE_TARGETS } from './options.js';
import { generatorFlag, generatorSaturated, missedSchedule, startOpenLoopGenerator } from './open-loop/runner.js';
import { MAX_LATE_SHARE } from './open-loop/scheduler.js';
import { rotate } from './plan.js';
import { observeRun } from './observe.js';
import { peakRssMiB, resetPeakRss } from './procstat.js';
import { deathFailure } from './targets.js';

const NANOS_PER_MICRO = 1e3;
const NANOS_PER_SEC = 1e9;
/**
 * Untimed runs per adapter and scenario before round 1, repeated until one sends at most WARM_LATE_SHARE late: the
 * generator's first connections and its JIT (compiler threads share its CPU) run late for a few seconds.
 */
const GENERATOR_WARMUP_SEC = 1;
const MAX_WARMUP_RUNS = 8;
/** A tenth of the share that leaves a run out: what a warm generator sends late at a rate it can hold. */
const WARM_LATE_SHARE = MAX_LATE_SHARE / 10;

/**
 * @typedef {import('../model/records.js').LoadLevel} LoadLevel
 * @typedef {import('../model/records.js').CurvePlan} CurvePlan
 * @typedef {import('../model/records.js').CurveRunRecord} CurveRunRecord
 * @typedef {import('../model/records.js').CurveWarmUpRecord} WarmUpRecord
 * @typedef {import('../model/records.js').LoadCurveResults} LoadCurveResults
 * @typedef {import('./runtime-plan.js').CurveLoad} CurveLoad
 * @typedef {Pick<import('./runtime-plan.js').RuntimePlan, 'options' | 'record' | 'runtimeKey' | 'progress' | 'signal' |
 *   'curveLoads'>} CurveSession the part of the runtime's plan the curve reads: each scenario's load as planned, where
 *   its records and progress go, Ctrl-C
 */

/**
 * The offered rates for one scenario: --rates as given, else shares of the slower adapter's median saturation req/s.
 * @param {import('../model/results.js').Results} results @param {string} runtime @param {string} scenario
 * @returns {CurvePlan | { runtime: string, scenario: string, missing: string }} missing: an adapter without capacity
 */
export function planCurve(results, runtime, scenario) {
  /** @type {Record<string, number>} */
  const capacityRps = {};
  for (const target of LOAD_CURVE_TARGETS) {
    const rps = results.runs
      .filter((r) => r.runtime === runtime && r.scenario === scenario && r.target === target && r.status === 'ok')
      .map((r) => /** @type {import('./drivers/registry.js').LoadResult} */ (r.load).rps);
    if (rps.length) capacityRps[target] = median(rps);
  }
  const missing = LOAD_CURVE_TARGETS.filter((target) => !(target in capacityRps));
  if (missing.length) return { runtime, scenario, missing: missing.join(' and ') };
  const { rates } = results.options;
  if (rates) return { runtime, scenario, capacityRps, basis: null, levels: rates.map((rps) => ({ share: null, rps })) };
  const basis = LOAD_CURVE_TARGETS.reduce((slower, t) => (capacityRps[t] < capacityRps[slower] ? t : slower));
  const levels = DEFAULT_LOAD_LEVELS.map((share) => ({
    share,
    rps: Math.max(1, Math.round(share * capacityRps[basis])),
  }));
  return { runtime, scenario, capacityRps, basis, levels };
}

/**
 * Seconds of load the curve adds per runtime, for the time-left estimate.
 * @param {import('./options.js').Options} options @param {string[]} scenarios
 */
export function loadCurvePlannedSec(options, scenarios) {
  if (!options.loadCurve) return 0;
  const levels = options.rates?.length ?? DEFAULT_LOAD_LEVELS.length;
  const perTarget = levels * options.rounds * options.durationSec + GENERATOR_WARMUP_SEC;
  return scenarios.length * LOAD_CURVE_TARGETS.length * perTarget;
}

/**
 * The curve of every scenario both adapters passed verification on, with the targets the saturation rounds started.
 * Each round runs every scenario, every rate and both adapters once: scenarios, rates and the adapters' order rotate
 * from round to round, and the two adapters at one rate always run back to back.
 * @param {CurveSession} session
 * @param {Map<string, import('./targets.js').ServedTarget>} running
 * @param {import('./plan.js').Pair[]} measured the pairs that passed verification
 */
export async function measureLoadCurve(session, running, measured) {
  const { options, record, runtimeKey, progress, signal } = session;
  const scenarios = [...new Set(measured.map((pair) => pair.scenario))].filter(
    (scenario) =>
      (options.curveScenarios === null || options.curveScenarios.includes(scenario)) &&
      LOAD_CURVE_TARGETS.every((target) => measured.some((p) => p.target === target && p.scenario === scenario)),
  );
  /** @type {CurvePlan[]} */
  const plans = [];
  for (const scenario of scenarios) {
    const plan = planCurve(record.results, runtimeKey, scenario);
    if ('missing' in plan)
      progress.log(`${runtimeKey} load curve of ${scenario} skipped: no capacity for ${plan.missing}`);
    else plans.push(plan);
  }
  record.curvePlans(plans);
  if (plans.length === 0) return;

  const generator = startOpenLoopGenerator({ cpu: options.cpus?.generator ?? null });
  try {
    record.curveWarmUps(await warmUp(session, generator, running, plans));
    for (let round = 0; round < options.rounds; round++) {
      let slot = 0;
      for (const plan of rotate(plans, round)) {
        for (const level of rotate(plan.levels, round)) {
          for (const target of rotate([...LOAD_CURVE_TARGETS], round)) {
            if (signal.aborted) return;
            const step = {
              runtime: runtimeKey,
              phase: `load curve ${round + 1}/${options.rounds}`,
              target,
              scenario: `${plan.scenario} at ${level.rps} req/s`,
              plannedSec: options.durationSec,
            };
            progress.start(step);
            const run = await curveRunOnSchedule(session, generator, running.get(target), {
              scenario: plan.scenario,
              target,
              level,
              round: round + 1,
              slot: ++slot,
            });
            if (signal.aborted) return; // a run cut short by Ctrl-C is no measurement
            if (run.failure) progress.log(`${runtimeKey} ${target} × ${step.scenario} failed: ${run.failure.reason}`);
            record.curveRun(run);
            progress.finish(step);
          }
        }
      }
    }
  } finally {
    await generator.stop();
  }
}

/**
 * Each adapter per scenario at its highest rate, unrecorded, until a run keeps its schedule as a warm generator does
 * or MAX_WARMUP_RUNS ran: a failure here shows again in the timed runs.
 * @param {CurveSession} session
 * @param {import('./open-loop/runner.js').OpenLoopGenerator} generator
 * @param {Map<string, import('./targets.js').ServedTarget>} running
 * @param {CurvePlan[]} plans
 * @returns {Promise<WarmUpRecord[]>} each warm-up's outcome
 */
async function warmUp(session, generator, running, plans) {
  const { runtimeKey, progress, signal } = session;
  /** @type {WarmUpRecord[]} */
  const warmUps = [];
  for (const plan of plans) {
    const { rps } = plan.levels[plan.levels.length - 1];
    for (const name of LOAD_CURVE_TARGETS) {
      const target = running.get(name);
      if (!target || target.exitInfo() || signal.aborted) continue;
      const step = {
        runtime: runtimeKey,
        phase: 'load curve warm-up',
        target: name,
        scenario: `${plan.scenario} at ${rps} req/s`,
        plannedSec: GENERATOR_WARMUP_SEC,
      };
      progress.start(step);
      const load = /** @type {CurveLoad} */ (session.curveLoads.get(plan.scenario));
      const request = { ...openLoopRequest(load, session.options, target, rps), durationSec: GENERATOR_WARMUP_SEC };
      /** @type {number[]} */
      const lateShares = [];
      while (lateShares.length < MAX_WARMUP_RUNS && !signal.aborted) {
        const run = await generator.run(request, signal).catch(() => null);
        if (!run) break;
        lateShares.push(run.lateness.share);
        if (run.lateness.share <= WARM_LATE_SHARE) break;
      }
      const kept = (lateShares.at(-1) ?? 1) <= WARM_LATE_SHARE;
      warmUps.push({ runtime: runtimeKey, scenario: plan.scenario, target: name, rps, lateShares, kept });
      if (!kept && !signal.aborted)
        progress.log(
          `${runtimeKey} ${name} × ${plan.scenario}: the generator still sent over ${WARM_LATE_SHARE * 100} % of requests late after ${lateShares.length} warm-up runs`,
        );
      progress.finish(step);
    }
  }
  return warmUps;
}

/**
 * What the generator sends to one target in one run.
 * @param {CurveLoad} load the scenario's, as the plan resolved it
 * @param {import('./options.js').Options} options
 * @param {import('./targets.js').ServedTarget} target
 * @param {number} ratePerSec
 */
function openLoopRequest({ scenario, request }, options, target, ratePerSec) {
  const { method, path, headers, body, sequence } = request;
  return {
    origin: target.url,
    path,
    method,
    headers,
    body,
    expectedStatus: scenario.status,
    ...(sequence ? { sequence } : {}),
    ratePerSec,
    durationSec: options.durationSec,
    connections: options.connections,
    serverPid: target.pid,
  };
}

/**
 * One open-loop run, run once more straight away if the generator missed its schedule without being saturated: another
 * process took the generator's CPU for milliseconds, which says nothing of the server. The missed attempt is kept in
 * the record; a second miss stands, and is left out of the latencies.
 * @param {CurveSession} session
 * @param {import('./open-loop/runner.js').OpenLoopGenerator} generator
 * @param {import('./targets.js').ServedTarget | undefined} target
 * @param {{ scenario: string, target: string, level: LoadLevel, round: number, slot: number }} where
 * @returns {Promise<CurveRunRecord>}
 */
async function curveRunOnSchedule(session, generator, target, where) {
  const record = await curveRun(session, generator, target, where);
  const { run } = record;
  if (record.status !== 'ok' || !run || !missedSchedule(run) || generatorSaturated(run) || session.signal.aborted)
    return record;
  session.progress.log(
    `${session.runtimeKey} ${where.target} × ${where.scenario} at ${where.level.rps} req/s, round ${where.round}: run again, ${generatorFlag(run)}`,
  );
  return { ...(await curveRun(session, generator, target, where)), missedAttempt: record };
}

/**
 * One open-loop run, recorded whatever happens.
 * @param {CurveSession} session
 * @param {import('./open-loop/runner.js').OpenLoopGenerator} generator
 * @param {import('./targets.js').ServedTarget | undefined} target
 * @param {{ scenario: string, target: string, level: LoadLevel, round: number, slot: number }} where
 * @returns {Promise<CurveRunRecord>}
 */
async function curveRun(session, generator, target, where) {
  const { runtimeKey, signal } = session;
  /** @type {CurveRunRecord} */
  const record = {
    runtime: runtimeKey,
    ...where,
    startedAt: new Date().toISOString(),
    status: 'failed',
    failure: null,
    run: null,
    server: null,
    generatorFlag: null,
  };
  if (!target) return { ...record, failure: { reason: 'the target is not running' } };
  const exitedBefore = target.exitInfo();
  if (exitedBefore)
    return { ...record, failure: deathFailure('the target had exited before this run', exitedBefore, target) };
  const load = /** @type {CurveLoad} */ (session.curveLoads.get(where.scenario));
  const request = openLoopRequest(load, session.options, target, where.level.rps);
  const peakRssWindow = target.pid !== null && resetPeakRss(target.pid) ? 'run' : 'process';
  const observing = await observeRun(target, session.options.cpus?.server);
  try {
    const run = await generator.run(request, signal);
    const observed = await observing(run.serverCpuNs);
    const exited = target.exitInfo();
    if (exited)
      return {
        ...record,
        ...observed,
        run,
        failure: deathFailure('the target exited during this run', exited, target),
      };
    if (run.completed === 0)
      return {
        ...record,
        ...observed,
        run,
        failure: { reason: `no response completed in ${run.elapsedSec.toFixed(2)} s` },
      };
    const cpuNs = run.serverCpuNs;
    return {
      ...record,
      ...observed,
      status: 'ok',
      run,
      server: {
        cpuShare: cpuNs === null ? null : cpuNs / NANOS_PER_SEC / run.elapsedSec,
        cpuUsPerRequest: cpuNs === null ? null : cpuNs / NANOS_PER_MICRO / run.completed,
        peakRssMiB: target.pid === null ? null : peakRssMiB(target.pid),
        peakRssWindow,
      },
      generatorFlag: generatorFlag(run),
    };
  } catch (error) {
    const exited = target.exitInfo();
    const reason = /** @type {Error} */ (error).message;
    return {
      ...record,
      failure: exited ? deathFailure(`the target exited during this run (${reason})`, exited, target) : { reason },
    };
  }
}
