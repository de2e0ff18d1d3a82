// @ts-check
// What every design does with servers: start them (a target once per stack), verify them, warm them up, load them,
// and after each load on a --nest-app route, wait until its server is done with it, restarting one that hung or died.
// The timed run itself is timed-run.js; the designs (designs/) decide which runs to make and in what order.
import { join } from 'node:path';
import { drainRoute, probesFor } from './recover.js';
import { measureRouteLoads } from './route-load.js';
import { steadyStateArgs } from './steady-state.js';
import { roundOrder } from './plan.js';
import { instanceName, targetStackEnv } from '../model/stacks.js';
import { PortInUseError, describeExit, exitWithin, serveTarget, serverPort } from './targets.js';
import { blockKey } from '../model/keys.js';
import { errorLine } from '../errors.js';
import { verifyPair } from './verify.js';

/** @typedef {import('./plan.js').Pair} Pair */
/** @typedef {import('./targets.js').ServedTarget} ServedTarget */
/** @typedef {import('./runtime-plan.js').RuntimePlan} RuntimePlan */
/** @typedef {import('./runtime-plan.js').RunState} RunState */
/** @typedef {import('./runtime-plan.js').ResolvedLoad} ResolvedLoad */

/** @param {Map<string, ServedTarget>} running */
export function stopAll(running) {
  return Promise.all([...running.values()].map((target) => target.stop()));
}

/**
 * A server whose young generation is still growing would measure its growth: warm-ups go on (up to
 * MAX_WARM_UPS each pair) while the server's young generation grew since its last snapshot.
 */
const MAX_WARM_UPS = 4;

/**
 * The untimed load on a start's fresh servers before its first round, every pair once in round 1's order, repeated
 * while its server's heap sizing is still moving; each pair's young-generation sizes are recorded (warmUps). The
 * telemetry's "between runs" begins here.
 * @param {RuntimePlan} plan
 * @param {RunState} state
 * @param {Pair[]} pairs
 * @param {number} start 0-based
 * @returns {Promise<boolean>} false when interrupted
 */
export async function warmUp(plan, state, pairs, start) {
  const { options, record, progress, runtimeKey } = plan;
  /** @type {Map<ServedTarget, number | null>} each server's young generation at its last snapshot */
  const young = new Map();
  // start-up's collections are not the measured state's: the first run's "between" starts here
  for (const target of state.running.values()) young.set(target, youngMiB(await target.telemetry?.snapshot()));
  if (options.warmupSec <= 0) return !plan.signal.aborted;
  for (const pair of roundOrder(pairs, 0, plan.targets)) {
    const target = state.running.get(instanceName(pair));
    if (!target || state.troubled.has(blockKey(pair))) continue;
    /** @type {Array<number | null>} */
    const sizes = [];
    for (let run = 0; run < MAX_WARM_UPS; run++) {
      if (plan.signal.aborted) return false;
      if (target.exitInfo()) break;
      const step = { runtime: runtimeKey, phase: 'warm-up', ...pair, plannedSec: options.warmupSec };
      progress.start(step);
      const load = await loadRun(plan, state, target, pair, options.warmupSec).catch((error) => {
        progress.log(`warm-up of ${instanceName(pair)} × ${pair.scenario} failed: ${error.message}`);
        return null;
      });
      progress.finish(step);
      if (!(await afterLoad(plan, state, pairs, pair, { phase: 'warm-up', round: 0, start }, load))) break;
      const before = young.get(target) ?? null;
      const after = youngMiB(await target.telemetry?.snapshot());
      young.set(target, after);
      sizes.push(after);
      if (after === null || before === null || after <= before) break;
    }
    record.warmedUp({ runtime: runtimeKey, ...pair, start, youngMiB: sizes });
  }
  return !plan.signal.aborted;
}

/** @param {import('./telemetry/probe.js').Snapshot | null | undefined} snapshot */
function youngMiB(snapshot) {
  return snapshot?.heap?.youngMiB ?? null;
}

