// @ts-check
// What a beyond profile's block showed beside its ratio: the load it ran at, what verification said of each adapter's
// answer, the generator's own check over its runs, and, for a paced profile, what each server held per connection.
import { SCENARIO_SETS } from '../model/beyond.js';
import { median } from '../maths/quantile.js';

/** @typedef {import('../model/results.js').Results} Results */
/** @typedef {import('../model/results.js').RunRecord} RunRecord */

const PROFILES = new Set(SCENARIO_SETS.beyond);
const MS_PER_SEC = 1000;

/**
 * @typedef {object} ProfileLoad the load a profile ran at: its own (config.js: ScenarioLoad) where it has one, else
 *   the run's flags
 * @property {number} connections
 * @property {number | null} connectionRate requests per second per connection, paced; null: closed loop
 * @property {number | null} requestsPerConnection null: kept alive
 * @property {number} shortestSec its shortest run; 0: --duration's
 *
 * @typedef {object} GeneratorCheck the generator's own numbers over a block's ok runs
 * @property {number} busiestShare the most of a core it used in a run
 * @property {boolean} saturated it used a whole core in some run
 * @property {number} failed socket errors and timeouts over the runs
 * @property {number} slowestP99Ms the slowest run's p99 latency
 * @property {number | null} meanWaitMs a paced connection's mean wait between requests; null: not paced
 * @property {{ low: number, high: number } | null} answered a paced profile's req/s, lowest and highest run
 * @property {{ perRun: number, reopenedPerAnswer: number | null } | null} opened connections opened per run and, past
 *   the first ones, per answer; null where the generator does not count them
 * @property {string[]} protocols what it spoke
 *
 * @typedef {object} HeldPerConnection a server in a paced profile: the median over its runs, per connection
 * @property {string} target
 * @property {number | null} rssMiB its RSS at the run's peak over its RSS before the run
 * @property {number | null} heapMiB its heap after the run over before (a collection during it can make it negative)
 * @property {number | null} cpuUsPerRequest
 *
 * @typedef {object} BeyondProfile one beyond profile on one runtime and stack
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} stack
 * @property {ProfileLoad} load
 * @property {boolean} verified some target's answer was verified for it (or refused)
 * @property {Array<{ target: string, reason: string | null }>} refused the answers verification refused
 * @property {GeneratorCheck} generator
 * @property {HeldPerConnection[]} held empty unless paced
 * @property {import('./rows.js').TargetRow | null} alone the first target that answered in its block: the row a
 *   profile without a pair leads with
 */

/**
 * Every beyond profile the run planned, on each of its runtimes and stacks, that was verified or ran.
 * @param {Results} results
 * @param {{ runtimes: string[], scenarios: string[], stacks: string[], targetRows: import('./rows.js').TargetRow[] }}
 *   planned targetRows: the Analysis', each block's first answered one kept with its profile
 * @param {import('../model/config.js').ScenariosByName} scenarioOf the measured scenarios by name: each one's own load
 * @returns {BeyondProfile[]}
 */
export function beyondProfiles(results, { runtimes, scenarios, stacks, targetRows }, scenarioOf) {
  return runtimes.flatMap((runtime) =>
    scenarios
      .filter((scenario) => PROFILES.has(scenario))
      .flatMap((scenario) =>
        stacks.flatMap((stack) => {
          const block = { runtime, scenario, stack };
          const profile = beyondProfile(results, block, scenarioOf.get(scenario)?.load);
          if (!profile) return [];
          const alone = targetRows.find(
            (row) => row.runtime === runtime && row.scenario === scenario && row.stack === stack && row.okRuns > 0,
          );
          return [{ ...profile, alone: alone ?? null }];
        }),
      ),
  );
}

/**
 * @param {Results} results @param {{ runtime: string, scenario: string, stack: string }} block
 * @param {import('../model/config.js').ScenarioLoad | undefined} own the scenario's own load
 * @returns {Omit<BeyondProfile, 'alone'> | null}
 */
