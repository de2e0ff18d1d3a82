// @ts-check
// The Recorder: the one way the stages add to a run's record. Each kind of record has its method; each addition is
// written to results.json at once, so a crash or a Ctrl-C loses nothing already measured.

/**
 * @typedef {import('./results.js').Results} Results
 * @typedef {import('./results.js').RunRecord} RunRecord
 * @typedef {NonNullable<Results['loadCurve']>} LoadCurveResults
 */

/**
 * The lists of a record that runs add to entry by entry.
 * @typedef {'started' | 'targetFailures' | 'verification' | 'runs' | 'stops' | 'unbooted' | 'primes' | 'steadyBlocks'
 *   | 'startBlocks' | 'warmUps' | 'routeLoads' | 'drains' | 'nestBenchmark'} ListKey
 */

export class Recorder {
  /** @type {Results} */
  #results;
  /** @type {(results: Results) => void} */
  #persist;

  /**
   * @param {Results} results a run's record, as createResults began it
   * @param {(results: Results) => void} [persist] writes it (createResultsWriter); none: kept in memory
   */
  constructor(results, persist = () => {}) {
    this.#results = results;
    this.#persist = persist;
  }

  /** The record so far, for the stages that read it during the run (where a verdict stands, a curve's plan). */
  get results() {
    return /** @type {Readonly<Results>} */ (this.#results);
  }

  /** Writes the record as it stands. */
  save() {
    this.#persist(this.#results);
  }

  /**
   * Adds to a list of the record, creating it on its first entry: a kind of record a run never made stays absent.
   * @template {ListKey} K @param {K} key @param {NonNullable<Results[K]>} entries
   */
  #append(key, entries) {
    const list = /** @type {unknown[]} */ (this.#results[key] ??= /** @type {any} */ ([]));
    list.push(...entries);
    this.save();
  }

  /** A server started (or started again). @param {Results['started'][number]} entry */
  started(entry) {
    this.#append('started', [entry]);
  }

  /** The latest start of this server was a restart, after a route hung or crashed it. @param {string} instance */
  restarted(instance) {
    const entry = this.#results.started.findLast((started) => started.target === instance);
    if (entry) entry.restarted = true;
    this.save();
  }

  /** A server that could not start. @param {Results['targetFailures'][number]} entry */
  targetFailed(entry) {
    this.#append('targetFailures', [entry]);
  }

  /** Pairs verified before their runs. @param {Results['verification']} records */
  verified(records) {
    this.#append('verification', records);
  }

  /** Timed runs. @param {RunRecord[]} records */
  runs(records) {
    this.#append('runs', records);
  }

  /** Where each block stopped and why. @param {Results['stops']} stops */
  stops(stops) {
    this.#append('stops', stops);
  }

  /** --starts: servers beside the verdict that never booted. @param {NonNullable<Results['unbooted']>[number]} entry */
  unbooted(entry) {
    this.#append('unbooted', [entry]);
  }

  /** --starts: the untimed load a headline server answered alone. @param {NonNullable<Results['primes']>[number]} entry */
  primed(entry) {
    this.#append('primes', [entry]);
  }

  /** --starts: a block's rounds on one start. @param {NonNullable<Results['steadyBlocks']>[number]} entry */
  steadyBlock(entry) {
    this.#append('steadyBlocks', [entry]);
  }

  /** --starts: what one start measured. @param {NonNullable<Results['startBlocks']>[number]} entry */
  startBlock(entry) {
    this.#append('startBlocks', [entry]);
  }

  /**
   * --starts: a block's fitted load; a later fit of the same block on the same runtime replaces the earlier.
   * @param {NonNullable<Results['blockLoads']>[number]} entry
   * @param {(load: NonNullable<Results['blockLoads']>[number]) => boolean} sameBlock
   */
  blockLoad(entry, sameBlock) {
    const loads = (this.#results.blockLoads ??= []);
    const earlier = loads.findIndex(sameBlock);
    if (earlier === -1) loads.push(entry);
    else loads[earlier] = entry;
    this.save();
  }

  /** A pair's warm-ups on one start. @param {NonNullable<Results['warmUps']>[number]} entry */
  warmedUp(entry) {
    this.#append('warmUps', [entry]);
  }

  /** --nest-app: the loads fitted to each route. @param {NonNullable<Results['routeLoads']>} loads */
  routeLoads(loads) {
    this.#append('routeLoads', loads);
  }

  /** --nest-app: a load after which a server held requests, hung or exited. @param {NonNullable<Results['drains']>[number]} entry */
  drained(entry) {
    this.#append('drains', [entry]);
  }

  /** --load-curve: the curves planned on one runtime (none: the curve ran and planned nothing). @param {LoadCurveResults['plans']} plans */
  curvePlans(plans) {
    this.#curves().plans.push(...plans);
    this.save();
  }

  /** --load-curve: the generator's warm-ups. @param {NonNullable<LoadCurveResults['warmUps']>} entries */
  curveWarmUps(entries) {
    (this.#curves().warmUps ??= []).push(...entries);
    this.save();
  }

  /** --load-curve: one open-loop run. @param {LoadCurveResults['runs'][number]} record */
  curveRun(record) {
    this.#curves().runs.push(record);
    this.save();
  }

  #curves() {
    return (this.#results.loadCurve ??= { plans: [], runs: [] });
  }

  /** --cold-starts, one runtime's after another's. @param {NonNullable<Results['coldStarts']>} records */
  coldStarts(records) {
    this.#results.coldStarts = [...(this.#results.coldStarts ?? []), ...records];
    this.save();
  }

  /** --nest-benchmark. @param {NonNullable<Results['nestBenchmark']>} rows */
  nestBenchmark(rows) {
    this.#append('nestBenchmark', rows);
  }

  /** --prof: every pair's profile. @param {NonNullable<Results['profiles']>} profiles */
  profiles(profiles) {
    this.#results.profiles = profiles;
    this.save();
  }

  /** --prof on several runtimes: each profile against the runtime before it. @param {NonNullable<Results['profileDiffs']>} diffs */
  profileDiffs(diffs) {
    this.#results.profileDiffs = diffs;
    this.save();
  }

  /** What the verified pairs' answers differ in, once every runtime is verified. @param {Results['headerDifferences']} differences */
  headerDifferences(differences) {
    this.#results.headerDifferences = differences;
    this.save();
  }

  /** Every planned step ran. */
  completed() {
    this.#results.complete = true;
    this.#results.stopReason = null;
    this.save();
  }

  /** Why the run stops early (a signal, the bench's own failure); what it measured is kept. @param {string} reason */
  stopped(reason) {
    this.#results.stopReason = reason;
    this.save();
  }

  /** The run's end, whatever ended it. @param {Date} at */
  finished(at) {
    this.#results.finishedAt = at.toISOString();
    this.save();
  }
}
