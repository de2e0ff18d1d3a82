// @ts-check
// The measurement loop for one runtime: start every target once, verify, warm up, then paired, rotated rounds, each
// timed run right after an untimed burst on the same target, with the other servers' CPU watched while it runs; then
// with --load-curve the open-loop runs (load-curve.js) on the same targets.
import { join } from 'node:path';
import { FIRST_LOOK_STARTS, pairKey, spendBudget, wantsAnotherStart } from './designs/budget.js';
import { GENERATOR_SATURATED_SHARE } from './drivers/registry.js';
import { measureLoadCurve } from './load-curve.js';
import { rotate, roundOrder, stackOf } from './plan.js';
import { ALWAYS_WARM_UP_ROUNDS, measureBlock } from './designs/steady-block.js';
import { observeRun } from './observe.js';
import { peakRssMiB, processCpuNs, resetPeakRss } from './procstat.js';
import { drainRoute, probesFor } from './recover.js';
import { blockLoadFrom, measureRouteLoads } from './route-load.js';
import { settle } from './settle.js';
import { steadyStateArgs } from './steady-state.js';
import { scenarioNamed, targetNamed } from '../model/config.js';
import { checkedScenarios, requestFor } from '../model/scenarios.js';
import { instanceName, targetStackEnv } from '../model/stacks.js';
import { deathFailure, serveTarget } from './targets.js';
import { verifyPair } from './verify.js';
import { runWallSec } from '../model/results.js';

const NANOS_PER_MICRO = 1000;
/** What starting and verifying the targets of one runtime counts as in the time-left estimate. */
export const START_ALLOWANCE_SEC = 5;

/** @typedef {import('./plan.js').Pair} Pair */
/** @typedef {import('../model/results.js').RunRecord} RunRecord */
/** @typedef {import('./targets.js').ServedTarget} ServedTarget */

/**
 * @typedef {object} Session what one runtime's measurement needs
 * @property {import('../runtimes/runtimes.js').Runtime} runtime
 * @property {string} runtimeKey `name@version`, the runtime's label in every record
 * @property {import('../model/config.js').Config} config what the pairs' names refer to
 * @property {import('./options.js').Options} options
 * @property {import('./drivers/registry.js').Driver} driver
 * @property {Pair[]} pairs the applicable pairs, before verification
 * @property {string | null} token for scenarios that need one
 * @property {Record<string, string>} env added to every target's environment
 * @property {string} outDir the run's directory: the production stack's request logs go there
 * @property {import('../model/results.js').Results} results appended to as the session goes
 * @property {() => void} save persists results
 * @property {ReturnType<typeof import('./progress.js').createProgress>} progress
 * @property {AbortSignal} signal Ctrl-C
 * @property {(block: { runtime: string, scenario: string, stack: string }) => import('./designs/budget.js').Standing} standing
 *   where a block's verdict stands after the runs recorded so far (--budget only)
 */

/**
 * What a pair's runs send, resolved once from the config when the runtime's measurement begins.
 * @typedef {{ scenario: import('../model/config.js').Scenario, request: import('../model/scenarios.js').ScenarioRequest }} ResolvedLoad
 * @typedef {{ name: string, target: import('../model/config.js').Target, stack: string }} Instance one server: a target on
 *   a stack, keyed by instanceName
 * @typedef {Session & { loads: Map<string, ResolvedLoad>, instances: Instance[],
 *   routeLoads: Map<string, import('./route-load.js').RouteLoad> | null, fittedLoads: Map<string, FittedLoad>,
 *   troubled: Set<string> }} PlannedSession loads keyed by loadKey; instances in the pairs' order; routeLoads
 *   (--nest-app) each route's fitted load by loadKey; fittedLoads: the connections and run length of each route whose
 *   load was fitted (--nest-app's routes, or a block's on the first start), by loadKey; absent: the flags';
 *   troubled: the loadKeys of routes that hung or crashed a server, left out of the run from then on
 */

/** @typedef {{ connections: number, durationSec: number }} FittedLoad */

/** @param {{ scenario: string, stack: string }} pair a pair, or anything keyed like one */
const loadKey = ({ scenario, stack }) => `${scenario}\u0000${stack}`;

/**
 * @param {Session} session
 * @returns {Map<string, ResolvedLoad>}
 */
function resolveLoads({ config, pairs, token }) {
  return new Map(
    pairs.map((pair) => {
      const scenario = scenarioNamed(config, pair.scenario);
      return [loadKey(pair), { scenario, request: requestFor(scenario, { token, stack: pair.stack, config }) }];
    }),
  );
}

/**
 * @param {Session} unplanned
 */
