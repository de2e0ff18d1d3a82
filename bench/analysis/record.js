// @ts-check
// What the reports say of the run beside its numbers: when and where it ran, at what load, how its rounds were
// planned, what went wrong and which headers differed. Taken from the record once, so report/ reads the Analysis only.
import { errorLine } from '../errors.js';

/** @typedef {import('../model/results.js').Results} Results */

/**
 * How the rounds were planned, as the reports describe it.
 * @typedef {object} RoundsPlan
 * @property {number} starts server starts asked for (under a budget: the fewest)
 * @property {number | null} roundsPerStart the fixed rounds of each start; null: a budget decided
 * @property {number | null} budgetPerRuntimeSec seconds per runtime; null: no budget
 * @property {boolean} steady each start's blocks ran until their targets reached a steady state
 *
 * Something that did not go as planned: a target that did not start, a pair that failed verification, a run that
 * failed or was too slow.
 * @typedef {object} Problem
 * @property {string} runtime
 * @property {string} target
 * @property {string | null} scenario null: the whole target
 * @property {string} what
 * @property {string} why
 *
 * @typedef {object} RunFacts
 * @property {string} startedAt
 * @property {string | null} finishedAt
 * @property {boolean} complete false while running, after Ctrl-C, or when the bench itself crashed
 * @property {string | null} stopReason why it is incomplete
 * @property {import('../model/results.js').Results['environment']} environment
 * @property {string[]} generators every load generator the run used, each with its version where it was recorded
 * @property {import('../model/results.js').RuntimeChoice | null} runtimeChoice
 * @property {{ connections: number, durationSec: number, warmupSec: number, burstSec: number, pipelining: number }}
 *   load each timed run's, from the flags
 * @property {RoundsPlan} rounds
 * @property {Results['started']} started
 * @property {Problem[]} problems
 * @property {{ targets: string[], stacks: string[], differences: Results['headerDifferences'] }} headers the targets
 *   with a differing header, the stacks of the plan, and each difference
 * @property {NonNullable<Results['blockLoads']>} loweredLoads blocks run at fewer connections than the flags say
 * @property {NonNullable<Results['unbooted']>} unbooted servers beside the verdict that never booted
 * @property {boolean} packageSets the servers ran on package sets (--packages), not the bench's own packages
 */

/**
 * @param {Results} results
 * @returns {RoundsPlan}
 */
export function roundsPlan({ plan: { design }, steadyBlocks }) {
  return {
    starts: design.starts,
    roundsPerStart: design.roundsPerStart,
    budgetPerRuntimeSec: design.budgetPerRuntimeSec,
    steady: Boolean(steadyBlocks),
  };
}

/**
 * @param {Results} results
 * @returns {Problem[]}
 */
function problems(results) {
  return [
    ...results.targetFailures.map((f) => ({
      runtime: f.runtime,
      target: f.target,
      scenario: null,
      what: 'could not start',
      why: f.reason,
    })),
    ...results.verification
      .filter((v) => !v.ok)
      .map((v) => ({
        runtime: v.runtime,
        target: v.target,
        scenario: v.scenario,
        what: 'skipped (verification)',
        why: v.reason ?? '',
      })),
    ...results.runs
      .filter((r) => r.status !== 'ok')
      .map((r) => ({
        runtime: r.runtime,
        target: r.target,
        scenario: r.scenario,
        what: `round ${r.round} ${r.status === 'failed' ? 'failed' : `too slow for --duration ${results.options.durationSec} s`}`,
        why: [r.failure?.reason, r.failure?.stderrTail && errorLine(r.failure.stderrTail)]
          .filter(Boolean)
          .join(' — stderr: '),
      })),
  ];
}

/** HTTP/2 as h2load reports it: over TLS and in cleartext. */
const HTTP2 = ['h2', 'h2c'];

/**
 * Every load generator the run used, with its version: as the run recorded them, or, in results from before it did,
 * the driver where a run spoke HTTP/1.1 and h2load where one spoke HTTP/2.
 * @param {Results} results
 * @returns {string[]}
 */
function generatorsUsed({ environment, runs }) {
  if (environment.generators) return environment.generators;
  const spoken = new Set(runs.map((run) => run.load?.protocol ?? 'http/1.1'));
  const http2 = HTTP2.some((protocol) => spoken.has(protocol));
  const http1 = !http2 || [...spoken].some((protocol) => !HTTP2.includes(protocol));
  return [...(http1 ? [environment.driver] : []), ...(http2 ? ['h2load (its version was not recorded)'] : [])];
}

/**
 * @param {Results} results
 * @returns {RunFacts}
 */
export function runFacts(results) {
  const { options } = results;
  return {
    startedAt: results.startedAt,
    finishedAt: results.finishedAt,
    complete: results.complete,
    stopReason: results.stopReason ?? null,
    environment: results.environment,
    generators: generatorsUsed(results),
    runtimeChoice: results.plan.runtimeChoice,
    load: {
      connections: options.connections,
      durationSec: options.durationSec,
      warmupSec: options.warmupSec,
      burstSec: options.burstSec,
      pipelining: options.pipelining,
    },
    rounds: roundsPlan(results),
    started: results.started,
    problems: problems(results),
    headers: {
      targets: options.targets.filter((t) => results.headerDifferences.some((d) => t in d.values)),
      stacks: [...new Set(results.plan.pairs.map((pair) => pair.stack))],
      differences: results.headerDifferences,
    },
    loweredLoads: (results.blockLoads ?? []).filter((load) => load.lowered),
    unbooted: results.unbooted ?? [],
    packageSets: Boolean(results.packages),
  };
}
