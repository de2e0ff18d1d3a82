// Replays the wall time of a default run under other designs of its starts, from a committed run's own records: each
// block's rounds re-judged by the bench's own measureBlock on its recorded per-round series (steadyBlocks), each
// block's time as its recorded seconds a round, each start's boot and priming as recorded (runs primed by whole runs of
// 1 s, before 663f126: priming scaled to the requests today's rule ends near). The loop makes a start while the latest
// start's boot, priming and headline block fit in what is left. An estimate: the looks' decisions (which need ratios)
// are left out, every row beside the headline gets its three starts and no more, a start the run never made takes the
// run's median priming, headline block and two-server boot (half a four-server boot where the run made none), and
// what a shorter block does to a ratio is read from its recorded CPU per request, not from its requests a second.
//
//   node docs/experiments/cheaper-starts/replay.mjs [DIR ...]   (default: the ten quiet family-26 runs)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIN_STEADY_ROUNDS, firstJudgementRounds, measureBlock } from '../../../bench/run/designs/steady-block.js';
import { FIRST_LOOK_STARTS, MAX_STARTS } from '../../../bench/model/design.js';
import { PRIME_REQUESTS } from '../../../bench/run/designs/prime.js';

const here = dirname(fileURLToPath(import.meta.url));
const REFERENCE = join(here, '../../../results/reference/answer-per-minute/amd-f26-2026-12-07');
const dirs = process.argv.slice(2).length
  ? process.argv.slice(2)
  : [
      ...[1, 2, 3, 4, 5].map((i) => join(REFERENCE, `lead-new-rule-${i}`)),
      ...[1, 2, 3, 4, 5].map((i) => join(REFERENCE, `lead-cheaper-starts-${i}`)),
    ];
const BUDGET_SEC = 160;
/** Requests today's priming ended at over its count, median over the runs primed by it (lead-cheaper-starts-1..5). */
const TODAYS_OVERSHOOT = 1.25;
const HEADLINE = 'hello·bare';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const at = (iso) => Date.parse(iso) / 1000;

/**
 * A block's rounds under a rule, re-judged on its recorded series by the bench's own steady-state test, and how far the
 * log ratio of its compared pair's CPU per request over the rounds it keeps moves from the rounds kept as run.
 */
async function roundsUnder(block, compared, { steadyRounds, maxRounds }) {
  const names = Object.keys(block.byTarget);
  const outcome = await measureBlock({
    targets: names,
    judged: compared,
    steadyRounds,
    maxRounds,
    runRound: async (round) =>
      round >= block.rounds
        ? names.map((name) => ({ ...targetOf(name), status: 'failed' }))
        : names.map((name) => {
            const cost = block.byTarget[name].cpuUsPerRequest[round];
            const young = block.byTarget[name].youngMiB[round];
            return {
              ...targetOf(name),
              status: cost === null ? 'failed' : 'ok',
              load: { rps: cost === null ? 0 : 1e6 / cost },
              server: { cpuUsPerRequest: cost },
              state: { heapBefore: { youngMiB: young } },
            };
          }),
  });
  const rounds = Math.min(outcome.rounds.length, block.rounds);
  const [express, fastify] = compared.map((name) => block.byTarget[name].cpuUsPerRequest);
  const logRatio = (from, to) => {
    const logs = [];
    for (let i = from; i < to; i++) if (express[i] && fastify[i]) logs.push(Math.log(express[i] / fastify[i]));
    return logs.reduce((a, b) => a + b, 0) / logs.length;
  };
  const shift =
    rounds === block.rounds
      ? 0
      : logRatio(Math.min(outcome.steadyFrom, rounds - 1), rounds) - logRatio(block.steadyFrom, block.rounds);
  return { rounds, shift };
}
const targetOf = (name) => {
  const [target, stack = 'bare'] = name.split('@');
  return { target, stack };
};