export async function measureRuntime(unplanned) {
  const session = {
    ...unplanned,
    loads: resolveLoads(unplanned),
    instances: instancesOf(unplanned.pairs, unplanned.config),
    /** @type {Map<string, import('./route-load.js').RouteLoad> | null} */
    routeLoads: null,
    /** @type {Map<string, FittedLoad>} */
    fittedLoads: new Map(),
    troubled: new Set(),
  };
  const { options, results, progress, runtimeKey } = session;
  const bootedAt = performance.now();
  // with starts, the first boots only the verdict's servers: the ones beside it boot on their own start, if any
  const firstBoot = options.starts > 1 ? verdictInstances(session) : null;
  /** the servers of the current start: --starts replaces them */
  const servers = { running: await startTargets(session, 0, firstBoot) };
  const running = servers.running;
  try {
    if (session.signal.aborted) return;
    const verified = await verifyPairs(session, running, session.pairs);
    results.verification.push(...verified.records);
    session.save();
    progress.finish({ runtime: runtimeKey, phase: 'start', target: '', scenario: '', plannedSec: START_ALLOWANCE_SEC });
    const measured = verified.ok;
    if (options.fitLoads) session.routeLoads = await fitRouteLoads(session, running, measured);
    if (options.starts > 1) {
      if (!(await measureStarts(session, servers, measured, (performance.now() - bootedAt) / 1000))) return;
    } else {
      if (!(await warmUp(session, running, measured, 0))) return;
      if (options.budgetSec === null) {
        for (let round = 0; round < options.rounds; round++)
          if ((await runRound(session, running, measured, round, 0)) === null) return;
      } else {
        const stops = await spendBudget({
          pairs: measured,
          budgetSec: options.budgetSec,
          standing: (block) => session.standing({ runtime: runtimeKey, ...block }),
          runRound: (pairs, round) => runRound(session, running, pairs, round, 0),
        });
        (results.stops ??= []).push(...stops.map((stop) => ({ runtime: runtimeKey, ...stop })));
        session.save();
        if (session.signal.aborted) return;
      }
    }
    if (options.loadCurve) await measureLoadCurve(session, servers.running, measured);
  } finally {
    await stopAll(servers.running);
  }
}

/**
 * The servers of the compared pairs, or null when nothing is compared (then every block is the verdict's).
 * @param {PlannedSession} session
 * @returns {Set<string> | null}
 */
function verdictInstances({ pairs, config }) {
  const compared = pairs.filter((pair) => config.compare.includes(pair.target));
  return compared.length ? new Set(compared.map(instanceName)) : null;
}

/** @param {Map<string, ServedTarget>} running */
function stopAll(running) {
  return Promise.all([...running.values()].map((target) => target.stop()));
}

/**
 * --starts: start after start, each server start measured block by block (a scenario on a stack: its targets in
 * alternating short runs until they reach a steady state, steady-block.js). Starts measure the compared targets, whose
 * ratio the verdict takes over starts, the plan's first block (the headline) first on each. Without a budget, --starts
 * of them; under --budget (counted from the first boot), starts while the next one's boot and first block fit, a
 * later start's block only while it fits, and a decided block leaves (wantsAnotherStart). Whether to go on never
 * depends on the ratios measured beyond that stop rule, whose coverage the seeded simulation checks.
 *
 * The targets shown beside the verdict (bare frameworks, node:http) are measured once, with the compared targets of
 * their blocks, on one more start after the verdict's, and only while the budget lasts: they never cost the verdict a
 * start.
 * @param {PlannedSession} session
 * @param {{ running: Map<string, ServedTarget> }} servers replaced by each new start's
 * @param {Pair[]} pairs verified on the first start
 * @param {number} firstBootSec the first start's boot and verification
 * @returns {Promise<boolean>} false when interrupted
 */