/**
 * Servers started together: they share the server's and the generator's CPUs while they boot, and with too many at
 * once (an --ablate run starts a Nest server per part left out) each boots slower than a target's ready timeout.
 */
const STARTING_AT_ONCE = 4;

/**
 * Promise.allSettled over items, at most `size` at a time.
 * @template T, R
 * @param {T[]} items @param {number} size @param {(item: T, index: number) => Promise<R>} start
 * @returns {Promise<PromiseSettledResult<R>[]>}
 */
async function settleInBatches(items, size, start) {
  /** @type {PromiseSettledResult<R>[]} */
  const settled = [];
  for (let from = 0; from < items.length; from += size) {
    const batch = items.slice(from, from + size).map((item, i) => start(item, from + i));
    settled.push(...(await Promise.allSettled(batch)));
  }
  return settled;
}

/**
 * Start every server the pairs need (a target once per stack), each on its own port; one that cannot start is
 * recorded, the others go on. Keyed by instanceName. Each start boots them in the other order, so no server always
 * boots beside the same others.
 * @param {RuntimePlan} plan
 * @param {number} start 0-based
 * @param {Set<string> | null} [only] the instances to start; all when absent
 * @returns {Promise<Map<string, ServedTarget>>}
 */
export async function startTargets(
  { instances: planned, runtime, runtimeKey, options, env, outDir, record, progress },
  start,
  only = null,
) {
  const inPlanOrder = only ? planned.filter((instance) => only.has(instance.name)) : planned;
  const instances = start % 2 === 0 ? inPlanOrder : [...inPlanOrder].reverse();
  const names = instances.map((instance) => instance.name);
  const execArgv = steadyStateArgs(runtime, options);
  const started = await settleInBatches(instances, STARTING_AT_ONCE, (instance) => {
    const logFile = join(outDir, `requests-${runtimeKey}-${instance.name}.log`);
    const ownEnv = targetStackEnv(instance.target, instance.stack, logFile);
    return serveTarget(instance.target, {
      runtime,
      env: { ...env, ...ownEnv },
      port: serverPort(options.basePort, planned.indexOf(instance)),
      cpu: options.cpus?.server ?? null,
      bootCpu: options.cpus ? `${options.cpus.server},${options.cpus.generator}` : null,
      execArgv,
      telemetry: options.telemetry,
      // a user's app (--nest-main, --nest-app) prints its logger's output: kept beside results.json
      ...(options.fitLoads ? { outputFile: join(outDir, `output-${runtimeKey}-${instance.name}.log`) } : {}),
    });
  });
  // a port --port pinned is taken: the user's to free, not a server's failure
  const inUse = started.find((outcome) => outcome.status === 'rejected' && outcome.reason instanceof PortInUseError);
  if (inUse?.status === 'rejected') {
    for (const outcome of started) if (outcome.status === 'fulfilled') await outcome.value.stop();
    throw inUse.reason;
  }
  /** @type {Map<string, ServedTarget>} */
  const running = new Map();
  started.forEach((outcome, i) => {
    if (outcome.status === 'fulfilled') {
      running.set(names[i], outcome.value);
      const { pid, url, startupLine, telemetryMissing } = outcome.value;
      record.started({
        runtime: runtimeKey,
        target: names[i],
        start,
        pid,
        port: Number(new URL(url).port),
        line: startupLine,
        runtimeFlags: execArgv,
        telemetryMissing,
      });
    } else {
      const reason = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
      record.targetFailed({ runtime: runtimeKey, target: names[i], reason });
      progress.log(`${runtimeKey} ${names[i]} could not start: ${reason}`);
    }
  });
  return running;
}

/** How long a failed verification waits for its server's exit to be reported. */
const EXIT_REPORT_GRACE_MS = 1_000;

/**
 * @param {RuntimePlan} plan
 * @param {RunState} state a server whose process ended under a pair's request is started again here before the next
 *   pair
 * @param {Pair[]} pairs those to verify: a pair whose server is not running is left out, recorded where it failed
 * @param {number} [start] 0-based
 */