/** One run's timings: per start its boot, its priming (with what lies between starts) and its blocks. */
function timingsOf(dir) {
  const r = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
  const ends = new Map();
  for (const run of r.runs) {
    const key = `${run.start}:${run.scenario}·${run.stack}`;
    ends.set(key, Math.max(ends.get(key) ?? 0, at(run.startedAt) + run.load.durationSec));
  }
  const blocks = r.steadyBlocks.map((b) => {
    const key = `${b.scenario}·${b.stack}`;
    const end = ends.get(`${b.start}:${key}`);
    return { ...b, key, end, begin: end - b.wallSec, roundSec: b.wallSec / b.rounds };
  });
  const starts = r.startBlocks.map(({ start, bootSec }) => {
    const servers = r.started.filter((x) => x.start === start).length;
    const own = blocks.filter((b) => b.start === start).sort((a, b) => a.begin - b.begin);
    const previous = blocks.filter((b) => b.start < start).reduce((m, b) => Math.max(m, b.end), -Infinity);
    // the first start's priming: what its first block's start leaves after the primes' own seconds is unknown, so the
    // primes' seconds and the median overhead of the later starts stand in
    const primes = r.primes.filter((p) => p.start === start);
    const primeSec = primes.reduce((s, p) => s + p.seconds, 0);
    // a run primed by whole runs of 1 s (before 663f126): each server's seconds scaled to the requests today's rule
    // ends near, at its recorded rate
    const todaySec = primes.reduce(
      (s, p) => s + p.seconds * Math.min(1, (PRIME_REQUESTS * TODAYS_OVERSHOOT) / p.requests),
      0,
    );
    const gapSec = start === 0 || !own.length ? null : own[0].begin - previous;
    return { start, bootSec, servers, primeSec, todaySec, gapSec, blocks: own };
  });
  const overheads = starts.filter((s) => s.gapSec !== null).map((s) => s.gapSec - s.bootSec - s.primeSec);
  const overheadSec = median(overheads);
  const wholeRuns = !r.primes.some((p) => Math.abs(p.seconds - Math.round(p.seconds)) > 0.15);
  for (const s of starts)
    s.primeWallSec =
      (s.gapSec === null ? s.primeSec + overheadSec : s.gapSec - s.bootSec) - (wholeRuns ? s.primeSec - s.todaySec : 0);
  const fourBoot = median(starts.filter((s) => s.start > 0 && s.servers === 4).map((s) => s.bootSec));
  const twoBoots = starts.filter((s) => s.start > 0 && s.servers === 2);
  const twoBoot = twoBoots.length ? median(twoBoots.map((s) => s.bootSec)) : null;
  const compared = (b) =>
    b.stack === 'bare' ? ['nest-express', 'nest-fastify'] : [`nest-express@${b.stack}`, `nest-fastify@${b.stack}`];
  return {
    name: dir.split('/').pop(),
    wallSec:
      at(r.finishedAt) -
      (blocks.reduce((m, b) => Math.min(m, b.begin), Infinity) - starts[0].bootSec - starts[0].primeWallSec),
    starts,
    compared,
    fourBoot,
    // a two-server boot where the run made one; else half a four-server boot (about what the committed hosts show)
    twoBoot: twoBoot ?? fourBoot / 2,
    twoBootMeasured: twoBoot !== null,
    wholeRuns,
    headlineSec: median(blocks.filter((b) => b.key === HEADLINE).map((b) => b.wallSec)),
    primeWallSec: median(starts.map((s) => s.primeWallSec)),
  };
}

/**
 * A design: for the rows beside the headline, the steady-state rule of their blocks, and on which starts they are
 * measured; the headline as run on every start. Returns the headline's starts that fit in the budget.
 */
async function replay(run, design) {
  // the rows beside the headline: their three recorded blocks, re-judged
  const beside = new Map();
  for (const s of run.starts.slice(0, FIRST_LOOK_STARTS))
    for (const b of s.blocks) {
      if (b.key === HEADLINE) continue;
      const { rounds, shift } = await roundsUnder(b, run.compared(b), design.beside);
      const list = beside.get(b.key) ?? [];
      list.push({ key: b.key, stack: b.stack, sec: rounds * b.roundSec, rounds, ran: b.rounds, shift });
      beside.set(b.key, list);
    }
  // the headline's blocks as recorded, and each re-judged under the rule its later starts take
  const headlines = [];
  const later = [];
  const headlineShifts = [];
  for (const s of run.starts)
    for (const b of s.blocks.filter((b) => b.key === HEADLINE)) {
      const { rounds, shift } = design.headline
        ? await roundsUnder(b, run.compared(b), design.headline)
        : { rounds: b.rounds, shift: 0 };
      later.push(rounds * b.roundSec);
      headlines[s.start] = design.headline && s.start >= design.headline.from ? rounds * b.roundSec : b.wallSec;
      if (design.headline && s.start >= design.headline.from && rounds < b.rounds) headlineShifts.push(shift);
    }
  const laterHeadlineSec = median(later);
  const schedule = design.schedule([...beside.values()]);
  let spent = 0;
  let made = 0;
  let latest = null;
  const log = [];
  for (let start = 0; start < MAX_STARTS; start++) {
    const due = schedule[start] ?? [];
    const production = due.some((b) => b.stack !== 'bare');
    const recorded = run.starts[start];
    const boot =
      start === 0
        ? recorded.bootSec
        : recorded && recorded.servers === (production ? 4 : 2)
          ? recorded.bootSec
          : production
            ? run.fourBoot
            : run.twoBoot;
    const prime = recorded ? recorded.primeWallSec : run.primeWallSec;
    const head = headlines[start] ?? laterHeadlineSec;
    const next = boot + prime + head;
    // what the loop expects a start to cost: the latest start's boot, priming and headline block
    const expected = latest === null ? next : latest;
    if (start > 0 && spent + expected > BUDGET_SEC) break;
    const besideSec = due.reduce((s, b) => s + b.sec, 0);
    spent += next + besideSec;
    made++;
    latest = next;
    log.push(`${(next + besideSec).toFixed(1)}`);
  }
  const besideSec = [...beside.values()].flat().reduce((s, b) => s + b.sec, 0);
  const cut = [...beside.values()].flat().filter((b) => b.rounds < b.ran);
  return { made, spent, log, besideSec, capped: cut.length, besideShifts: cut.map((b) => b.shift), headlineShifts };
}