async function measureStarts(session, servers, pairs, firstBootSec) {
  const { options, results, progress, runtimeKey, config } = session;
  const startedAt = performance.now() - firstBootSec * 1000;
  const spentSec = () => (performance.now() - startedAt) / 1000;
  const isCompared = (/** @type {Pair} */ pair) => config.compare.includes(pair.target);
  const comparedBlocks = blocksOf(pairs.filter(isCompared));
  /** with nothing compared, every block is the verdict's; the targets beside it are verified on their own start */
  const besides = comparedBlocks.length
    ? blocksOf(session.pairs.filter((pair) => !isCompared(pair) || pairs.includes(pair))).filter(
        (block) => !block.pairs.every(isCompared),
      )
    : [];
  /** the compared blocks still measured: a decided one leaves, under a budget */
  let compared = comparedBlocks.length ? comparedBlocks : blocksOf(pairs);
  const state = {
    /** @type {Map<string, number>} rounds measured so far per block, which number the next block's rounds */
    roundsSoFar: new Map(),
    /** @type {Map<string, number>} each block's wall seconds on its latest start */
    blockSec: new Map(),
  };
  /** @type {Array<import('./designs/budget.js').BlockStop & { runtime: string }>} */
  const stops = [];
  /** @param {{ key: string, scenario: string, stack: string }} block @param {import('./designs/budget.js').BlockStop['stoppedOn']} stoppedOn */
  const stop = ({ key, scenario, stack }, stoppedOn) =>
    stops.push({ runtime: runtimeKey, scenario, stack, rounds: state.roundsSoFar.get(key) ?? 0, stoppedOn });
  /** @param {{ key: string }} block */
  const fits = (block) =>
    options.budgetSec === null || spentSec() + (state.blockSec.get(block.key) ?? 0) <= options.budgetSec;
  let bootSec = firstBootSec;
  let start = 0;
  for (; ; start++) {
    if (start > 0) bootSec = await bootStart(session, servers, compared, start);
    const [headline, ...rest] = compared;
    const ordered = [headline, ...rotate(rest, start)];
    if (headline === comparedBlocks[0] && !(await primeBlock(session, servers.running, headline, start))) return false;
    // the first start is the first look at every block; a later one measures a block only while it fits
    const fitting = start === 0 ? () => true : fits;
    if (!(await measureStartBlocks(session, servers, ordered, start, state, bootSec, fitting))) return false;
    if (options.budgetSec !== null && start + 1 >= Math.max(FIRST_LOOK_STARTS, options.starts)) {
      const decided = compared.filter(
        (block) =>
          session.standing({ runtime: runtimeKey, scenario: block.scenario, stack: block.stack }) === 'decided',
      );
      for (const block of decided) stop(block, 'decided');
      compared = compared.filter((block) => !decided.includes(block));
    }
    compared = compared.filter((block) => !session.troubled.has(block.key));
    const another =
      compared.length > 0 &&
      wantsAnotherStart({
        startsSoFar: start + 1,
        minStarts: options.starts,
        budgetSec: options.budgetSec,
        spentSec: spentSec(),
        nextStartSec: bootSec + (state.blockSec.get(compared[0].key) ?? 0),
      });
    if (!another) break;
  }
  for (const block of compared) stop(block, 'budget');
  const sides = besides.filter((block) => !session.troubled.has(block.key));
  if (sides.length && fitsBesides(sides, state.blockSec, bootSec, spentSec(), options.budgetSec)) {
    start++;
    const sideBootSec = await bootStart(session, servers, sides, start);
    const verified = await verifyPairs(
      session,
      servers.running,
      sides.flatMap((block) => block.pairs.filter((pair) => !isCompared(pair))),
    );
    results.verification.push(...verified.records);
    const measurable = sides.flatMap((block) => {
      const kept = block.pairs.filter((pair) => isCompared(pair) || verified.ok.includes(pair));
      return kept.every(isCompared) ? [] : [{ ...block, pairs: kept }];
    });
    if (!(await measureStartBlocks(session, servers, measurable, start, state, sideBootSec))) return false;
  } else if (sides.length) {
    const targets = [
      ...new Set(sides.flatMap((block) => block.pairs.filter((pair) => !isCompared(pair)).map(instanceName))),
    ];
    (results.unbooted ??= []).push({ runtime: runtimeKey, targets });
    progress.log(`${runtimeKey}: ${targets.join(', ')} not measured: the verdict's starts took the budget`);
  }
  (results.stops ??= []).push(...stops);
  session.save();
  progress.log(`${runtimeKey}: ${start + 1} starts`);
  return true;
}

/**
 * Requests each server of the headline block answers alone before the block's first round, on every start. V8 tiers
 * code up by invocation counts, so a slow host needs more seconds of load than a fast one to finish compiling; without
 * this, a slow host's hello blocks ended inside the JIT's compile bursts (docs/method.md, "Warm-up here is longer than
 * the blocks").
 */
const PRIME_REQUESTS = 30_000;
/** Priming runs this long at a time, until its requests are answered. */
const PRIME_RUN_SEC = 1;
/** The most priming per server, however slow the host. */
const MAX_PRIME_SEC = 6;

/**
 * Each server of the block loaded alone until it has answered PRIME_REQUESTS (or MAX_PRIME_SEC passed), recorded in
 * results.primes.
 * @param {PlannedSession} session
 * @param {Map<string, ServedTarget>} running
 * @param {{ scenario: string, stack: string, pairs: Pair[] }} block
 * @param {number} start 0-based
 * @returns {Promise<boolean>} false when interrupted
 */
async function primeBlock(session, running, block, start) {
  const { results, progress, runtimeKey } = session;
  // the order alternates by start, as the boot order does: the server primed last goes straight into the rounds
  for (const pair of rotate(block.pairs, start)) {
    const target = running.get(instanceName(pair));
    if (!target || session.troubled.has(loadKey(pair))) continue;
    let requests = 0;
    let seconds = 0;
    while (requests < PRIME_REQUESTS && seconds < MAX_PRIME_SEC) {
      if (session.signal.aborted) return false;
      const step = { runtime: runtimeKey, phase: `start ${start + 1} priming`, ...pair, plannedSec: PRIME_RUN_SEC };
      progress.start(step);
      const load = await loadRun(session, target, pair, PRIME_RUN_SEC).catch(() => null);
      progress.finish(step);
      if (!load?.requests) break;
      requests += load.requests;
      seconds += load.durationSec;
    }
    (results.primes ??= []).push({ runtime: runtimeKey, ...pair, start, requests, seconds });
  }
  session.save();
  return !session.signal.aborted;
}

/**
 * Whether the blocks beside the verdict fit in what the budget left: each estimated from its compared pair's latest
 * block, as many times longer as it has targets beside that pair.
 * @param {Array<{ key: string, pairs: Pair[] }>} blocks
 * @param {Map<string, number>} blockSec the compared pair's wall seconds per block, on its latest start
 * @param {number} bootSec the latest start's boot
 * @param {number} spentSec
 * @param {number | null} budgetSec
 */
function fitsBesides(blocks, blockSec, bootSec, spentSec, budgetSec) {
  if (budgetSec === null) return true;
  const estimate = blocks.reduce(
    (sum, block) => sum + ((blockSec.get(block.key) ?? 0) * block.pairs.length) / COMPARED_PER_BLOCK,
    0,
  );
  return spentSec + bootSec + estimate <= budgetSec;
}

