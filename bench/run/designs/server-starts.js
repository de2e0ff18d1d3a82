// @ts-check
// The starts design (--starts): start after start, each server start measured block by block, every block's targets in
// alternating short runs until they reach a steady state (steady-block.js).
import { ALWAYS_WARM_UP_ROUNDS, MIN_STEADY_ROUNDS, firstJudgementRounds, measureBlock } from './steady-block.js';
import { wantsAnotherStart } from './budget.js';
import { besidesReserveSec, fitsBesides, standsAlone } from './besides.js';
import { primeBlock } from './prime.js';
import { StartBudget, looksAfter } from './start-budget.js';
import { rotate } from '../plan.js';
import { blockLoadFrom } from '../route-load.js';
import { settle } from '../settle.js';
import { afterLoad, settlingServers, startTargets, stopAll, verifyPairs } from '../session.js';
import { barrier, timedRun } from '../timed-run.js';
import { runWallSec } from '../../model/results.js';
import { blockKey, pairKey } from '../../model/keys.js';
import { instanceName } from '../../model/stacks.js';

/** @typedef {import('../plan.js').Pair} Pair */
/** @typedef {import('../../model/results.js').RunRecord} RunRecord */
/** @typedef {import('../runtime-plan.js').RuntimePlan} RuntimePlan */
/** @typedef {import('../runtime-plan.js').RunState} RunState */

/**
 * Whether a pair is one side of the pair its scenario's verdict divides, as the plan resolved it.
 * @param {RuntimePlan['judged']} judged
 */
const isComparedIn = (judged) => (/** @type {Pair} */ pair) => judged.has(pairKey(pair));

/**
 * The servers of the compared pairs, or null when nothing is compared (then every block is the verdict's).
 * @param {Pair[]} pairs @param {RuntimePlan['judged']} judged
 * @returns {Set<string> | null}
 */
export function verdictInstances(pairs, judged) {
  const compared = pairs.filter(isComparedIn(judged));
  return compared.length ? new Set(compared.map(instanceName)) : null;
}

/**
 * --starts: start after start, each server start measured block by block (a scenario on a stack: its targets in
 * alternating short runs until they reach a steady state, steady-block.js). Starts measure the compared targets, whose
 * ratio the verdict takes over starts, the plan's first block (the headline) first on each. Without a budget, --starts
 * of them; under --budget (counted from the first boot), starts while the next one's boot, priming and first block
 * fit, a later start's block only while it fits, and a decided block other than the headline leaves (decidedLeaving,
 * wantsAnotherStart); after that first look, another row's block takes only what the headline's later starts leave
 * over, and a start boots only the servers of the blocks it is due to measure (StartBudget). Whether to go on never
 * depends on the ratios measured beyond that stop rule, whose coverage the seeded simulation checks.
 *
 * The targets shown beside the verdict (bare frameworks, node:http) are measured once, with the compared targets of
 * their blocks, on one more start after the verdict's, and only while the budget lasts: they never cost the verdict a
 * start. A block with no compared pair at all (h2, h2c: Fastify only) has no other measurement, so after the first
 * start its estimated time is held back from the verdict's (besidesReserveSec).
 * @param {RuntimePlan} plan
 * @param {RunState} state its running servers replaced by each new start's
 * @param {Pair[]} pairs verified on the first start
 * @param {number} firstBootSec the first start's boot and verification
 * @returns {Promise<boolean>} false when interrupted
 */