// schedules: which of the rows beside the headline each start measures
const onFirstThree = (rows) => [0, 1, 2].map((start) => rows.map((blocks) => blocks[start]).filter(Boolean));

const FIRST_JUDGEMENT = firstJudgementRounds(MIN_STEADY_ROUNDS);
const DESIGNS = {
  "today's (663f126)": { beside: { steadyRounds: MIN_STEADY_ROUNDS }, schedule: onFirstThree },
  'rows beside: cap 10': { beside: { steadyRounds: MIN_STEADY_ROUNDS, maxRounds: 10 }, schedule: onFirstThree },
  'rows beside: cap 9': { beside: { steadyRounds: MIN_STEADY_ROUNDS, maxRounds: 9 }, schedule: onFirstThree },
  [`rows beside: cap ${FIRST_JUDGEMENT} (first judgement)`]: {
    beside: { steadyRounds: MIN_STEADY_ROUNDS, maxRounds: FIRST_JUDGEMENT },
    schedule: onFirstThree,
  },
  [`rows beside: cap ${FIRST_JUDGEMENT}; headline after the look: cap ${FIRST_JUDGEMENT}`]: {
    beside: { steadyRounds: MIN_STEADY_ROUNDS, maxRounds: FIRST_JUDGEMENT },
    headline: { steadyRounds: MIN_STEADY_ROUNDS, maxRounds: FIRST_JUDGEMENT, from: FIRST_LOOK_STARTS },
    schedule: onFirstThree,
  },
  [`every block: cap ${FIRST_JUDGEMENT} (first judgement), the design taken`]: {
    beside: { steadyRounds: MIN_STEADY_ROUNDS, maxRounds: FIRST_JUDGEMENT },
    headline: { steadyRounds: MIN_STEADY_ROUNDS, maxRounds: FIRST_JUDGEMENT, from: 0 },
    schedule: onFirstThree,
  },
  [`rows beside: 2 steady rounds, cap ${FIRST_JUDGEMENT}`]: {
    beside: { steadyRounds: 2, maxRounds: FIRST_JUDGEMENT },
    schedule: onFirstThree,
  },
  'rows beside: 2 steady rounds, cap at their first judgement (6)': {
    beside: { steadyRounds: 2, maxRounds: firstJudgementRounds(2) },
    schedule: onFirstThree,
  },
};

const runs = dirs.map(timingsOf);
console.log(`The headline's starts that fit in ${BUDGET_SEC} s, replayed from each run's records (an estimate).\n`);
for (const run of runs) {
  const made = run.starts.filter((s) => s.blocks.some((b) => b.key === HEADLINE)).length;
  console.log(
    `${run.name}: as run ${made} of ${run.starts.length} starts with the headline; boots ${run.fourBoot.toFixed(1)} s` +
      ` (four servers), ${run.twoBoot.toFixed(1)} s (two${run.twoBootMeasured ? '' : ', half of four'}); priming` +
      ` ${run.primeWallSec.toFixed(1)} s${run.wholeRuns ? " (today's rule, estimated)" : ''}; headline block ${run.headlineSec.toFixed(1)} s`,
  );
}
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const stdError = (xs) => Math.sqrt(xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / (xs.length - 1) / xs.length);
const pct = (x) => `${x >= 0 ? '+' : ''}${(100 * (Math.exp(x) - 1)).toFixed(1)} %`;
for (const [name, design] of Object.entries(DESIGNS)) {
  const rows = [];
  for (const run of runs) rows.push({ run: run.name, ...(await replay(run, design)) });
  const made = rows.map((r) => r.made);
  console.log(`\n${name}: headline starts ${made.join(' ')} (fewest ${Math.min(...made)})`);
  for (const r of rows)
    console.log(
      `  ${r.run}: ${r.made} starts in ${r.spent.toFixed(1)} s [${r.log.join(', ')}]; rows beside ${r.besideSec.toFixed(1)} s, ${r.capped} of their blocks shorter`,
    );
  const beside = rows.flatMap((r) => r.besideShifts);
  const headline = rows.flatMap((r) => r.headlineShifts);
  for (const [who, shifts] of [
    ['rows beside', beside],
    ['headline', headline],
  ])
    if (shifts.length)
      console.log(
        `  ${who}: ${shifts.length} blocks shorter; their kept rounds' Express ÷ Fastify CPU per request moved ${pct(mean(shifts))} on average${shifts.length > 1 ? ` (standard error ${pct(stdError(shifts)).slice(1)})` : ''}, ${pct(mean(shifts.map(Math.abs))).slice(1)} either way`,
      );
}