function beyondProfile(results, block, own) {
  const same = (/** @type {{ runtime: string, scenario: string, stack: string }} */ record) =>
    record.runtime === block.runtime && record.scenario === block.scenario && record.stack === block.stack;
  const verification = results.verification.filter(same);
  const ran = results.runs.filter(same);
  if (verification.length === 0 && ran.length === 0) return null;
  const runs = ran.filter((run) => run.status === 'ok');
  const load = profileLoad(results, own);
  return {
    ...block,
    load,
    verified: verification.length > 0,
    refused: verification.filter((v) => !v.ok).map((v) => ({ target: v.target, reason: v.reason })),
    generator: generatorCheck(runs, load),
    held: load.connectionRate === null ? [] : heldPerConnection(runs, load.connections),
  };
}

/**
 * @param {Results} results @param {import('../model/config.js').ScenarioLoad | undefined} own
 * @returns {ProfileLoad}
 */
function profileLoad(results, own) {
  return {
    connections: own?.connections ?? results.options.connections,
    connectionRate: own?.connectionRate ?? null,
    requestsPerConnection: own?.requestsPerConnection ?? null,
    shortestSec: own?.durationSec ?? 0,
  };
}

/**
 * @param {RunRecord[]} runs the block's ok runs @param {ProfileLoad} load
 * @returns {GeneratorCheck}
 */
function generatorCheck(runs, { connections, connectionRate }) {
  const answered = runs.map((run) => run.load?.rps ?? 0);
  const counted = runs.filter((run) => typeof run.load?.connectionsOpened === 'number');
  const opened = counted.reduce((sum, run) => sum + (run.load?.connectionsOpened ?? 0), 0);
  const requests = counted.reduce((sum, run) => sum + (run.load?.requests ?? 0), 0);
  const reopened = opened - connections * counted.length;
  return {
    busiestShare: Math.max(0, ...runs.map((run) => run.generator?.cpuShare ?? 0)),
    saturated: runs.some((run) => run.generator?.saturated),
    failed: runs.reduce((sum, run) => sum + (run.load?.errors ?? 0) + (run.load?.timeouts ?? 0), 0),
    slowestP99Ms: Math.max(0, ...runs.map((run) => run.load?.latencyMs?.p99 ?? 0)),
    meanWaitMs: connectionRate === null ? null : MS_PER_SEC / connectionRate,
    answered:
      connectionRate === null || !answered.length ? null : { low: Math.min(...answered), high: Math.max(...answered) },
    opened: counted.length
      ? {
          perRun: opened / counted.length,
          reopenedPerAnswer: reopened > 0 && requests > 0 ? reopened / requests : null,
        }
      : null,
    protocols: [...new Set(runs.flatMap((run) => (run.load?.protocol ? [run.load.protocol] : [])))],
  };
}

/**
 * @param {RunRecord[]} runs the block's ok runs @param {number} connections
 * @returns {HeldPerConnection[]}
 */
function heldPerConnection(runs, connections) {
  return [...new Set(runs.map((run) => run.target))].flatMap((target) => {
    const own = runs.filter((run) => run.target === target);
    const rssMiB = medianOrNull(
      own.flatMap((run) => {
        const before = run.state?.heapBefore?.rssMiB;
        const peak = run.server?.peakRssWindow === 'run' ? run.server.peakRssMiB : null;
        return typeof before === 'number' && typeof peak === 'number' ? [(peak - before) / connections] : [];
      }),
    );
    const heapMiB = medianOrNull(
      own.flatMap((run) => {
        const { heapBefore, heapAfter } = run.state ?? {};
        return heapBefore && heapAfter ? [(heapAfter.heapUsedMiB - heapBefore.heapUsedMiB) / connections] : [];
      }),
    );
    const cpuUsPerRequest = medianOrNull(own.flatMap((run) => run.server?.cpuUsPerRequest ?? []));
    return rssMiB === null && heapMiB === null && cpuUsPerRequest === null
      ? []
      : [{ target, rssMiB, heapMiB, cpuUsPerRequest }];
  });
}

/** @param {number[]} values */
const medianOrNull = (values) => (values.length ? median(values) : null);
