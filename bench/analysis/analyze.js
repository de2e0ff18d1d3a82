// @ts-check
// From raw run records to what the reports show: per-target summaries and per-round ratios with intervals.
import { refusalOf } from './refusals.js';
import { switchingCost } from './switching-cost.js';
import { switchAtRate } from './switch-at-rate.js';
import { startupRows } from './startup.js';
import { firstBaselineRoute, judgedRoutes, runtimeRows, startupByRuntime } from './runtime-rows.js';
import { CONFIDENCE, summarize } from './stats.js';
import { analyzeLoadCurve } from './latency-curve.js';
import { sequentialSummary } from './sequential.js';
import { BUDGETED_STARTS_CONFIDENCE } from './starts.js';
import { ratioRow, summarizeTarget } from './rows.js';
import { ablation, mixRows } from './stack-rows.js';
import { runFacts } from './record.js';
import { hostPlacing } from './host-placing.js';
import { ownAppFacts } from './own-app-facts.js';
import { beyondProfiles } from './beyond-profiles.js';
import { nestBenchmarkFacts, packageSetFacts } from './package-sets.js';
import { timeSpent, warmUpRows } from './time-spent.js';
import { BUILTIN_CONFIG } from '../model/builtin-config.js';
import { judgedPairOn } from '../model/compared.js';
import { RATE } from '../model/metrics.js';
import { configRecord } from '../model/config.js';
import { runtimeLabel } from '../model/release-status.js';

/** @typedef {import('../model/results.js').Results} Results */
/** @typedef {ReturnType<typeof summarize>} Summary */
/** @typedef {import('./rows.js').RatioSpec} RatioSpec */
/** @typedef {import('./rows.js').TargetRow} TargetRow */
/** @typedef {import('./rows.js').TooSlow} TooSlow */
/** @typedef {import('./rows.js').OrderEffect} OrderEffect */
/** @typedef {import('./rows.js').RatioRow} RatioRow */
/** @typedef {import('./stack-rows.js').MixRow} MixRow */
/** @typedef {import('../model/config.js').ScenariosByName} ScenariosByName */

/**
 * What a run measured: its config (the built-in setup's, for results from before --config), and the config's scenarios
 * by name, resolved once for every row: a scenario's metric, a mix's shares, a beyond profile's own load.
 * @param {Results} results
 * @returns {{ config: import('../model/config.js').ConfigRecord, scenarioOf: ScenariosByName }}
 */
export function measuredConfig(results) {
  const config = results.config ?? configRecord(BUILTIN_CONFIG);
  return { config, scenarioOf: new Map(config.scenarios.map((scenario) => [scenario.name, scenario])) };
}

/**
 * The ratios a config asks for on a scenario: the judged pair (the compared one, or the twins that stand in for it
 * there: model/compared.js), pairs shown beside it, what a framework costs over its bare server, every other target
 * against the baseline; each on the metric the scenario was resolved with (model/metrics.js). Results from before
 * --config existed measured the built-in setup.
 * @param {Results} results @param {ReturnType<typeof measuredConfig>} measuredSetup
 * @returns {{ specsOn: (scenario: string) => RatioSpec[], baseline: string | null }} baseline: every other target is
 *   also shown against it
 */
