#!/usr/bin/env node
// @ts-check
// `npm run bench`: flags → plan → build → measure (every runtime) → results.json → reports → verdict on the terminal.
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt } from '../run/build.js';
import { loadDriver } from '../run/drivers/registry.js';
import { collectEnvironment } from '../run/environment.js';
import { USAGE_EXIT_CODE, UsageError } from '../errors.js';
import { START_ALLOWANCE_SEC, measureRuntime } from '../run/measure.js';
import { FALLBACK_DRIVER, HELP, PREFERRED_DRIVER, parseOptions } from '../run/options.js';
import { planPairs } from '../run/plan.js';
import { createProgress, formatDuration } from '../run/progress.js';
import { RESULTS_SCHEMA, createResultsWriter } from '../results.js';
import { renderSummary } from '../report/markdown.js';
import { writeReports } from '../report/write.js';
import { assertDriverSupports, currentNode, parseRuntimeList, resolveRuntimes } from '../runtimes/runtimes.js';
import { scenarioByName } from '../run/scenarios.js';
import { PROJECT_ROOT, targetByName } from '../run/targets.js';
import { headerDifferences } from '../run/verify.js';

/** @typedef {import('../runtimes/runtimes.js').Runtime} Runtime */

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_INTERRUPTED = 130;
/** The token must outlive the longest run anyone would start. */
const TOKEN_TTL_SECONDS = 24 * 3600;
const TOKEN_MODULE = join(PROJECT_ROOT, 'dist', 'auth', 'token.js');

/** @param {string} line */
const log = (line) => process.stderr.write(`${line}\n`);

/**
 * @param {string[]} argv
 * @returns {Promise<number>} exit code
 */
async function main(argv) {
  const options = parseOptions(argv);
  if (options.help) {
    console.log(HELP);
    return EXIT_OK;
  }
  return run(await prepare(options));
}

/**
 * Everything that can be refused before a server starts: driver, runtimes, pairs, the build and the token.
 * @param {import('../run/options.js').Options} options
 */
async function prepare(options) {
  const driver = await chooseDriver(options.driver);
  const runtimes = await resolveRuntimeOption(options.runtime, driver.name);
  const { pairs, notApplicable } = planPairs(options.targets, options.scenarios);
  if (pairs.length === 0) {
    throw new UsageError(
      `--targets ${options.targets.join(',')} have no route for --scenarios ${options.scenarios.join(',')}; the raw targets answer hello and json only`,
    );
  }
  if (pairs.some((pair) => targetByName(pair.target).group === 'nest')) ensureBuilt(log);
  const secret = randomBytes(32).toString('hex');
  const token = pairs.some((pair) => scenarioByName(pair.scenario).needsToken) ? await mintToken(secret) : null;
  const cpus = options.cpus && pinThisProcess(options.cpus, options.pinnedByDefault);
  return { options: { ...options, cpus }, driver, runtimes, pairs, notApplicable, secret, token };
}

/**
 * Measure every runtime in turn, keep results.json current, and always end with the reports, even when interrupted.
 * @param {Awaited<ReturnType<typeof prepare>>} setup options as prepared: pinning as actually in force
 * @returns {Promise<number>} exit code
 */