/** A compared block holds one pair of targets. */
const COMPARED_PER_BLOCK = 2;

/**
 * A new server start: the last start's servers stopped, these blocks' servers booted.
 * @param {PlannedSession} session
 * @param {{ running: Map<string, ServedTarget> }} servers
 * @param {Array<{ pairs: Pair[] }>} blocks
 * @param {number} start 0-based
 * @returns {Promise<number>} the boot's seconds
 */
async function bootStart(session, servers, blocks, start) {
  const bootedAt = performance.now();
  await stopAll(servers.running);
  servers.running = await startTargets(session, start, new Set(blocks.flatMap((b) => b.pairs.map(instanceName))));
  return (performance.now() - bootedAt) / 1000;
}

/**
 * One start's blocks, each until its targets reached a steady state, its steady rounds recorded as runs. On the first
 * start a block's load is fitted on its warm-up rounds (fitBlockLoad) unless --nest-app fitted its routes' already.
 * @param {PlannedSession} session
 * @param {{ running: Map<string, ServedTarget> }} servers
 * @param {Array<{ key: string, scenario: string, stack: string, pairs: Pair[] }>} blocks
 * @param {number} start 0-based
 * @param {{ roundsSoFar: Map<string, number>, blockSec: Map<string, number> }} state updated
 * @param {number} bootSec the start's boot (the first: its boot and verification)
 * @param {(block: { key: string }) => boolean} [fitting] asked as each block is due: false skips it
 * @returns {Promise<boolean>} false when interrupted
 */
async function measureStartBlocks(session, servers, blocks, start, state, bootSec, fitting = () => true) {
  const { options, results, runtimeKey, config } = session;
  let rounds = 0;
  for (const block of blocks) {
    if (!fitting(block)) continue;
    const blockStartedAt = performance.now();
    const judged = block.pairs.filter((pair) => config.compare.includes(pair.target));
    const judgedNames = (judged.length ? judged : block.pairs).map(instanceName);
    // only a block of the compared pair alone shares its slots: beside it, the others' rounds run back-to-back
    const together = options.pairing === 'together' && judged.length > 1 && judged.length === block.pairs.length;
    const outcome = await measureBlock({
      targets: block.pairs.map(instanceName),
      judged: judgedNames,
      runRound: async (round) => {
        const records = together
          ? await runTogether(session, servers.running, block.pairs, start)
          : await runSlices(session, servers.running, rotate(block.pairs, round + start), start);
        if (records && start === 0 && round < ALWAYS_WARM_UP_ROUNDS && !options.fitLoads)
          fitBlockLoad(
            session,
            block,
            records.filter((record) =>
              judgedNames.includes(instanceName({ target: record.target, stack: stackOf(record) })),
            ),
          );
        return records;
      },
      ...(options.budgetSec === null ? { steadyRounds: options.rounds } : {}),
    });
    if (outcome === null) return false;
    const first = (state.roundsSoFar.get(block.key) ?? 0) + 1;
    // a fixed design keeps exactly its --rounds, the last of the steady ones
    const kept = outcome.rounds.slice(
      options.budgetSec === null
        ? Math.max(outcome.steadyFrom, outcome.rounds.length - options.rounds)
        : outcome.steadyFrom,
    );
    kept.forEach((records, i) => results.runs.push(...records.map((record) => ({ ...record, round: first + i }))));
    state.roundsSoFar.set(block.key, first - 1 + kept.length);
    rounds += kept.length;
    const wallSec = (performance.now() - blockStartedAt) / 1000;
    state.blockSec.set(block.key, wallSec);
    (results.steadyBlocks ??= []).push({
      runtime: runtimeKey,
      scenario: block.scenario,
      stack: block.stack,
      start,
      rounds: outcome.rounds.length,
      steadyFrom: outcome.steadyFrom,
      steady: outcome.steady,
      wallSec,
      warmUpSec: secondsOf(outcome.rounds.slice(0, outcome.steadyFrom).flat(), runWallSec),
      // runs loaded together waited once, for all of them
      settleSec: secondsOf(
        outcome.rounds.flat(),
        (run) => (run.settle?.waitedMs ?? 0) / 1000 / (run.together?.length ?? 1),
      ),
      byTarget: outcome.byTarget,
    });
    session.save();
  }
  (results.startBlocks ??= []).push({ runtime: runtimeKey, start, rounds, choice: 'steady', bootSec });
  return true;
}

/**
 * A block's load from one of its first start's warm-up rounds (route-load.js), for its later rounds and starts.
 * @param {PlannedSession} session
 * @param {{ key: string, scenario: string, stack: string }} block
 * @param {RunRecord[]} records the round's runs of the compared servers
 */