function ratioSpecs(results, { config, scenarioOf }) {
  const { baseline } = config;
  /** @param {RatioSpec['kind']} kind @param {boolean} judged */
  const spec =
    (kind, judged) =>
    (/** @type {[string, string]} */ [numerator, denominator]) => ({ kind, numerator, denominator, judged });
  /** @type {[string, string][]} */
  const againstBaseline =
    baseline === null
      ? []
      : results.options.targets.filter((t) => t !== baseline).map((numerator) => [numerator, baseline]);
  return {
    specsOn: (scenario) => {
      const judged = judgedPairOn(config, scenario);
      const beside = [config.compare, ...config.alsoCompare].filter((pair) => pair !== judged);
      const metric = scenarioOf.get(scenario)?.metric ?? RATE;
      return [
        spec('adapters', true)(judged),
        ...beside.map(spec('adapters', false)),
        ...config.overhead.map(spec('overhead', false)),
        ...againstBaseline.map(spec('baseline', false)),
      ].map((ratio) => ({ ...ratio, metric }));
    },
    baseline,
  };
}
/**
 * @typedef {object} Analysis
 * @property {string[]} runtimes
 * @property {Record<string, string>} runtimeLabels each runtime with its release status on the run's date:
 *   `node@20.20.2 (end of life since 2026-04-30)`
 * @property {boolean} budgeted the rounds ran under --budget with one start: intervals are group-sequential
 * @property {number} starts server starts per runtime (--starts): above 1, intervals take the start as their unit
 * @property {import('../model/design.js').StopRule | null} stopRule the levels a budget with starts stopped rows at, and
 *   reported them at; null without looks
 * @property {boolean} together the compared pair's runs were loaded together (--pairing together)
 * @property {string[]} scenarios
 * @property {string[]} stacks in plan order: the stacks, then the ablation variants; ["bare"] before stacks existed
 * @property {string[]} targets
 * @property {string | null} baseline the target every other is shown as a share of
 * @property {{ numerator: string, denominator: string, builtIn: boolean,
 *   builds?: import('../model/own-app-record.js').Builds | null }} compared the judged pair; builtIn: the Nest
 *   pair of the built-in setup, which the reports call by its adapters' names; builds: --baseline's two builds, the
 *   candidate the numerator
 * @property {string[]} remoteTargets url targets: measured for load only, their CPU and memory are not ours to read
 * @property {TargetRow[]} targetRows
 * @property {RatioRow[]} ratios
 * @property {import('./runtime-rows.js').RuntimeRows[]} byRuntime each runtime's rows, grouped as the report reads them
 * @property {Array<{ scenario: string, stack: string }>} judgedRoutes the routes some runtime has a judged ratio on
 * @property {{ scenario: string, stack: string, targets: string[] } | null} firstBaselineRoute the first route with a
 *   target measured against the baseline, and the targets measured there; null without a baseline ratio
 * @property {import('./refusals.js').Refusal[]} refusals compared pairs whose timed answers were mostly refusals (429,
 *   401, 503): findings, left out of the ratios
 * @property {import('./latency-curve.js').LoadCurveAnalysis | null} loadCurve null without --load-curve
 * @property {import('./stack-rows.js').Ablation} ablation
 * @property {MixRow[]} mixes
 * @property {import('./switching-cost.js').SwitchingCost | null} switching what switching costs; null without --nest-app
 * @property {import('./startup.js').StartupRow[]} startup cold start and memory per adapter; empty without --cold-starts
 * @property {Array<{ runtime: string, rows: import('./startup.js').StartupRow[] }>} startupByRuntime the same, runtime
 *   by runtime
 * @property {import('./record.js').RunFacts} run when and where it ran, at what load, what went wrong
 * @property {import('./own-app-facts.js').OwnAppFacts | null} ownApp the app's record and what was made of it; null
 *   without --nest-app
 * @property {import('./time-spent.js').WarmUpRow[]} warmUps each block's warm-up on each start, with --starts
 * @property {import('./time-spent.js').TimeSpent | null} timeSpent where the run's wall time went; null before it ended
 * @property {import('./package-sets.js').PackageSetFacts | null} packageSets with --packages: each set as installed and
 *   each cell (runtime × set), whose key stands where a runtime's would in every other row, as its tables read them
 * @property {import('./package-sets.js').NestBenchmarkFacts} nestBenchmark with --nest-benchmark; empty without
 * @property {import('./beyond-profiles.js').BeyondProfile[]} beyond each beyond profile's load, verification, the
 *   generator's own check and what the servers held per connection
 * @property {import('./host-placing.js').HostPlacing | null} hostPlacing the headline beside the committed hosts' it
 *   recorded; null when it recorded none
 */

/**
 * How a run's rounds were planned: a fixed number, or under a budget, where the rounds a scenario got depend on what
 * they showed, and every interval is group-sequential (bench/analysis/sequential.js).
 * @param {Results} results
 */
