// @ts-check
// One timed run on a started server, recorded whatever happens, with the server's CPU and memory, the generator's, and
// the other servers' CPU watched while it runs.
import { GENERATOR_SATURATED_SHARE } from './drivers/registry.js';
import { observeRun } from './observe.js';
import { peakRssMiB, processCpuNs, resetPeakRss } from './procstat.js';
import { settle } from './settle.js';
import { instanceName } from '../model/stacks.js';
import { deathFailure, exitWithin } from './targets.js';
import { loadRun, settlingServers } from './session.js';
import { blockKey } from '../model/keys.js';

/** @typedef {import('./plan.js').Pair} Pair */
/** @typedef {import('../model/results.js').RunRecord} RunRecord */
/** @typedef {import('./targets.js').ServedTarget} ServedTarget */
/** @typedef {import('./runtime-plan.js').RuntimePlan} RuntimePlan */
/** @typedef {import('./runtime-plan.js').RunState} RunState */

const NANOS_PER_MICRO = 1000;

/**
 * CPU counters of the servers that are not being measured: they share the measured one's CPU, so any work they do
 * (a timer, a late garbage collection) is taken from it.
 * @param {Map<string, ServedTarget>} running
 * @param {string[]} measured the run's server and the servers loaded with it
 */
function neighbourCpu(running, measured) {
  const startedAt = process.hrtime.bigint();
  const pids = new Map(
    [...running].flatMap(([name, target]) =>
      !measured.includes(name) && target.pid !== null ? [[name, target.pid]] : [],
    ),
  );
  const before = new Map([...pids].map(([name, pid]) => [name, processCpuNs(pid)]));
  /** @returns {{ busiest: string | null, cpuShare: number }} the neighbour that used the most CPU, in shares of a core */
  return () => {
    const elapsedNs = Number(process.hrtime.bigint() - startedAt);
    let busiest = null;
    let most = 0;
    for (const [name, cpuBefore] of before) {
      const cpuAfter = processCpuNs(/** @type {number} */ (pids.get(name)));
      if (cpuBefore === null || cpuAfter === null) continue;
      if (cpuAfter - cpuBefore > most) [busiest, most] = [name, cpuAfter - cpuBefore];
    }
    return { busiest, cpuShare: elapsedNs > 0 ? most / elapsedNs : 0 };
  };
}

/**
 * Runs loaded at the same time (--pairing together): settled once, each started when all are ready, and each
 * server's company left out of what its run charges to others.
 * @typedef {object} Together
 * @property {import('./settle.js').Settling} settle the wait before the slot, shared
 * @property {string[]} names every server of the slot, by instanceName
 * @property {() => Promise<void>} ready resolves once every run of the slot has called it
 * @property {number} durationSec the slot's length
 */

/**
 * A barrier for `count` callers.
 * @param {number} count
 * @returns {() => Promise<void>}
 */
export function barrier(count) {
  let arrived = 0;
  /** @type {() => void} */
  let release = () => {};
  const all = new Promise((resolve) => (release = () => resolve(undefined)));
  return () => {
    if (++arrived === count) release();
    return all;
  };
}

/**
 * One timed run, recorded whatever happens: a dead target or a failing generator makes a failed record.
 * @param {RuntimePlan} plan
 * @param {RunState} state
 * @param {Pair} pair
 * @param {{ round: number, slot: number, start: number }} place round and slot 1-based, start 0-based
 * @param {Together | null} [together] the slot this run shares with the other servers of its pair
 * @returns {Promise<RunRecord>}
 */