function fitBlockLoad(session, block, records) {
  const { options, results, progress, runtimeKey } = session;
  const connections = session.fittedLoads.get(block.key)?.connections ?? options.connections;
  const fitted = blockLoadFrom(
    // a run loaded together had its share of the slot
    records.map((record) =>
      record.load && record.together
        ? { ...record.load, durationSec: record.load.durationSec / record.together.length }
        : record.load,
    ),
    connections,
    options,
  );
  if (!fitted) return;
  session.fittedLoads.set(block.key, fitted);
  // a block's runs keep their length: only its connections are fitted
  const lowered = fitted.connections < options.connections;
  const entry = { runtime: runtimeKey, scenario: block.scenario, stack: block.stack, ...fitted, lowered };
  const earlier = (results.blockLoads ??= []).findIndex(
    (load) => load.runtime === runtimeKey && loadKey(load) === block.key,
  );
  if (earlier === -1) results.blockLoads.push(entry);
  else results.blockLoads[earlier] = entry;
  if (lowered)
    progress.log(
      `${runtimeKey} ${block.scenario} · ${block.stack}: ${Math.round(fitted.msPerRequest * 100) / 100} ms per request, so ${fitted.connections} connections`,
    );
}

/**
 * @param {RunRecord[]} runs @param {(run: RunRecord) => number | undefined} secondsOfRun
 */
function secondsOf(runs, secondsOfRun) {
  return runs.reduce((sum, run) => sum + (secondsOfRun(run) ?? 0), 0);
}

/**
 * The pairs grouped by scenario and stack, in plan order.
 * @param {Pair[]} pairs
 * @returns {Array<{ key: string, scenario: string, stack: string, pairs: Pair[] }>}
 */
function blocksOf(pairs) {
  /** @type {Map<string, { key: string, scenario: string, stack: string, pairs: Pair[] }>} */
  const blocks = new Map();
  for (const pair of pairs) {
    const key = loadKey(pair);
    const block = blocks.get(key) ?? { key, scenario: pair.scenario, stack: pair.stack, pairs: [] };
    block.pairs.push(pair);
    blocks.set(key, block);
  }
  return [...blocks.values()];
}

/**
 * One round of a block whose servers are loaded together: one settle, then every target's run at once for as long as
 * their runs back-to-back would take, so each server gets about the CPU time a run alone would give it.
 * @param {PlannedSession} session
 * @param {Map<string, ServedTarget>} running
 * @param {Pair[]} pairs one block's
 * @param {number} start 0-based
 * @returns {Promise<RunRecord[] | null>} null when interrupted
 */
async function runTogether(session, running, pairs, start) {
  const { progress, runtimeKey, options } = session;
  const live = pairs.filter((pair) => !session.troubled.has(loadKey(pair)));
  if (session.signal.aborted || !live.length) return session.signal.aborted ? null : [];
  const names = live.map(instanceName);
  const durationSec = live.length * (session.fittedLoads.get(loadKey(live[0]))?.durationSec ?? options.durationSec);
  const step = {
    runtime: runtimeKey,
    phase: `start ${start + 1}`,
    ...live[0],
    target: live.map((pair) => pair.target).join(' + '),
  };
  progress.start({ ...step, plannedSec: durationSec });
  const together = {
    settle: await settle(settlingServers(running), { signal: session.signal }),
    names,
    ready: barrier(live.length),
    durationSec,
  };
  const records = await Promise.all(
    live.map((pair) => timedRun(session, running, pair, { round: 0, slot: 1, start }, together)),
  );
  if (session.signal.aborted) return null;
  progress.finish({ ...step, plannedSec: durationSec });
  for (const [index, pair] of live.entries())
    await afterLoad(session, running, live, pair, { phase: 'round', round: 0, start }, records[index].load);
  return records;
}

/**
 * One round of a block: each target's run in the given order, recorded by the caller once it knows which rounds were
 * warm-up.
 * @param {PlannedSession} session
 * @param {Map<string, ServedTarget>} running
 * @param {Pair[]} ordered
 * @param {number} start 0-based
 * @returns {Promise<RunRecord[] | null>} null when interrupted
 */
async function runSlices(session, running, ordered, start) {
  const { progress, runtimeKey, options } = session;
  /** @type {RunRecord[]} */
  const records = [];
  for (const [index, pair] of ordered.entries()) {
    if (session.signal.aborted) return null;
    if (session.troubled.has(loadKey(pair))) continue;
    const step = { runtime: runtimeKey, phase: `start ${start + 1}`, ...pair, plannedSec: options.durationSec };
    progress.start(step);
    const record = await timedRun(session, running, pair, { round: 0, slot: index + 1, start });
    if (session.signal.aborted) return null;
    progress.finish(step);
    records.push(record);
    await afterLoad(session, running, ordered, pair, { phase: 'round', round: 0, start }, record.load);
  }
  return records;
}

/**
 * A server whose young generation is still growing would measure its growth: warm-ups go on (up to
 * MAX_WARM_UPS each pair) while the server's young generation grew since its last snapshot.
 */
const MAX_WARM_UPS = 4;

/**
 * The untimed load on a start's fresh servers before its first round, every pair once in round 1's order, repeated
 * while its server's heap sizing is still moving; each pair's young-generation sizes go into results.warmUps. The
 * telemetry's "between runs" begins here.
 * @param {PlannedSession} session
 * @param {Map<string, ServedTarget>} running
 * @param {Pair[]} pairs
 * @param {number} start 0-based
 * @returns {Promise<boolean>} false when interrupted
 */
