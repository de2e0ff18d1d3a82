// @ts-check
// What a run of the built-in app records of the committed reference runs it is placed among (results.referenceHosts):
// bench/bin/reference-hosts.js builds the index, analysis/host-placing.js reads it.

/**
 * One committed reference run's headline on one runtime.
 * @typedef {object} ReferenceHost
 * @property {string} run the run's folder, from the repository's root
 * @property {string} startedAt
 * @property {Omit<import('./records.js').CpuIdentity, 'caches'>} cpu
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} stack
 * @property {number} ratio
 * @property {{ low: number, high: number, level: number } | null} interval
 * @property {string} verdict
 */

export {};