export async function timedRun(plan, state, pair, { round, slot, start }, together = null) {
  const { running } = state;
  const target = running.get(instanceName(pair));
  const ready = together?.ready ?? (async () => {});
  /** @type {RunRecord} */
  const record = {
    runtime: plan.runtimeKey,
    ...pair,
    round,
    slot,
    start,
    startedAt: new Date().toISOString(),
    status: 'failed',
    failure: null,
    load: null,
    server: null,
    generator: null,
    neighbours: null,
    state: null,
    host: null,
  };
  if (!target) {
    await ready();
    return { ...record, failure: { reason: 'the target is not running' } };
  }
  const exitedBefore = target.exitInfo();
  if (exitedBefore) {
    await ready();
    return { ...record, failure: deathFailure('the target had exited before this run', exitedBefore, target) };
  }

  if (together) record.together = together.names;
  record.settle = together?.settle ?? (await settle(settlingServers(running), { signal: plan.signal }));
  // a url target runs elsewhere: its CPU and memory are not ours to read
  const pid = target.pid;
  const peakWindow = pid !== null && resetPeakRss(pid) ? 'run' : 'process';
  const company = (together?.names ?? []).flatMap((name) => {
    const companion = running.get(name);
    return name !== instanceName(pair) && companion?.pid ? [companion.pid] : [];
  });
  const neighbours = neighbourCpu(running, [instanceName(pair), ...(together?.names ?? [])]);
  /** @type {Awaited<ReturnType<typeof observeRun>>} */
  let observing;
  try {
    observing = await observeRun(target, plan.options.cpus?.server);
  } finally {
    // a run that cannot start must not hold the others of its slot
    await ready();
  }
  const fitted = state.fittedLoads.get(blockKey(pair));
  const durationSec = together?.durationSec ?? fitted?.durationSec ?? plan.options.durationSec;
  const load = {
    run: () => loadRun(plan, state, target, pair, durationSec),
    inFlight: (fitted?.connections ?? plan.options.connections) * plan.options.pipelining,
    driver: plan.driver.name,
  };
  return loadAndRecord(load, target, record, {
    pid,
    peakWindow,
    company,
    neighbours,
    observing,
  });
}

/**
 * The timed load of a run whose server is up and watched, and the record it makes.
 * @param {object} load
 * @param {() => Promise<import('./drivers/registry.js').LoadResult>} load.run sends the run's load
 * @param {number} load.inFlight the requests its connections keep in flight
 * @param {string} load.driver the generator's name
 * @param {ServedTarget} target
 * @param {RunRecord} record the run's record so far
 * @param {object} watch
 * @param {number | null} watch.pid the server's; null for a url target
 * @param {'run' | 'process'} watch.peakWindow what the peak RSS will cover
 * @param {number[]} watch.company the pids of the servers loaded with it
 * @param {ReturnType<typeof neighbourCpu>} watch.neighbours
 * @param {Awaited<ReturnType<typeof observeRun>>} watch.observing
 * @returns {Promise<RunRecord>}
 */
async function loadAndRecord(
  { run, inFlight, driver },
  target,
  record,
  { pid, peakWindow, company, neighbours, observing },
) {
  // read last before and first after the load, so the server's CPU covers the generator's life and little else
  const cpuBefore = pid === null ? null : processCpuNs(pid);
  const companyBefore = company.map(processCpuNs);
  try {
    const load = await run();
    const cpuAfter = pid === null ? null : processCpuNs(pid);
    const companyNs = company.reduce(
      (sum, companion, i) => sum + ((processCpuNs(companion) ?? 0) - (companyBefore[i] ?? 0)),
      0,
    );
    const neighbourUse = neighbours();
    const serverCpuNs = cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null;
    // the company's CPU is the slot's, not work the host did beside it
    const observed = await observing(serverCpuNs === null ? null : serverCpuNs + companyNs);
    const exited = target.exitInfo();
    if (exited)
      return {
        ...record,
        ...observed,
        failure: deathFailure('the target exited during this run', exited, target),
        load,
      };
    if (load.requests === 0 && load.errors === 0) {
      // nothing answered, nothing refused: the route is slower than the run, which the report says instead of failing
      const reason = `none of the ${inFlight} requests in flight answered within ${Number(load.durationSec.toFixed(2))} s`;
      return { ...record, ...observed, status: 'too-slow', failure: { reason }, inFlight, load };
    }
    if (load.requests === 0)
      return { ...record, ...observed, failure: { reason: `no response completed in ${load.durationSec} s` }, load };
    const cpuShare = load.durationSec > 0 ? load.generatorCpuSec / load.durationSec : 0;
    return {
      ...record,
      ...observed,
      status: 'ok',
      load,
      server:
        pid === null
          ? null
          : {
              cpuUsPerRequest:
                serverCpuNs !== null && load.requests > 0 ? serverCpuNs / NANOS_PER_MICRO / load.requests : null,
              peakRssMiB: peakRssMiB(pid),
              peakRssWindow: peakWindow,
            },
      generator: { cpuShare, saturated: cpuShare >= GENERATOR_SATURATED_SHARE },
      neighbours: neighbourUse,
    };
  } catch (error) {
    const exited = await exitWithin(target, EXIT_REPORT_GRACE_MS);
    const reason = `${driver} failed: ${/** @type {Error} */ (error).message}`;
    return {
      ...record,
      failure: exited ? deathFailure(`the target exited during this run (${reason})`, exited, target) : { reason },
    };
  }
}

/** How long a generator error waits for the server's exit to be reported, to tell "server died" from "generator broke". */
const EXIT_REPORT_GRACE_MS = 200;