async function warmUp(session, running, pairs, start) {
  const { options, results, progress, runtimeKey } = session;
  /** @type {Map<ServedTarget, number | null>} each server's young generation at its last snapshot */
  const young = new Map();
  // start-up's collections are not the measured state's: the first run's "between" starts here
  for (const target of running.values()) young.set(target, youngMiB(await target.telemetry?.snapshot()));
  if (options.warmupSec <= 0) return !session.signal.aborted;
  for (const pair of roundOrder(pairs, 0, session.config)) {
    const target = running.get(instanceName(pair));
    if (!target || session.troubled.has(loadKey(pair))) continue;
    /** @type {Array<number | null>} */
    const sizes = [];
    for (let run = 0; run < MAX_WARM_UPS; run++) {
      if (session.signal.aborted) return false;
      if (target.exitInfo()) break;
      const step = { runtime: runtimeKey, phase: 'warm-up', ...pair, plannedSec: options.warmupSec };
      progress.start(step);
      const load = await loadRun(session, target, pair, options.warmupSec).catch((error) => {
        progress.log(`warm-up of ${instanceName(pair)} × ${pair.scenario} failed: ${error.message}`);
        return null;
      });
      progress.finish(step);
      if (!(await afterLoad(session, running, pairs, pair, { phase: 'warm-up', round: 0, start }, load))) break;
      const before = young.get(target) ?? null;
      const after = youngMiB(await target.telemetry?.snapshot());
      young.set(target, after);
      sizes.push(after);
      if (after === null || before === null || after <= before) break;
    }
    (results.warmUps ??= []).push({ runtime: runtimeKey, ...pair, start, youngMiB: sizes });
  }
  session.save();
  return !session.signal.aborted;
}

/** @param {import('./telemetry/probe.js').Snapshot | null | undefined} snapshot */
function youngMiB(snapshot) {
  return snapshot?.heap?.youngMiB ?? null;
}

/**
 * One round of these pairs, in the round's rotated order: each timed run right after its burst.
 * @param {PlannedSession} session
 * @param {Map<string, ServedTarget>} running
 * @param {Pair[]} pairs
 * @param {number} round 0-based
 * @param {number} start 0-based: the server start these servers are
 * @returns {Promise<Map<string, number> | null>} each pair's wall seconds (burst, run and drain) by pairKey; null when
 *   interrupted
 */
async function runRound(session, running, pairs, round, start) {
  const { options, results, progress, runtimeKey } = session;
  const of = options.budgetSec === null ? `/${options.rounds * options.starts}` : '';
  /** @type {Map<string, number>} */
  const took = new Map();
  for (const [index, pair] of roundOrder(pairs, round, session.config).entries()) {
    if (session.signal.aborted) return null;
    if (session.troubled.has(loadKey(pair))) continue;
    const startedAt = performance.now();
    const step = { runtime: runtimeKey, phase: `round ${round + 1}${of}`, ...pair, plannedSec: options.durationSec };
    progress.start(step);
    const place = { round: round + 1, start };
    const burstLoad = await burst(session, running.get(instanceName(pair)), pair);
    if (
      burstLoad !== undefined &&
      !(await afterLoad(session, running, pairs, pair, { ...place, phase: 'burst' }, burstLoad))
    ) {
      progress.finish(step);
      continue;
    }
    const record = await timedRun(session, running, pair, { round: round + 1, slot: index + 1, start });
    if (session.signal.aborted) return null; // a run cut short by Ctrl-C is no measurement
    await afterLoad(session, running, pairs, pair, { ...place, phase: 'round' }, record.load);
    if (record.status !== 'ok')
      progress.log(
        `${runtimeKey} ${pair.target} × ${pair.scenario} round ${round + 1} ${record.status === 'failed' ? 'failed' : 'too slow'}: ${record.failure?.reason}`,
      );
    results.runs.push(record);
    session.save();
    progress.finish(step);
    took.set(pairKey(pair), (performance.now() - startedAt) / 1000);
  }
  return took;
}

/**
 * Servers started together: they share the server's and the generator's CPUs while they boot, and an --ablate run's
 * fourteen Nest servers booting at once each took longer than a target's ready timeout.
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
 * The servers the pairs need, one per target and stack, in the pairs' order, each with its target resolved.
 * @param {Pair[]} pairs @param {import('../model/config.js').Config} config
 * @returns {Instance[]}
 */
function instancesOf(pairs, config) {
  const seen = new Map(pairs.map((pair) => [instanceName(pair), pair]));
  return [...seen].map(([name, { target, stack }]) => ({ name, target: targetNamed(config, target), stack }));
}

/**
 * Start every server the pairs need (a target once per stack), each on its own port; one that cannot start is
 * recorded, the others go on. Keyed by instanceName. Each start boots them in the other order, so no server always
 * boots beside the same others.
 * @param {PlannedSession} session
 * @param {number} start 0-based
 * @param {Set<string> | null} [only] the instances to start; all when absent
 * @returns {Promise<Map<string, ServedTarget>>}
 */
