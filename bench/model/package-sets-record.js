// @ts-check
// What results.json keeps of a --packages run (results.packages, results.nestBenchmark), shape only: each set as
// installed, each cell, and Nest's own benchmark beside ours; packages/ fills it, analysis/ and report/ read it.

export {};

/** @typedef {'nest' | 'express' | 'fastify'} SetKind */
/**
 * An installed set: `versions` as installed (the anchors and what they brought: express, fastify, class-validator...),
 * `engines` each installed package's `engines.node` that has one.
 * @typedef {object} PackageSet
 * @property {string} spec as given, `nest@10`
 * @property {SetKind} kind
 * @property {string} label `nest@10.4.9`: the set in every record
 * @property {string} dir absolute: its node_modules, and the servers copied beside them
 * @property {Record<string, string>} versions
 * @property {Record<string, string>} engines
 * @property {SetDatabase} [database] a Nest set's DB packages; absent in sets installed before the era app had DB routes
 */
/**
 * The app's DB code on a Nest set: the TypeORM packages and drivers as installed, each one's `engines.node`, or why
 * the set has none (`refused`, with `versions` and `engines` empty).
 * @typedef {{ versions: Record<string, string>, engines: Record<string, string>, refused: string | null }} SetDatabase
 */
/**
 * @typedef {object} PackagesRecord
 * @property {string} requested the --packages text
 * @property {Array<Omit<PackageSet, 'dir'>>} sets
 * @property {Array<{ key: string, runtime: string, set: string, telemetryMissing: string | null,
 *   databaseMissing?: string | null, alias?: string, appVersions?: Record<string, string> }>} cells in run order;
 *   databaseMissing: why the era app served no DB routes there (absent in runs before it had them); alias: the
 *   --packages alias that made the cell; appVersions: --nest-app, the packages the user's app ran on there
 * @property {Array<{ key: string, reason: string }>} [refused] --nest-app: the cells the user's app could not run on
 */
/**
 * @typedef {object} NestBenchmarkRow
 * @property {string} cell the cell's key
 * @property {string} server all_output.txt's name for it
 * @property {string} target ours
 * @property {number | null} rps wrk's Requests/sec; null when the run failed
 * @property {string | null} socketErrors wrk's "Socket errors" line, when it printed one
 * @property {string | null} failure why there is no number
 */