export async function verifyPairs(plan, state, pairs, start = 0) {
  const { runtimeKey, progress, loads } = plan;
  /** @type {import('./verify.js').Verification[]} */
  const records = [];
  /** @type {Pair[]} */
  const ok = [];
  for (const pair of pairs) {
    const target = state.running.get(instanceName(pair));
    if (!target) continue; // not started, or could not start: recorded there
    const { scenario, checks } = /** @type {ResolvedLoad} */ (loads.get(blockKey(pair)));
    // a mix is verified route by route, and stands for the first of them that fails
    let record;
    for (const checked of checks) {
      record = await verifyPair({
        runtime: runtimeKey,
        target: pair.target,
        stack: pair.stack,
        baseUrl: target.url,
        scenario: checked.scenario,
        request: checked.request,
      });
      if (!record.ok) break;
    }
    const verification = { .../** @type {import('./verify.js').Verification} */ (record), scenario: pair.scenario };
    // a request that ended the process fails before its exit is reported
    const ended = verification.status === null ? await exitWithin(target, EXIT_REPORT_GRACE_MS) : target.exitInfo();
    if (ended)
      verification.reason = `its process ended (${describeExit(ended)}) under this request: ${errorLine(target.stderrTail())}`;
    if (verification.reason && scenario.mix) verification.reason = `${record?.scenario}: ${verification.reason}`;
    records.push(verification);
    if (verification.ok) ok.push(pair);
    else progress.log(`${runtimeKey} ${instanceName(pair)} × ${pair.scenario} skipped: ${verification.reason}`);
    if (ended) await restartInstance(plan, state, instanceName(pair), start);
  }
  return { records, ok };
}

/**
 * @param {RuntimePlan} plan
 * @param {RunState} state
 * @param {ServedTarget} target
 * @param {Pair} pair
 * @param {number} durationSec
 */
export function loadRun({ driver, options, signal, loads, outDir }, state, target, pair, durationSec) {
  const { scenario, request } = /** @type {ResolvedLoad} */ (loads.get(blockKey(pair)));
  const connections = state.fittedLoads.get(blockKey(pair))?.connections ?? options.connections;
  const { method, path, headers, body, sequence } = request;
  const own = scenario.load;
  return driver.run({
    url: `${target.url}${path}`,
    method,
    headers,
    body,
    ...(sequence ? { sequence } : {}),
    ...(own?.requestsPerConnection ? { requestsPerConnection: own.requestsPerConnection } : {}),
    ...(own?.connectionRate ? { connectionRate: own.connectionRate } : {}),
    connections,
    durationSec,
    expectedStatus: scenario.status,
    pipelining: options.pipelining,
    cpu: options.cpus?.generator ?? null,
    signal,
    keep: { dir: outDir, label: `${pair.scenario} ${instanceName(pair)}` },
  });
}

/**
 * The untimed burst before a timed run. A failure here is left for the timed run to find and record.
 * @param {RuntimePlan} plan
 * @param {RunState} state
 * @param {Pair} pair
 * @returns {Promise<import('./drivers/registry.js').LoadResult | null | undefined>} undefined: no burst; null: it failed
 */
export async function burst(plan, state, pair) {
  const target = state.running.get(instanceName(pair));
  if (plan.options.burstSec <= 0 || !target || target.exitInfo() || plan.signal.aborted) return undefined;
  return loadRun(plan, state, target, pair, plan.options.burstSec).catch(() => null);
}

/**
 * The servers of a start as settle() watches them.
 * @param {Map<string, ServedTarget>} running
 * @returns {import('./settle.js').SettlingServer[]}
 */
export function settlingServers(running) {
  return [...running].map(([name, { pid, url }]) => ({
    name,
    pid,
    port: pid === null ? null : Number(new URL(url).port),
  }));
}

/**
 * --nest-app: each verified route's load from its single-request latency on its servers (route-load.js), recorded
 * (routeLoads) and kept in the state for every later load on the route.
 * @param {Pick<RuntimePlan, 'options' | 'record' | 'progress' | 'runtimeKey' | 'loads' | 'signal'>} plan
 * @param {RunState} state
 * @param {Pair[]} pairs verified
 */
