// @ts-check
// What is measured: the targets (servers), the scenarios (requests) and the pair the verdict judges. The built-in
// setup and a user's --config file both pass through validateConfig (each field: config-fields.js), so the rest of
// the bench sees one shape.
import { readFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from '../errors.js';
import {
  checkMixRoutes,
  name,
  nonEmptyArray,
  object,
  pairList,
  targetPair,
  uniqueNames,
  validateScenario,
  validateTarget,
} from './config-fields.js';

/**
 * A server under test: either a command the bench starts (and measures for CPU and RSS, and profiles when it is node),
 * or the URL of one already running, here or on another host (measured for load only).
 * @typedef {object} Target
 * @property {string} name
 * @property {string} group targets of one group run back to back in every round (the compared pair)
 * @property {string[] | null} scenarios the scenarios it has routes for; null = all
 * @property {string[] | null} command argv; a leading "node" is replaced by the runtime under test (and takes --prof)
 * @property {string} cwd absolute
 * @property {Record<string, string>} env added to the command's environment
 * @property {string} portEnv the environment variable that tells the command its port
 * @property {string | null} url base URL of a running server, no trailing slash
 * @property {string[]} stacks the app stacks it can run with (bench/run/stacks.js: APP_STACK); ["bare"]: only as it is
 * @property {'http' | 'https' | 'h2' | 'h2c'} [protocol] what a started command target speaks (default http)
 *
 * @typedef {object} Scenario
 * @property {string} name
 * @property {string} description
 * @property {string} method
 * @property {string} path
 * @property {Record<string, string>} headers
 * @property {string} [body]
 * @property {boolean} needsToken sends `Authorization: Bearer <token>`, the token the config's prepare step minted
 * @property {number} status expected status
 * @property {RegExp} contentType expected content-type
 * @property {(body: string) => string | null} checkBody null when the body has the expected shape, else why not
 * @property {import('./mix.js').MixShare[] | null} mix a traffic mix: each run goes round these scenarios' requests
 *   in these shares (the route of each share is a scenario's name); method, path, body and expect are then theirs
 * @property {ScenarioLoad | null} load the scenario's own load; null: --connections and --duration
 * @property {import('./metrics.js').Metric} metric what its ratios divide: req/s, or CPU per request where the load
 *   is paced (model/metrics.js)
 *
 * A scenario's own load, which stands whatever --connections says: a 20 MiB upload at the connections of a hello run
 * answers nothing within a run, and a profile of idle connections is its connections.
 * @typedef {object} ScenarioLoad
 * @property {number | null} connections held at once; null: --connections
 * @property {number} durationSec the shortest run; a longer --duration stands
 * @property {number | null} requestsPerConnection the client closes each connection after this many requests (1: a
 *   new connection per request); null: connections are kept alive
 * @property {number | null} connectionRate requests per second on each connection, paced (mostly idle connections);
 *   null: each sends its next request once answered
 *
 * What a config's prepare step hands the run: environment for every command target, and a bearer token.
 * @typedef {{ env?: Record<string, string>, token?: string | null }} Prepared
 * @typedef {(context: { targets: string[], scenarios: string[], log: (line: string) => void }) =>
 *   Prepared | void | Promise<Prepared | void>} PrepareStep
 *
 * @typedef {object} Config
 * @property {string} source "built-in" or the config file's absolute path
 * @property {string} baseDir relative paths resolve against it, and results/ and profiles/ go under it by default
 * @property {Target[]} targets
 * @property {Scenario[]} scenarios
 * @property {[string, string]} compare numerator, denominator: the ratio the verdict judges
 * @property {[string, string][]} alsoCompare ratios shown beside the verdict, not judged
 * @property {[string, string][]} overhead a framework over the bare server it is built on: what the framework costs
 * @property {string | null} baseline every other target's req/s is also shown as a share of this one's
 * @property {PrepareStep | null} prepare runs once before any target starts (build, secrets)
 *
 * What results.json keeps of the config: enough to rebuild every report, and no environment or header values.
 * @typedef {object} ConfigRecord
 * @property {string} source
 * @property {Array<{ name: string, group: string, kind: 'command' | 'url', command?: string[], cwd?: string,
 *   url?: string, scenarios: string[] | null, stacks?: string[] }>} targets
 * @property {Array<{ name: string, description: string, method: string, path: string,
 *   mix?: import('./mix.js').MixShare[], load?: ScenarioLoad, metric: import('./metrics.js').Metric }>} scenarios
 *   metric: absent in results from before it was recorded, and filled in on read (results.js)
 * @property {[string, string]} compare
 * @property {[string, string][]} alsoCompare
 * @property {[string, string][]} overhead
 * @property {string | null} baseline
 */
/**
 * A recorded config's scenarios by name, resolved once where a stage reads them for every record.
 * @typedef {Map<string, ConfigRecord['scenarios'][number]>} ScenariosByName
 */

export const CONFIG_EXTENSIONS = ['.json', '.js', '.mjs'];
export { DEFAULT_PORT_ENV } from './config-fields.js';
const TOP_FIELDS = ['targets', 'scenarios', 'compare', 'alsoCompare', 'overhead', 'baseline', 'prepare'];
const TARGET_FIELDS = ['name', 'group', 'scenarios', 'command', 'cwd', 'env', 'portEnv', 'url', 'stacks', 'protocol'];

/**
 * Read a config file: JSON, or a JavaScript module whose default export is the config object.
 * @param {string} file as given on the command line
 * @returns {Promise<Config>}
 * @throws {UsageError} naming the file and, for a bad config, the field
 */
export async function loadConfig(file) {
  const path = resolve(file);
  return validateConfig(await readConfigObject(file), { source: path, baseDir: dirname(path) });
}

/**
 * A config file's object as written, before validation.
 * @param {string} file as given on the command line
 * @returns {Promise<unknown>}
 * @throws {UsageError} naming the file
 */
export async function readConfigObject(file) {
  const path = resolve(file);
  const extension = extname(path);
  if (!CONFIG_EXTENSIONS.includes(extension))
    throw new UsageError(`--config ${file}: use a ${CONFIG_EXTENSIONS.join(', ')} file`);
  let raw;
  if (extension === '.json') {
    let text;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new UsageError(`--config ${file}: cannot read it (${/** @type {NodeJS.ErrnoException} */ (error).code})`);
    }
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`${path}: not valid JSON: ${/** @type {Error} */ (error).message.split('\n')[0]}`);
    }
  } else {
    try {
      raw = (await import(pathToFileURL(path).href)).default;
    } catch (error) {
      throw new UsageError(`--config ${file}: cannot load it: ${/** @type {Error} */ (error).message.split('\n')[0]}`);
    }
  }
  return raw;
}