export async function measureStarts(plan, state, pairs, firstBootSec) {
  const { design, record, runtimeKey } = plan;
  const isCompared = isComparedIn(plan.judged);
  const comparedBlocks = blocksOf(pairs.filter(isCompared));
  /** with nothing compared, every block is the verdict's; the targets beside it are verified on their own start */
  const besides = comparedBlocks.length
    ? blocksOf(plan.pairs.filter((pair) => !isCompared(pair) || pairs.includes(pair))).filter(
        (block) => !block.pairs.every(isCompared),
      )
    : [];
  /** the compared blocks still measured: a decided one leaves, under a budget */
  let compared = comparedBlocks.length ? comparedBlocks : blocksOf(pairs);
  const tally = {
    /** @type {Map<string, number>} rounds measured so far per block, which number the next block's rounds */
    roundsSoFar: new Map(),
    /** @type {Map<string, number>} each block's wall seconds on its latest start */
    blockSec: new Map(),
    /** the headline's block, which no look lets go */
    headlineKey: comparedBlocks[0]?.key ?? null,
  };
  /** @type {Array<import('../../model/design.js').BlockStop & { runtime: string }>} */
  const stops = [];
  /** @param {{ key: string, scenario: string, stack: string }} block @param {import('../../model/design.js').BlockStop['stoppedOn']} stoppedOn */
  const stop = ({ key, scenario, stack }, stoppedOn) =>
    stops.push({ runtime: runtimeKey, scenario, stack, rounds: tally.roundsSoFar.get(key) ?? 0, stoppedOn });
  const budget = new StartBudget(design, firstBootSec, tally.blockSec, tally.headlineKey);
  let start = 0;
  for (; ; start++) {
    const [headline, ...rest] = compared;
    const ordered = budget.dueOn(start, [headline, ...rotate(rest, start)]);
    // a later start boots only the servers of the blocks it is due to measure
    if (start > 0) budget.bootSec = await bootStart(plan, state, ordered, start);
    const primedAt = performance.now();
    if (headline === comparedBlocks[0] && !(await primeBlock(plan, state, headline, start))) return false;
    budget.primeSec = headline === comparedBlocks[0] ? (performance.now() - primedAt) / 1000 : 0;
    // the first start is the first look at every block; a later one measures a block only while it fits
    const fitting = start === 0 ? () => true : budget.fitsOn(start, headline);
    if (!(await measureStartBlocks(plan, state, ordered, start, tally, budget.bootSec, fitting))) return false;
    if (start === 0)
      budget.holdBack(
        besidesReserveSec(besides.filter(standsAlone(isCompared)), comparedBlocks, tally.blockSec, budget.bootSec),
      );
    if (looksAfter(design, start)) {
      const decided = decidedLeaving(compared, comparedBlocks[0], (block) =>
        plan.standing({ runtime: runtimeKey, scenario: block.scenario, stack: block.stack }),
      );
      for (const block of decided) stop(block, 'decided');
      compared = compared.filter((block) => !decided.includes(block));
    }
    compared = compared.filter((block) => !state.troubled.has(block.key));
    const another =
      compared.length > 0 &&
      wantsAnotherStart({
        startsSoFar: start + 1,
        minStarts: design.starts,
        budgetSec: budget.verdictSec,
        spentSec: budget.spentSec(),
        nextStartSec: budget.nextStartSec(compared[0]),
      });
    if (!another) break;
  }
  for (const block of compared) stop(block, 'budget');
  const sides = besides.filter((block) => !state.troubled.has(block.key));
  const latest = { start, bootSec: budget.bootSec, spentSec: () => budget.spentSec() };
  if (!(await measureBesides(plan, state, sides, latest, tally))) return false;
  record.stops(stops);
  return true;
}

/**
 * The rounds after which a start's block ends unsettled, its last rounds standing in: under a budget, its first
 * judgement, so that the rounds a block would spend looking for a steady state go to the headline's starts instead
 * (docs/method.md, "Warm-up judged once"); otherwise measureBlock's own cap.
 * @param {import('../../model/design.js').Design} design
 * @returns {number | undefined}
 */
export function blockCapOf(design) {
  return design.kind === 'budgeted-starts' ? firstJudgementRounds(MIN_STEADY_ROUNDS) : undefined;
}

/**
 * The compared blocks a look lets go: those decided, except the headline. The headline is the answer a run is read
 * for, so it is measured on every start the budget makes: its interval narrows for as long as the budget lasts, and,
 * its starts never depending on its own ratios, it is shown at the level of a row measured to the end.
 * @template {{ key: string }} B
 * @param {B[]} compared the blocks still measured
 * @param {B | undefined} headline the plan's first compared block
 * @param {(block: B) => import('../../model/design.js').Standing} standing
 * @returns {B[]}
 */
