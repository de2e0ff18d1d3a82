// @ts-check
/**
 * `npm run bench -- --prof`: one separate profiled run per target × scenario (profiling perturbs timing, so these
 * runs never feed the timed results), each processed into <target>-<scenario>.v8.log / .txt / .html / .json.
 */
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import semver from 'semver';

import { median } from '../maths/quantile.js';
import { runStamp } from '../model/results.js';
import { pairKey } from '../model/keys.js';
import { runsUnderRuntime } from '../run/targets.js';
import { hostIdentity } from '../run/host.js';
import { BARE, instanceName, targetStackEnv } from '../model/stacks.js';
import { describeSummary, processProfileLog } from './process-log.js';
import { resolveRuntimes } from '../runtimes/runtimes.js';
import { parseRuntimeList } from '../runtimes/runtime-specs.js';
import { recordProfile } from './record-profile.js';

export { renderProfilesHtml, renderProfilesMarkdown } from './hot-spot-tables.js';

/** @typedef {import('../runtimes/runtimes.js').Runtime} Runtime */
/** @typedef {import('../run/drivers/registry.js').Driver} Driver */
/** @typedef {import('./process-log.js').ProfileSummary} ProfileSummary */

/** Top functions kept in the record (results.json); the .json file has them all. */
const TOP_FUNCTIONS_KEPT = 30;

/**
 * @typedef {import('../model/profile-record.js').ProfileRecordSummary} ProfileRecordSummary
 * @typedef {import('../model/profile-record.js').ProfileRecord} ProfileRecord
 *
 * @typedef {import('../model/scenarios.js').ResolvedPair & { pair: { measured?: import('./process-log.js').MeasuredCost
 *   | null } }} ProfiledPair a pair as the run's plan resolved it; pair.stack: bare unless given; pair.measured: the timed
 *   runs' CPU per request, kept in the profile to weigh its shares
 *
 * @typedef {object} ProfileOptions
 * @property {ProfiledPair[]} pairs
 * @property {Runtime} runtime
 * @property {Driver} driver
 * @property {number} durationSec
 * @property {number} connections
 * @property {string} outDir
 * @property {(line: string) => void} [log]
 * @property {number | null} port the port each profiled target listens on, one at a time; null: a free one
 * @property {Record<string, string>} [env] for the targets (JWT_SECRET, DATABASE_URL)
 * @property {string | null} [serverCpu] taskset CPU list for the target
 * @property {Runtime} [tickProcessor] the node whose `--prof-process` reads the logs (default: the runtime itself)
 * @property {string | null} [generatorCpu] taskset CPU list for the load generator
 * @property {AbortSignal} [signal] Ctrl-C: stop after the current profile
 */

/**
 * @param {ProfileOptions} options
 * @returns {Promise<ProfileRecord[]>}
 */
export async function profileTargets(options) {
  const { pairs, runtime, driver, durationSec, connections, outDir, log = () => {}, signal } = options;
  /** @type {ProfileRecordBase} */
  const base = {
    runtime: { spec: runtime.spec, name: runtime.name, version: runtime.version },
    driver: driver.name,
    durationSec,
    connections,
    load: null,
    files: null,
    summary: null,
  };
  if (runtime.name === 'bun') {
    const skipped = `${runtime.spec}: Bun runs on JavaScriptCore, which has no --prof log; bun is not profiled`;
    log(`profiles skipped — ${skipped}`);
    return pairs.map(({ pair }) => ({ ...pair, stack: pair.stack ?? BARE, ...base, skipped }));
  }
  await mkdir(outDir, { recursive: true });
  /** @type {ProfileRecord[]} */
  const records = [];
  for (const [i, resolved] of pairs.entries()) {
    if (signal?.aborted) break;
    records.push(await profilePair(resolved, `${i + 1}/${pairs.length}`, base, options));
  }
  return records;
}

/**
 * @typedef {Pick<ProfileRecord, 'runtime' | 'driver' | 'durationSec' | 'connections' | 'load' | 'files' | 'summary'>}
 *   ProfileRecordBase what every profile of one runtime records alike
 */

/**
 * One pair's profiled run, its log processed; a pair that cannot be profiled, or whose profile failed, says why.
 * @param {ProfiledPair} resolved the pair with its target, scenario and request
 * @param {string} counter `i/n`, for the log
 * @param {ProfileRecordBase} base
 * @param {ProfileOptions} options
 * @returns {Promise<ProfileRecord>}
 */
async function profilePair({ pair, target, scenario, request }, counter, base, options) {
  const { runtime, durationSec, outDir, log = () => {}, env = {} } = options;
  const stack = pair.stack ?? BARE;
  const stacked = { ...pair, stack };
  const name = `${instanceName(stacked)}-${pair.scenario}`;
  const notProfiled = whyNotProfiled(target);
  if (notProfiled) {
    log(`profile ${counter}: ${name} skipped — ${notProfiled}`);
    return { ...stacked, ...base, skipped: notProfiled };
  }
  log(`profile ${counter}: ${name} (${durationSec} s under ${runtime.spec})`);
  const logFile = path.resolve(outDir, `${name}.v8.log`);
  try {
    const result = await recordProfile({
      target,
      scenario,
      request,
      runtime,
      driver: options.driver,
      durationSec,
      connections: options.connections,
      port: options.port,
      logFile,
      env: { ...env, ...targetStackEnv(target, stack, path.resolve(outDir, `${name}.requests.log`)) },
      serverCpu: options.serverCpu ?? null,
      generatorCpu: options.generatorCpu ?? null,
      signal: options.signal,
    });
    const { files, summary } = await processProfileLog(logFile, {
      outBase: path.resolve(outDir, name),
      title: `${name} on ${runtime.spec} (${runtime.version})`,
      node: (options.tickProcessor ?? runtime).command,
      context: {
        target: pair.target,
        scenario: pair.scenario,
        stack,
        runtime: base.runtime,
        measured: pair.measured ?? null,
        loadAverage: os.loadavg()[0],
        host: hostIdentity(),
      },
    });
    const { functions, flame: _flame, ...rest } = summary;
    for (const line of describeSummary(summary)) log(`  ${line}`);
    const load = {
      requests: result.requests,
      rps: result.rps,
      errors: result.errors,
      unexpectedStatus: result.unexpectedStatus,
    };
    return {
      ...stacked,
      ...base,
      load,
      files,
      summary: { ...rest, topFunctions: functions.slice(0, TOP_FUNCTIONS_KEPT) },
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`  profile failed: ${message}`);
    return { ...stacked, ...base, error: message };
  }
}