function rowDesign(results) {
  const { design } = results.plan;
  const { starts } = design;
  // one start under a budget: the per-round group-sequential rule looks after each pair of rounds; with several
  // starts only the start-level stop rule looks, and the per-round summary is only a fallback
  const budgeted = design.kind === 'budget';
  const looks = design.kind === 'budgeted-starts';
  // the stricter level pays for rounds per start chosen from the data; results without startBlocks count as chosen so
  const startsAdaptive = looks && (results.startBlocks?.some((block) => block.choice === 'variance') ?? true);
  /**
   * The headline: the block primed on every start, which no look lets go (bench/run/designs/server-starts.js).
   * @param {string} runtime @param {string} scenario @param {string} stack
   */
  const isHeadline = (runtime, scenario, stack) =>
    results.primes?.some((p) => p.runtime === runtime && p.scenario === scenario && p.stack === stack) ?? false;
  /** @param {string} runtime @param {string} scenario @param {string} stack */
  const stopOf = (runtime, scenario, stack) =>
    results.stops.find((s) => s.runtime === runtime && s.scenario === scenario && s.stack === stack) ?? null;
  // written with every budget over starts, the only design that reads it
  const stopRule = /** @type {import('../model/design.js').StopRule} */ (results.stopRule);
  const endConfidence = startsAdaptive
    ? BUDGETED_STARTS_CONFIDENCE
    : looks
      ? (stopRule.endConfidence ?? CONFIDENCE)
      : CONFIDENCE;
  return {
    budgeted,
    starts,
    looks,
    /** the rounds every block was planned to run; null where a budget decides */
    fixedRounds: design.roundsPerStart === null ? null : design.roundsPerStart * starts,
    /** the rule as this run's rows were reported: its end level resolved for the design */
    stopRule: { ...stopRule, endConfidence },
    /**
     * A row the starts stopped once it was decided is reported at the stop rule's level for stopped rows; one measured
     * to the end at its end level.
     * @param {string} runtime @param {string} scenario @param {string} stack
     * @returns {number}
     */
    startsConfidenceOf: (runtime, scenario, stack) => {
      if (starts > 1 && stopOf(runtime, scenario, stack)?.stoppedOn === 'decided') return stopRule.stoppedConfidence;
      return looks && stopRule.headlineConfidence && isHeadline(runtime, scenario, stack)
        ? stopRule.headlineConfidence
        : endConfidence;
    },
    summarize: budgeted ? sequentialSummary : summarize,
    stopOf,
  };
}

/**
 * Where a scenario's verdict stands after the runs recorded so far, for the budgeted loops: decided when the numbers
 * alone give a band, unjudged when the scenario has no judged pair. Over starts, its interval is taken at the level a
 * stop is judged at (the run's stop rule).
 * @param {Results} results
 * @param {{ runtime: string, scenario: string, stack: string }} block
 * @returns {import('../model/design.js').Standing}
 */
export function standing(results, block) {
  return blockGlance(results, block)?.standing ?? 'unjudged';
}

/**
 * The compared pair's ratio in a block so far, its interval and verdict, as standing() judges them; null when the
 * block has no judged pair.
 * @param {Results} results
 * @param {{ runtime: string, scenario: string, stack: string }} block
 * @returns {import('../model/design.js').Glance | null}
 */
export function blockGlance(results, { runtime, scenario, stack }) {
  const judged = ratioSpecs(results, measuredConfig(results))
    .specsOn(scenario)
    .find((spec) => spec.judged);
  const runs = results.runs.filter(
    (run) => run.runtime === runtime && run.scenario === scenario && run.stack === stack,
  );
  const rounds = Math.max(0, ...runs.map((run) => run.round));
  const designed = rowDesign(results);
  const design = { ...designed, startsConfidenceOf: () => designed.stopRule.decideConfidence };
  const row = judged && ratioRow(runtime, scenario, stack, judged, runs, rounds, design, results.options.durationSec);
  if (!row) return null;
  const verdict = row.verdict ?? 'inconclusive';
  const measured = verdict !== 'too slow' && Number.isFinite(row.summary.median);
  return {
    pair: `${row.numerator} ÷ ${row.denominator}`,
    ratio: measured ? row.summary.median : null,
    interval: measured && row.summary.ci ? { low: row.summary.ci.low, high: row.summary.ci.high } : null,
    verdict,
    // more rounds of the same length cannot give a too-slow target the time to answer
    standing: row.measuredVerdict === 'inconclusive' && verdict !== 'too slow' ? 'undecided' : 'decided',
  };
}

/**
 * One block's rows (a runtime, scenario and stack): each target's summary, and each ratio's, or the refusal a judged
 * pair measured instead.
 * @param {Results} results @param {ReturnType<typeof rowDesign>} design @param {RatioSpec[]} specs
 * @param {{ runtime: string, scenario: string, stack: string }} block
 */