async function run({ options, driver, runtimes, pairs, notApplicable, secret, token }) {
  const stamp = new Date().toISOString().replace(/:/g, '-').replace(/\..*$/, '');
  const outDir = resolve(options.outDir ?? join(PROJECT_ROOT, 'results', stamp));
  const runtimeKeys = runtimes.map((r) => `${r.name}@${r.version}`);
  /** @type {import('../results.js').Results} */
  const results = {
    schema: RESULTS_SCHEMA,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    complete: false,
    stopReason: 'still running',
    environment: collectEnvironment({ runtimes, driverVersion: await driver.version(), cpus: options.cpus }),
    options: { ...options, driver: driver.name },
    plan: { driver: driver.name, pairs, notApplicable, runtimes: runtimeKeys },
    targetFailures: [],
    started: [],
    verification: [],
    headerDifferences: [],
    runs: [],
  };
  const writer = createResultsWriter(outDir);
  const save = () => writer.write(results);
  save();
  log(`results: ${outDir}`);

  const abort = new AbortController();
  const onSignal = (/** @type {NodeJS.Signals} */ signal) => {
    if (abort.signal.aborted) process.exit(EXIT_INTERRUPTED); // second Ctrl-C: children are killed on exit
    results.stopReason = `interrupted (${signal})`;
    log(`\n${signal}: stopping the servers and writing partial results (again to quit at once)`);
    abort.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const perRuntimeSec = START_ALLOWANCE_SEC + pairs.length * (options.warmupSec + options.rounds * options.durationSec);
  const progress = createProgress({ stream: process.stderr, totalPlannedSec: runtimes.length * perRuntimeSec });
  try {
    for (const [i, runtime] of runtimes.entries()) {
      if (abort.signal.aborted) break;
      await measureRuntime({
        runtime,
        runtimeKey: runtimeKeys[i],
        options,
        driver,
        pairs,
        token,
        env: { JWT_SECRET: secret },
        results,
        save,
        progress,
        signal: abort.signal,
      });
    }
    results.headerDifferences = headerDifferences(results.verification);
    if (options.prof && !abort.signal.aborted) {
      results.profiles = await profile({
        options,
        outDir,
        stamp,
        runtimes,
        driver,
        results,
        secret,
        token,
        signal: abort.signal,
        log: (line) => progress.log(line),
      });
    }
    results.complete = !abort.signal.aborted;
    if (results.complete) results.stopReason = null;
  } catch (error) {
    results.stopReason = `the bench failed: ${/** @type {Error} */ (error).message}`;
    throw error;
  } finally {
    progress.done();
    results.finishedAt = new Date().toISOString();
    save();
    const { analysis, markdownFile, htmlFile } = await writeReports(outDir, results);
    console.log(renderSummary(results, analysis));
    const tookSec = (Date.parse(results.finishedAt) - Date.parse(results.startedAt)) / 1000;
    log(`wrote ${writer.file}, ${markdownFile}, ${htmlFile} (${formatDuration(tookSec)} in all)`);
  }
  if (abort.signal.aborted) return EXIT_INTERRUPTED;
  const failures =
    results.targetFailures.length +
    results.runs.filter((r) => r.status === 'failed').length +
    results.verification.filter((v) => !v.ok).length;
  return failures ? EXIT_FAILED : EXIT_OK;
}

/**
 * Without --runtime: the node running the bench. With it: bench/runtimes.js parses, checks the driver against the
 * runtimes (before installing anything), installs what is missing and resolves.
 * @param {string | null} text
 * @param {string} driverName
 * @returns {Promise<Runtime[]>}
 */
async function resolveRuntimeOption(text, driverName) {
  if (text === null) return [currentNode()];
  const specs = parseRuntimeList(text);
  assertDriverSupports(driverName, specs);
  return resolveRuntimes(specs, { log });
}

/**
 * The named driver, or the preferred one when installed, else the fallback that needs no install (said once).
 * @param {string | null} name
 */
async function chooseDriver(name) {
  if (name !== null) {
    const driver = await loadDriver(name);
    await driver.checkAvailable().catch((error) => {
      throw new UsageError(`--driver ${name}: ${error.message}`);
    });
    return driver;
  }
  const preferred = await loadDriver(PREFERRED_DRIVER);
  try {
    await preferred.checkAvailable();
    return preferred;
  } catch (error) {
    log(
      `note: ${/** @type {Error} */ (error).message}; using ${FALLBACK_DRIVER} instead (it needs about 1.5× the CPU per request, so fast targets may saturate it)`,
    );
    return loadDriver(FALLBACK_DRIVER);
  }
}

/**
 * A bearer token for the secure scenario, signed with this run's secret by the app's own helper.
 * @param {string} secret
 * @returns {Promise<string | null>} null when the compiled helper is missing (the secure pairs then fail verification)
 */
async function mintToken(secret) {
  if (!existsSync(TOKEN_MODULE)) {
    log(`note: ${TOKEN_MODULE} not found, so no token for the secure scenario`);
    return null;
  }
  try {
    const { signToken } = await import(pathToFileURL(TOKEN_MODULE).href);
    return signToken(secret, TOKEN_TTL_SECONDS);
  } catch (error) {
    log(`note: could not mint a token for the secure scenario: ${/** @type {Error} */ (error).message}`);
    return null;
  }
}

/**
 * With pinning, the bench itself (and so in-process autocannon) runs on the generator's CPUs, never the servers'.
 * Pinning that was only the default gives way to an unpinned run when taskset is missing, as wrk gives way to autocannon.
 * @param {{ server: string, generator: string }} cpus
 * @param {boolean} pinnedByDefault
 * @returns {{ server: string, generator: string } | null} the pinning in force
 */
function pinThisProcess(cpus, pinnedByDefault) {
  const pinned = spawnSync('taskset', ['-a', '-p', '-c', cpus.generator, String(process.pid)], { encoding: 'utf8' });
  if (pinned.status === 0) return cpus;
  const missing = 'taskset is not installed (apt-get install util-linux)';
  if (pinned.error && pinnedByDefault) {
    log(`note: ${missing}; running unpinned, so the scheduler places servers and generator`);
    return null;
  }
  const reason = pinned.error ? missing : `taskset: ${pinned.stderr.trim()}`;
  throw new UsageError(`pinning: could not pin the bench to CPU ${cpus.generator}: ${reason}; or run with --no-pin`);
}

/**
 * --prof: one separate profiled run per measured pair, after the timed runs, so profiling never touches them.
 * @param {{ options: import('../run/options.js').Options, outDir: string, stamp: string, runtimes: Runtime[],
 *   driver: import('../run/drivers/registry.js').Driver, results: import('../results.js').Results, secret: string,
 *   token: string | null, signal: AbortSignal, log: (line: string) => void }} context
 */
async function profile({ options, outDir, stamp, runtimes, driver, results, secret, token, signal, log: say }) {
  const { profileTargets } = await import('../profile/profile-targets.js');
  const profileDir = options.outDir ? join(outDir, 'profiles') : join(PROJECT_ROOT, 'profiles', stamp);
  const records = [];
  for (const [i, runtime] of runtimes.entries()) {
    const key = results.plan.runtimes[i];
    const pairs = results.verification
      .filter((v) => v.runtime === key && v.ok)
      .map(({ target, scenario }) => ({ target, scenario }));
    records.push(
      ...(await profileTargets({
        // the timed targets have stopped: the profiled one (one at a time) takes the first of --port's ports
        pairs,
        runtime,
        driver,
        durationSec: options.profileSec,
        connections: options.connections,
        outDir: profileDir,
        log: say,
        port: options.basePort,
        env: { JWT_SECRET: secret },
        token,
        serverCpu: options.cpus?.server ?? null,
        generatorCpu: options.cpus?.generator ?? null,
        signal,
      })),
    );
  }
  return records;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    if (error instanceof UsageError) {
      log(error.message);
      process.exitCode = USAGE_EXIT_CODE;
    } else {
      log(error instanceof Error ? error.message : String(error));
      process.exitCode = EXIT_FAILED;
    }
  },
);