export async function fitRouteLoads({ options, record, progress, runtimeKey, loads, signal }, state, pairs) {
  const servers = pairs.flatMap((pair) => {
    const target = state.running.get(instanceName(pair));
    const load = loads.get(blockKey(pair));
    return target && load ? [{ ...pair, url: target.url, request: load.request }] : [];
  });
  const fitted = await measureRouteLoads({ runtime: runtimeKey, servers, flags: options, signal });
  record.routeLoads(fitted);
  for (const load of fitted) state.fittedLoads.set(blockKey(load), load);
  for (const load of fitted.filter((entry) => entry.lowered))
    progress.log(
      `${runtimeKey} ${load.scenario}: ${Object.values(load.aloneMs).join(' / ')} ms alone, so ${load.connections} connections for ${load.durationSec} s`,
    );
  state.routeLoads = new Map(fitted.map((load) => [blockKey(load), load]));
}

/**
 * --nest-app, after each load on a route: wait until its server has finished with what the route left and still
 * answers (recover.js). A server that hung or exited is recorded (drains), started again and warmed up on its
 * other routes, and the route leaves the run; a backlog is recorded and the run goes on.
 * @param {RuntimePlan} plan
 * @param {RunState} state the restarted server replaces the old one in its running servers
 * @param {Pair[]} pairs the routes being measured
 * @param {Pair} pair the route the load went to
 * @param {{ phase: import('./recover.js').LoadPhase, round: number, start: number }} place
 * @param {import('./drivers/registry.js').LoadResult | null} load null: the load failed
 * @returns {Promise<boolean>} false when the route left the run
 */
export async function afterLoad(plan, state, pairs, pair, place, load) {
  const target = state.running.get(instanceName(pair));
  if (!state.routeLoads || !target || plan.signal.aborted) return true;
  const fitted = state.routeLoads.get(blockKey(pair));
  const connections = fitted?.connections ?? plan.options.connections;
  const aloneMs = fitted ? Math.max(0, ...Object.values(fitted.aloneMs).map((ms) => ms ?? 0)) : null;
  const drained = await drainRoute({
    target,
    servers: settlingServers(state.running),
    aloneMs,
    inFlight: connections * plan.options.pipelining,
    probes: probesFor(/** @type {ResolvedLoad} */ (plan.loads.get(blockKey(pair))).request),
    lastAnswer: load && { requests: load.requests, statusCounts: load.statusCounts },
    signal: plan.signal,
  });
  if (!drained) return true;
  const { runtimeKey, record, progress } = plan;
  record.drained({ runtime: runtimeKey, ...pair, ...place, connections, ...drained });
  const where = `${runtimeKey} ${instanceName(pair)} × ${pair.scenario} (${place.phase}${place.round ? ` ${place.round}` : ''})`;
  if (drained.outcome === 'backlog') {
    progress.log(`${where}: left ${drained.heldAtEnd} requests behind, drained in ${drained.drainedMs} ms`);
    return true;
  }
  progress.log(
    `${where}: ${drained.outcome === 'crashed' ? 'crashed its server' : `hangs under ${connections} connections`}; restarting ${instanceName(pair)}, the route leaves the run`,
  );
  state.troubled.add(blockKey(pair));
  const restarted = await restartInstance(plan, state, instanceName(pair), place.start);
  if (restarted)
    await warmUp(
      plan,
      state,
      pairs.filter((other) => instanceName(other) === instanceName(pair)),
      place.start,
    );
  return false;
}

/**
 * Stops a server and starts it again on its port; one that cannot start is recorded like any.
 * @param {RuntimePlan} plan
 * @param {RunState} state
 * @param {string} name
 * @param {number} start
 * @returns {Promise<ServedTarget | null>}
 */
async function restartInstance(plan, state, name, start) {
  const { running } = state;
  await running.get(name)?.stop();
  running.delete(name);
  const restarted = (await startTargets(plan, start, new Set([name]))).get(name) ?? null;
  if (restarted) {
    running.set(name, restarted);
    plan.record.restarted(name);
  }
  return restarted;
}