function blockRows(results, design, specs, { runtime, scenario, stack }) {
  const { durationSec } = results.options;
  const runs = results.runs.filter(
    (run) => run.runtime === runtime && run.scenario === scenario && run.stack === stack,
  );
  const targetRows = results.options.targets.flatMap((target) => {
    const own = runs.filter((run) => run.target === target);
    return own.length ? [summarizeTarget(runtime, scenario, stack, target, own, design, durationSec)] : [];
  });
  /** @type {RatioRow[]} */
  const ratios = [];
  /** @type {import('./refusals.js').Refusal[]} */
  const refusals = [];
  for (const spec of specs) {
    // a pair whose answers were mostly refusals measured the refusal: a finding, never a ratio
    const refusal = refusalOf(
      runs,
      { runtime, scenario, stack },
      [spec.numerator, spec.denominator],
      results.ownApp?.scan ?? null,
      results.ownApp?.throttle ?? null,
    );
    if (refusal) {
      if (spec.judged) refusals.push(refusal);
      continue;
    }
    // a fixed design with --starts ran its --rounds in every start
    const rounds =
      design.fixedRounds ??
      design.stopOf(runtime, scenario, stack)?.rounds ??
      Math.max(0, ...runs.map((run) => run.round));
    const row = ratioRow(runtime, scenario, stack, spec, runs, rounds, design, durationSec);
    if (row) ratios.push(row);
  }
  return { targetRows, ratios, refusals };
}

/**
 * @param {Results} results
 * @returns {Analysis}
 */
export function analyze(results) {
  const runtimes = results.plan.runtimes;
  const { scenarios, targets } = results.options;
  const measuredSetup = measuredConfig(results);
  const { config, scenarioOf } = measuredSetup;
  const { specsOn, baseline } = ratioSpecs(results, measuredSetup);
  const design = rowDesign(results);
  const stacks = [...new Set([...results.plan.pairs, ...results.runs].map((record) => record.stack))];
  const blocks = runtimes.flatMap((runtime) =>
    scenarios.flatMap((scenario) =>
      stacks.map((stack) => ({
        runtime,
        scenario,
        stack,
        ...blockRows(results, design, specsOn(scenario), { runtime, scenario, stack }),
      })),
    ),
  );
  const targetRows = blocks.flatMap((block) => block.targetRows);
  const ratios = blocks.flatMap((block) => block.ratios);
  const refusals = blocks.flatMap((block) => block.refusals);
  const [numerator, denominator] = config.compare;
  const atRate = switchAtRate(results);
  const builtIn = config.source === BUILTIN_CONFIG.source;
  const startup = startupRows(results);
  return {
    runtimes,
    runtimeLabels: Object.fromEntries(
      runtimes.map((key) => [key, runtimeLabel(key, results.startedAt, results.environment?.runtimes)]),
    ),
    budgeted: design.budgeted,
    starts: design.starts,
    stopRule: design.looks ? design.stopRule : null,
    together: results.runs.some((run) => run.together),
    scenarios,
    stacks,
    targets,
    baseline,
    compared: { numerator, denominator, builtIn, builds: results.ownApp?.builds ?? null },
    remoteTargets: config.targets.filter((t) => t.kind === 'url').map((t) => t.name),
    targetRows,
    ratios,
    byRuntime: runtimeRows(runtimes, scenarios, blocks),
    judgedRoutes: judgedRoutes(scenarios, stacks, ratios),
    firstBaselineRoute: firstBaselineRoute(ratios),
    refusals,
    ablation: ablation(results, stacks),
    mixes: mixRows(results, scenarioOf),
    loadCurve: analyzeLoadCurve(results),
    switching: switchingCost(results.ownApp, ratios, atRate),
    ownApp: ownAppFacts(results, atRate),
    warmUps: warmUpRows(results),
    packageSets: packageSetFacts(results.packages, { ratios, scenarios, ownApp: Boolean(results.ownApp) }),
    nestBenchmark: nestBenchmarkFacts(results.nestBenchmark),
    timeSpent: timeSpent(results),
    startup,
    startupByRuntime: startupByRuntime(startup),
    run: runFacts(results),
    beyond: beyondProfiles(results, { runtimes, scenarios, stacks, targetRows }, scenarioOf),
    hostPlacing: hostPlacing(results, ratios),
  };
}