/**
 * --prof is a node flag: only a target the bench starts as `node ...` can take it.
 * @param {import('../model/config.js').Target} target
 * @returns {string | null}
 */
function whyNotProfiled(target) {
  if (target.url !== null) return 'a url target runs elsewhere; only targets the bench starts are profiled';
  if (!runsUnderRuntime(target)) return `its command is not node (${target.command?.[0]}); --prof is node's`;
  return null;
}

/**
 * --prof: after the timed runs, one separate profiled run per pair that passed verification, so profiling never
 * touches them. Profiles go beside results.json with --out, else to profiles/<stamp>/; with several runtimes, each
 * runtime's into its own <name>@<version>/ there, so that the same pair's profiles do not overwrite each other.
 * @param {{ config: import('../model/config.js').Config, options: import('../run/options.js').Options, outDir: string,
 *   runtimes: Runtime[], driver: Driver, resolved: Map<string, import('../model/scenarios.js').ResolvedPair>,
 *   results: import('../model/results.js').Results, env: Record<string, string>, signal: AbortSignal,
 *   log: (line: string) => void }} run resolved: the plan's pairs by pairKey, their names resolved before the run
 * @returns {Promise<ProfileRecord[]>}
 */
export async function profileRun({ config, options, outDir, runtimes, driver, resolved, results, env, signal, log }) {
  const profileDir = options.outDir
    ? path.join(outDir, 'profiles')
    : path.join(config.baseDir, 'profiles', runStamp(new Date(results.startedAt)));
  const records = [];
  for (const [i, runtime] of runtimes.entries()) {
    const key = results.plan.runtimes[i];
    const pairs = results.verification
      .filter((v) => v.runtime === key && v.ok)
      .map(({ target, scenario, stack }) => ({
        .../** @type {import('../model/scenarios.js').ResolvedPair} */ (
          resolved.get(pairKey({ target, scenario, stack }))
        ),
        pair: {
          target,
          scenario,
          stack,
          measured: measuredCost(results.runs, { runtime: key, target, scenario, stack }),
        },
      }));
    records.push(
      ...(await profileTargets({
        tickProcessor: runtime.name === 'deno' ? await tickProcessorForDeno(runtimes, results.startedAt, log) : runtime,
        // the timed targets have stopped: the profiled one (one at a time) takes the first of --port's ports, else a free one
        pairs,
        runtime,
        driver,
        durationSec: options.profileSec,
        connections: options.connections,
        outDir: runtimes.length > 1 ? path.join(profileDir, key) : profileDir,
        log,
        port: options.basePort,
        env,
        serverCpu: options.cpus?.server ?? null,
        generatorCpu: options.cpus?.generator ?? null,
        signal,
      })),
    );
  }
  return records;
}

/**
 * Deno has no tick processor of its own: its V8 log is read by node's, from the run's Node with the newest V8 (V8's
 * log format changes between versions), else from the LTS line, installed like any runtime.
 * @param {Runtime[]} runtimes the run's @param {string} date the run's date @param {(line: string) => void} log
 * @returns {Promise<Runtime>}
 */
async function tickProcessorForDeno(runtimes, date, log) {
  const [newest] = runtimes.filter((r) => r.name === 'node').sort((a, b) => semver.rcompare(a.version, b.version));
  const node = newest ?? (await resolveRuntimes(parseRuntimeList('lts', date), { log }))[0];
  log(`deno's V8 logs are read by node ${node.version}'s --prof-process`);
  return node;
}

/**
 * The median CPU per request (and neighbours' CPU) of a pair's timed runs, or null when none measured it.
 * @param {import('../model/results.js').Results['runs']} runs
 * @param {{ runtime: string, target: string, scenario: string, stack: string }} pair
 * @returns {import('./process-log.js').MeasuredCost | null}
 */
export function measuredCost(runs, pair) {
  const own = runs.filter(
    (run) =>
      run.status === 'ok' &&
      run.runtime === pair.runtime &&
      run.target === pair.target &&
      run.scenario === pair.scenario &&
      run.stack === pair.stack &&
      typeof run.server?.cpuUsPerRequest === 'number',
  );
  if (own.length === 0) return null;
  return {
    cpuUsPerRequest: median(own.map((run) => /** @type {number} */ (run.server?.cpuUsPerRequest))),
    rounds: own.length,
    neighbourCpuShare: Math.max(0, ...own.map((run) => run.neighbours?.cpuShare ?? 0)),
  };
}