/**
 * @param {unknown} raw the config object as written
 * @param {{ source: string, baseDir: string }} where source names it in errors; relative cwd resolves against baseDir
 * @returns {Config}
 * @throws {UsageError} `<source>: <field>: <what is wrong>`
 */
export function validateConfig(raw, { source, baseDir }) {
  /** @param {string} field @param {string} problem */
  const fail = (field, problem) => {
    throw new UsageError(`${source}: ${field ? `${field}: ` : ''}${problem}`);
  };
  const config = object(raw, '', TOP_FIELDS, fail);

  const rawScenarios = nonEmptyArray(config.scenarios, 'scenarios', fail);
  const scenarios = rawScenarios.map((item, i) => validateScenario(item, `scenarios[${i}]`, fail));
  const scenarioNames = uniqueNames(scenarios, 'scenarios', fail);
  scenarios.forEach((scenario, i) => checkMixRoutes(scenario, scenarios, `scenarios[${i}].mix`, fail));

  const rawTargets = nonEmptyArray(config.targets, 'targets', fail);
  const declared = rawTargets.map((item, i) => object(item, `targets[${i}]`, TARGET_FIELDS, fail));
  const names = declared.map((item, i) => name(item.name, `targets[${i}].name`, fail));
  uniqueNames(
    names.map((n) => ({ name: n })),
    'targets',
    fail,
  );
  const targetName = (/** @type {unknown} */ value, /** @type {string} */ field) => {
    const text = name(value, field, fail);
    if (!names.includes(text)) fail(field, `no target is named "${text}"; targets: ${names.join(', ')}`);
    return text;
  };
  const compare = targetPair(config.compare, 'compare', targetName, fail);
  if (compare === null) fail('compare', 'missing; name the two targets the verdict compares: [numerator, denominator]');
  const targets = declared.map((item, i) =>
    validateTarget(item, `targets[${i}]`, {
      name: names[i],
      compared: /** @type {[string, string]} */ (compare).includes(names[i]),
      scenarioNames,
      baseDir,
      fail,
    }),
  );
  return {
    source,
    baseDir,
    targets,
    scenarios,
    compare: /** @type {[string, string]} */ (compare),
    alsoCompare: pairList(config.alsoCompare, 'alsoCompare', targetName, fail),
    overhead: pairList(config.overhead, 'overhead', targetName, fail),
    baseline: config.baseline === undefined ? null : targetName(config.baseline, 'baseline'),
    prepare:
      config.prepare === undefined
        ? null
        : typeof config.prepare === 'function'
          ? /** @type {PrepareStep} */ (config.prepare)
          : fail('prepare', 'must be a function (a .js config)'),
  };
}

/**
 * @param {Config} config @param {string} targetName
 * @returns {Target}
 */
export function targetNamed(config, targetName) {
  const target = config.targets.find((t) => t.name === targetName);
  if (!target) throw new Error(`unknown target "${targetName}"`);
  return target;
}

/**
 * @param {Config} config @param {string} scenarioName
 * @returns {Scenario}
 */
export function scenarioNamed(config, scenarioName) {
  const scenario = config.scenarios.find((s) => s.name === scenarioName);
  if (!scenario) throw new Error(`unknown scenario "${scenarioName}"`);
  return scenario;
}

/**
 * @param {Config} config
 * @returns {ConfigRecord}
 */
export function configRecord(config) {
  return {
    source: config.source,
    targets: config.targets.map((t) => ({
      name: t.name,
      group: t.group,
      kind: t.url === null ? 'command' : 'url',
      ...(t.url === null ? { command: t.command ?? [], cwd: t.cwd } : { url: t.url }),
      scenarios: t.scenarios,
      stacks: t.stacks,
    })),
    scenarios: config.scenarios.map(({ name: n, description, method, path, mix, load, metric }) => ({
      name: n,
      description,
      method,
      path,
      ...(mix ? { mix } : {}),
      ...(load ? { load } : {}),
      metric,
    })),
    compare: config.compare,
    alsoCompare: config.alsoCompare,
    overhead: config.overhead,
    baseline: config.baseline,
  };
}