export function decidedLeaving(compared, headline, standing) {
  return compared.filter((block) => block !== headline && standing(block) === 'decided');
}

/**
 * The blocks beside the verdict, on one more start when they fit in what the budget left (those without a compared
 * pair, whose time was held back, alone when the rest do not fit), the others recorded as unbooted.
 * @param {RuntimePlan} plan
 * @param {RunState} state
 * @param {Array<{ key: string, scenario: string, stack: string, pairs: Pair[] }>} sides
 * @param {{ start: number, bootSec: number, spentSec: () => number }} latest the verdict's last start (0-based), its
 *   boot, and the seconds spent since the first boot
 * @param {{ roundsSoFar: Map<string, number>, blockSec: Map<string, number>, headlineKey: string | null }} tally updated
 * @returns {Promise<boolean>} false when interrupted
 */
async function measureBesides(plan, state, sides, { start, bootSec, spentSec }, tally) {
  const { design, record, progress, runtimeKey } = plan;
  const isCompared = isComparedIn(plan.judged);
  const fit = (/** @type {typeof sides} */ blocks) =>
    fitsBesides(blocks, tally.blockSec, bootSec, spentSec(), design.budgetPerRuntimeSec);
  const reserved = sides.filter(standsAlone(isCompared));
  const chosen = fit(sides) ? sides : reserved.length && fit(reserved) ? reserved : [];
  const left = sides.filter((block) => !chosen.includes(block));
  if (left.length) {
    const targets = [
      ...new Set(left.flatMap((block) => block.pairs.filter((pair) => !isCompared(pair)).map(instanceName))),
    ];
    record.unbooted({ runtime: runtimeKey, targets });
    progress.log(`${runtimeKey}: ${targets.join(', ')} not measured: the verdict's starts took the budget`);
  }
  if (!chosen.length) return true;
  const sideStart = start + 1;
  const sideBootSec = await bootStart(plan, state, chosen, sideStart);
  const verified = await verifyPairs(
    plan,
    state,
    chosen.flatMap((block) => block.pairs.filter((pair) => !isCompared(pair))),
    sideStart,
  );
  record.verified(verified.records);
  const measurable = chosen.flatMap((block) => {
    const kept = block.pairs.filter((pair) => isCompared(pair) || verified.ok.includes(pair));
    return kept.every(isCompared) ? [] : [{ ...block, pairs: kept }];
  });
  return measureStartBlocks(plan, state, measurable, sideStart, tally, sideBootSec);
}

/**
 * A new server start: the last start's servers stopped, these blocks' servers booted.
 * @param {RuntimePlan} plan
 * @param {RunState} state
 * @param {Array<{ pairs: Pair[] }>} blocks
 * @param {number} start 0-based
 * @returns {Promise<number>} the boot's seconds
 */
async function bootStart(plan, state, blocks, start) {
  const bootedAt = performance.now();
  await stopAll(state.running);
  state.running = await startTargets(plan, start, new Set(blocks.flatMap((b) => b.pairs.map(instanceName))));
  return (performance.now() - bootedAt) / 1000;
}

/**
 * One start's blocks, each until its targets reached a steady state, its steady rounds recorded as runs. On the first
 * start a block's load is fitted on its warm-up rounds (fitBlockLoad) unless --nest-app fitted its routes' already or
 * the scenario brings its own.
 * @param {RuntimePlan} plan
 * @param {RunState} state
 * @param {Array<{ key: string, scenario: string, stack: string, pairs: Pair[] }>} blocks
 * @param {number} start 0-based
 * @param {{ roundsSoFar: Map<string, number>, blockSec: Map<string, number>, headlineKey: string | null }} tally updated
 * @param {number} bootSec the start's boot (the first: its boot and verification)
 * @param {(block: { key: string }) => boolean} [fitting] asked as each block is due: false skips it
 * @returns {Promise<boolean>} false when interrupted
 */