async function startTargets(
  { instances: planned, runtime, runtimeKey, options, env, outDir, results, progress, save },
  start,
  only = null,
) {
  const inPlanOrder = only ? planned.filter((instance) => only.has(instance.name)) : planned;
  const instances = start % 2 === 0 ? inPlanOrder : [...inPlanOrder].reverse();
  const names = instances.map((instance) => instance.name);
  progress.log(`${runtimeKey}: starting ${names.join(', ')}${options.starts > 1 ? ` (start ${start + 1})` : ''}`);
  const execArgv = steadyStateArgs(runtime, options);
  const started = await settleInBatches(instances, STARTING_AT_ONCE, (instance) => {
    const logFile = join(outDir, `requests-${runtimeKey}-${instance.name}.log`);
    const ownEnv = targetStackEnv(instance.target, instance.stack, logFile);
    return serveTarget(instance.target, {
      runtime,
      env: { ...env, ...ownEnv },
      port: options.basePort + planned.indexOf(instance),
      cpu: options.cpus?.server ?? null,
      bootCpu: options.cpus ? `${options.cpus.server},${options.cpus.generator}` : null,
      execArgv,
      telemetry: options.telemetry,
    });
  });
  /** @type {Map<string, ServedTarget>} */
  const running = new Map();
  started.forEach((outcome, i) => {
    if (outcome.status === 'fulfilled') {
      running.set(names[i], outcome.value);
      const { pid, url, startupLine, telemetryMissing } = outcome.value;
      results.started.push({
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
      results.targetFailures.push({ runtime: runtimeKey, target: names[i], reason });
      progress.log(`${runtimeKey} ${names[i]} could not start: ${reason}`);
    }
  });
  save();
  return running;
}

/**
 * @param {PlannedSession} session
 * @param {Map<string, ServedTarget>} running
 * @param {Pair[]} pairs those to verify: a pair whose server is not running is left out, recorded where it failed
 */
async function verifyPairs({ config, runtimeKey, token, progress, loads }, running, pairs) {
  /** @type {import('./verify.js').Verification[]} */
  const records = [];
  /** @type {Pair[]} */
  const ok = [];
  for (const pair of pairs) {
    const target = running.get(instanceName(pair));
    if (!target) continue; // not started, or could not start: recorded there
    const { scenario } = /** @type {ResolvedLoad} */ (loads.get(loadKey(pair)));
    // a mix is verified route by route, and stands for the first of them that fails
    let record;
    for (const checked of checkedScenarios(scenario, config)) {
      record = await verifyPair({
        runtime: runtimeKey,
        target: pair.target,
        stack: pair.stack,
        baseUrl: target.url,
        scenario: checked,
        request: requestFor(checked, { token, stack: pair.stack, config }),
      });
      if (!record.ok) break;
    }
    const verification = { .../** @type {import('./verify.js').Verification} */ (record), scenario: pair.scenario };
    if (verification.reason && scenario.mix) verification.reason = `${record?.scenario}: ${verification.reason}`;
    records.push(verification);
    if (verification.ok) ok.push(pair);
    else progress.log(`${runtimeKey} ${instanceName(pair)} × ${pair.scenario} skipped: ${verification.reason}`);
  }
  return { records, ok };
}

/**
 * @param {PlannedSession} session
 * @param {ServedTarget} target
 * @param {Pair} pair
 * @param {number} durationSec
 */
function loadRun({ driver, options, signal, loads, fittedLoads }, target, pair, durationSec) {
  const { scenario, request } = /** @type {ResolvedLoad} */ (loads.get(loadKey(pair)));
  const connections = fittedLoads.get(loadKey(pair))?.connections ?? options.connections;
  const { method, path, headers, body, sequence } = request;
  return driver.run({
    url: `${target.url}${path}`,
    method,
    headers,
    body,
    ...(sequence ? { sequence } : {}),
    connections,
    durationSec,
    expectedStatus: scenario.status,
    pipelining: options.pipelining,
    cpu: options.cpus?.generator ?? null,
    signal,
  });
}

/**
 * The untimed burst before a timed run. A failure here is left for the timed run to find and record.
 * @param {PlannedSession} session
 * @param {ServedTarget | undefined} target
 * @param {Pair} pair
 * @returns {Promise<import('./drivers/registry.js').LoadResult | null | undefined>} undefined: no burst; null: it failed
 */
async function burst(session, target, pair) {
  if (session.options.burstSec <= 0 || !target || target.exitInfo() || session.signal.aborted) return undefined;
  return loadRun(session, target, pair, session.options.burstSec).catch(() => null);
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
 * --nest-app: each verified route's load from its single-request latency on its servers (route-load.js), recorded in
 * results.routeLoads.
 * @param {PlannedSession} session
 * @param {Map<string, ServedTarget>} running
 * @param {Pair[]} pairs verified
 */
async function fitRouteLoads(session, running, pairs) {
  const { options, results, progress, runtimeKey, loads } = session;
  const servers = pairs.flatMap((pair) => {
    const target = running.get(instanceName(pair));
    const load = loads.get(loadKey(pair));
    return target && load ? [{ ...pair, url: target.url, request: load.request }] : [];
  });
  const fitted = await measureRouteLoads({ runtime: runtimeKey, servers, flags: options, signal: session.signal });
  (results.routeLoads ??= []).push(...fitted);
  for (const load of fitted) session.fittedLoads.set(loadKey(load), load);
  session.save();
  for (const load of fitted.filter((entry) => entry.lowered))
    progress.log(
      `${runtimeKey} ${load.scenario}: ${Object.values(load.aloneMs).join(' / ')} ms alone, so ${load.connections} connections for ${load.durationSec} s`,
    );
  return new Map(fitted.map((load) => [loadKey(load), load]));
}

/**
 * --nest-app, after each load on a route: wait until its server has finished with what the route left and still
 * answers (recover.js). A server that hung or exited is recorded in results.drains, started again and warmed up on its
 * other routes, and the route leaves the run; a backlog is recorded and the run goes on.
 * @param {PlannedSession} session
 * @param {Map<string, ServedTarget>} running the restarted server replaces the old one here
 * @param {Pair[]} pairs the routes being measured
 * @param {Pair} pair the route the load went to
 * @param {{ phase: import('./recover.js').LoadPhase, round: number, start: number }} place
 * @param {import('./drivers/registry.js').LoadResult | null} load null: the load failed
 * @returns {Promise<boolean>} false when the route left the run
 */
async function afterLoad(session, running, pairs, pair, place, load) {
  const target = running.get(instanceName(pair));
  if (!session.routeLoads || !target || session.signal.aborted) return true;
  const fitted = session.routeLoads.get(loadKey(pair));
  const connections = fitted?.connections ?? session.options.connections;
  const aloneMs = fitted ? Math.max(0, ...Object.values(fitted.aloneMs).map((ms) => ms ?? 0)) : null;
  const drained = await drainRoute({
    target,
    servers: settlingServers(running),
    aloneMs,
    inFlight: connections * session.options.pipelining,
    probes: probesFor(/** @type {ResolvedLoad} */ (session.loads.get(loadKey(pair))).request),
    lastAnswer: load && { requests: load.requests, statusCounts: load.statusCounts },
    signal: session.signal,
  });
  if (!drained) return true;
  const { runtimeKey, results, progress } = session;
  (results.drains ??= []).push({ runtime: runtimeKey, ...pair, ...place, connections, ...drained });
  session.save();
  const where = `${runtimeKey} ${instanceName(pair)} × ${pair.scenario} (${place.phase}${place.round ? ` ${place.round}` : ''})`;
  if (drained.outcome === 'backlog') {
    progress.log(`${where}: left ${drained.heldAtEnd} requests behind, drained in ${drained.drainedMs} ms`);
    return true;
  }
  progress.log(
    `${where}: ${drained.outcome === 'crashed' ? 'crashed its server' : `hangs under ${connections} connections`}; restarting ${instanceName(pair)}, the route leaves the run`,
  );
  session.troubled.add(loadKey(pair));
  const restarted = await restartInstance(session, running, instanceName(pair), place.start);
  if (restarted)
    await warmUp(
      session,
      running,
      pairs.filter((other) => instanceName(other) === instanceName(pair)),
      place.start,
    );
  return false;
}

/**
 * Stops a server and starts it again on its port; one that cannot start is recorded like any.
 * @param {PlannedSession} session
 * @param {Map<string, ServedTarget>} running
 * @param {string} name
 * @param {number} start
 * @returns {Promise<ServedTarget | null>}
 */
async function restartInstance(session, running, name, start) {
  await running.get(name)?.stop();
  running.delete(name);
  const restarted = (await startTargets(session, start, new Set([name]))).get(name) ?? null;
  if (restarted) {
    running.set(name, restarted);
    const record = session.results.started.findLast((entry) => entry.target === name);
    if (record) record.restarted = true;
    session.save();
  }
  return restarted;
}

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
function barrier(count) {
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
 * @param {PlannedSession} session
 * @param {Map<string, ServedTarget>} running
 * @param {Pair} pair
 * @param {{ round: number, slot: number, start: number }} place round and slot 1-based, start 0-based
 * @param {Together | null} [together] the slot this run shares with the other servers of its pair
 * @returns {Promise<RunRecord>}
 */
async function timedRun(session, running, pair, { round, slot, start }, together = null) {
  const target = running.get(instanceName(pair));
  const ready = together?.ready ?? (async () => {});
  /** @type {RunRecord} */
  const record = {
    runtime: session.runtimeKey,
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
  record.settle = together?.settle ?? (await settle(settlingServers(running), { signal: session.signal }));
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
    observing = await observeRun(target, session.options.cpus?.server);
  } finally {
    // a run that cannot start must not hold the others of its slot
    await ready();
  }
  // read last before and first after the load, so the server's CPU covers the generator's life and little else
  const cpuBefore = pid === null ? null : processCpuNs(pid);
  const companyBefore = company.map(processCpuNs);
  try {
    const fitted = session.fittedLoads.get(loadKey(pair));
    const durationSec = together?.durationSec ?? fitted?.durationSec ?? session.options.durationSec;
    const load = await loadRun(session, target, pair, durationSec);
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
      const inFlight = (fitted?.connections ?? session.options.connections) * session.options.pipelining;
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
    const exited = target.exitInfo() ?? (await settledWithin(target.exited));
    const reason = `${session.driver.name} failed: ${/** @type {Error} */ (error).message}`;
    return {
      ...record,
      failure: exited ? deathFailure(`the target exited during this run (${reason})`, exited, target) : { reason },
    };
  }
}

/** How long a generator error waits for the server's exit to be reported, to tell "server died" from "generator broke". */
const EXIT_REPORT_GRACE_MS = 200;

/**
 * @param {Promise<import('./targets.js').ExitInfo>} exited
 * @returns {Promise<import('./targets.js').ExitInfo | null>}
 */
function settledWithin(exited) {
  return Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve(null), EXIT_REPORT_GRACE_MS))]);
}