async function measureStartBlocks(plan, state, blocks, start, tally, bootSec, fitting = () => true) {
  const { options, design, record, progress, runtimeKey, loads, glance } = plan;
  let rounds = 0;
  for (const block of blocks) {
    if (!fitting(block)) continue;
    const blockStartedAt = performance.now();
    const judged = block.pairs.filter(isComparedIn(plan.judged));
    const judgedNames = (judged.length ? judged : block.pairs).map(instanceName);
    // only a block of the compared pair alone shares its slots: beside it, the others' rounds run back-to-back
    const together = options.pairing === 'together' && judged.length > 1 && judged.length === block.pairs.length;
    const outcome = await measureBlock({
      targets: block.pairs.map(instanceName),
      judged: judgedNames,
      runRound: async (round) => {
        const records = together
          ? await runTogether(plan, state, block.pairs, start)
          : await runSlices(plan, state, rotate(block.pairs, round + start), start);
        if (records && start === 0 && round < ALWAYS_WARM_UP_ROUNDS && !options.fitLoads)
          fitBlockLoad(
            { options, record, runtimeKey, loads },
            state,
            block,
            records.filter((record) => judgedNames.includes(instanceName(record))),
          );
        return records;
      },
      ...(design.roundsPerStart === null ? {} : { steadyRounds: design.roundsPerStart }),
      maxRounds: blockCapOf(design),
    });
    if (outcome === null) return false;
    const first = (tally.roundsSoFar.get(block.key) ?? 0) + 1;
    // a fixed design keeps exactly its --rounds, the last of the steady ones
    const kept = outcome.rounds.slice(
      design.roundsPerStart === null
        ? outcome.steadyFrom
        : Math.max(outcome.steadyFrom, outcome.rounds.length - design.roundsPerStart),
    );
    record.runs(kept.flatMap((records, i) => records.map((run) => ({ ...run, round: first + i }))));
    tally.roundsSoFar.set(block.key, first - 1 + kept.length);
    rounds += kept.length;
    const wallSec = (performance.now() - blockStartedAt) / 1000;
    tally.blockSec.set(block.key, wallSec);
    record.steadyBlock({
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
    logBlock({ options, design, progress, runtimeKey, glance }, state, block, start, {
      kept: kept.length,
      ran: outcome.rounds.length,
      steady: outcome.steady,
      stays: block.key === tally.headlineKey,
    });
  }
  record.startBlock({ runtime: runtimeKey, start, rounds, choice: 'steady', bootSec });
  return true;
}

/**
 * The block's line in the log: what it kept and where its verdict stands.
 * @param {Pick<RuntimePlan, 'options' | 'design' | 'progress' | 'runtimeKey' | 'glance'>} plan
 * @param {RunState} state
 * @param {{ key: string, scenario: string, stack: string }} block
 * @param {number} start 0-based
 * @param {{ kept: number, ran: number, steady: boolean, stays: boolean }} rounds stays: no look lets it go
 */
function logBlock(
  { options, design, progress, runtimeKey, glance: glanceAt },
  state,
  block,
  start,
  { kept, ran, steady, stays },
) {
  const { scenario, stack } = block;
  const glance = glanceAt({ runtime: runtimeKey, scenario, stack });
  const connections = state.fittedLoads.get(block.key)?.connections ?? options.connections;
  progress.block({
    runtime: runtimeKey,
    scenario,
    stack,
    start: start + 1,
    rounds: kept,
    ran,
    steady,
    ...(connections < options.connections ? { connections } : {}),
    glance,
    stand: stays ? 'so far' : standAfter(design, start, glance),
  });
}

/**
 * Where a block's verdict stands once this start has measured it: a fixed design's last start is final; under a
 * budget, a block the look finds decided leaves.
 * @param {import('../../model/design.js').Design} design @param {number} start 0-based
 * @param {import('../../model/design.js').Glance | null} glance
 * @returns {import('../progress.js').BlockEnd['stand']}
 */
function standAfter(design, start, glance) {
  if (design.kind === 'starts') return start + 1 >= design.starts ? 'final' : 'so far';
  return looksAfter(design, start) && glance?.standing === 'decided' ? 'decided' : 'so far';
}

/**
 * A block's load from one of its first start's warm-up rounds (route-load.js), for its later rounds and starts.
 * @param {Pick<RuntimePlan, 'options' | 'record' | 'runtimeKey' | 'loads'>} plan
 * @param {RunState} state
 * @param {{ key: string, scenario: string, stack: string }} block
 * @param {RunRecord[]} records the round's runs of the compared servers
 */
function fitBlockLoad({ options, record, runtimeKey, loads }, state, block, records) {
  // a scenario's own load is its definition, not a guess to refine
  if (loads.get(block.key)?.scenario.load) return;
  const connections = state.fittedLoads.get(block.key)?.connections ?? options.connections;
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
  state.fittedLoads.set(block.key, fitted);
  // a block's runs keep their length: only its connections are fitted
  const lowered = fitted.connections < options.connections;
  const entry = { runtime: runtimeKey, scenario: block.scenario, stack: block.stack, ...fitted, lowered };
  record.blockLoad(entry, (load) => load.runtime === runtimeKey && blockKey(load) === block.key);
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
    const key = blockKey(pair);
    const block = blocks.get(key) ?? { key, scenario: pair.scenario, stack: pair.stack, pairs: [] };
    block.pairs.push(pair);
    blocks.set(key, block);
  }
  return [...blocks.values()];
}

/**
 * One round of a block whose servers are loaded together: one settle, then every target's run at once for as long as
 * their runs back-to-back would take, so each server gets about the CPU time a run alone would give it.
 * @param {RuntimePlan} plan
 * @param {RunState} state
 * @param {Pair[]} pairs one block's
 * @param {number} start 0-based
 * @returns {Promise<RunRecord[] | null>} null when interrupted
 */
async function runTogether(plan, state, pairs, start) {
  const { progress, runtimeKey, options } = plan;
  const live = pairs.filter((pair) => !state.troubled.has(blockKey(pair)));
  if (plan.signal.aborted || !live.length) return plan.signal.aborted ? null : [];
  const names = live.map(instanceName);
  const durationSec = live.length * (state.fittedLoads.get(blockKey(live[0]))?.durationSec ?? options.durationSec);
  const step = {
    runtime: runtimeKey,
    phase: `start ${start + 1}`,
    ...live[0],
    target: live.map((pair) => pair.target).join(' + '),
  };
  progress.start({ ...step, plannedSec: durationSec });
  const together = {
    settle: await settle(settlingServers(state.running), { signal: plan.signal }),
    names,
    ready: barrier(live.length),
    durationSec,
  };
  const records = await Promise.all(
    live.map((pair) => timedRun(plan, state, pair, { round: 0, slot: 1, start }, together)),
  );
  if (plan.signal.aborted) return null;
  progress.finish({ ...step, plannedSec: durationSec });
  for (const [index, pair] of live.entries())
    await afterLoad(plan, state, live, pair, { phase: 'round', round: 0, start }, records[index].load);
  return records;
}

/**
 * One round of a block: each target's run in the given order, recorded by the caller once it knows which rounds were
 * warm-up.
 * @param {RuntimePlan} plan
 * @param {RunState} state
 * @param {Pair[]} ordered
 * @param {number} start 0-based
 * @returns {Promise<RunRecord[] | null>} null when interrupted
 */
async function runSlices(plan, state, ordered, start) {
  const { progress, runtimeKey, options } = plan;
  /** @type {RunRecord[]} */
  const records = [];
  for (const [index, pair] of ordered.entries()) {
    if (plan.signal.aborted) return null;
    if (state.troubled.has(blockKey(pair))) continue;
    const plannedSec = state.fittedLoads.get(blockKey(pair))?.durationSec ?? options.durationSec;
    const step = { runtime: runtimeKey, phase: `start ${start + 1}`, ...pair, plannedSec };
    progress.start(step);
    const record = await timedRun(plan, state, pair, { round: 0, slot: index + 1, start });
    if (plan.signal.aborted) return null;
    progress.finish(step);
    records.push(record);
    await afterLoad(plan, state, ordered, pair, { phase: 'round', round: 0, start }, record.load);
  }
  return records;
}
