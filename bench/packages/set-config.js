// @ts-check
// What a package set serves: the era app on both adapters (src/era/, compiled for old Node) and the bare frameworks
// at the set's versions, over node:http as the baseline; and the files copied into the set so they load its packages.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILTIN_CONFIG } from '../model/builtin-config.js';
import { DEFAULT_PORT_ENV } from '../model/config.js';
import { PROJECT_ROOT } from '../model/project-root.js';
import { BARE } from '../model/stacks.js';
import { requireBuiltInApp } from '../run/build.js';

/** @typedef {import('./sets.js').PackageSet} PackageSet */
/** @typedef {import('../model/config.js').Target} Target */

const SERVERS_DIR = fileURLToPath(new URL('./servers/', import.meta.url));
const ERA_TSCONFIG = 'tsconfig.era.json';
/** Where tsconfig.era.json puts the compiled era app. */
const ERA_BUILD_DIR = path.join(PROJECT_ROOT, '.packages', 'era-app');
/** The era app's routes: the two without I/O and the validated POST. */
export const SET_SCENARIOS = Object.freeze(['hello', 'json', 'orders']);
/** The app's DB routes, served where the set's TypeORM runs them (src/era/era-database.module.ts). */
export const DATABASE_SCENARIOS = Object.freeze(['products', 'product-by-id', 'queries', 'catalog', 'purchases']);
const RAW_SCENARIOS = ['hello', 'json'];
/** The compiled DB module as the set's folder requires it. */
export const ERA_DATABASE_MODULE = './app/era/era-database.module.js';
/** nest.cjs boots the era app with its DB routes when this is set. */
const DATABASE_ENV = 'ERA_DATABASE';

/**
 * The targets of a set, each a file in the set's folder run under the measured runtime. A Nest set has all five;
 * `express@X` and `fastify@X` have their framework and the baseline.
 * @param {import('./set-specs.js').SetKind} kind
 * @param {string} dir the set's folder
 * @param {boolean} database the Nest targets serve the DB routes too
 * @returns {Target[]}
 */
function setTargets(kind, dir, database) {
  /** @param {string} name @param {string} group @param {string} file @param {string[] | null} scenarios @param {Record<string, string>} [env] @returns {Target} */
  const target = (name, group, file, scenarios, env = {}) => ({
    name,
    group,
    scenarios,
    command: ['node', path.join('servers', file)],
    cwd: dir,
    env,
    portEnv: DEFAULT_PORT_ENV,
    url: null,
    stacks: [BARE],
  });
  const nestScenarios = database ? [...SET_SCENARIOS, ...DATABASE_SCENARIOS] : [...SET_SCENARIOS];
  /** @type {Record<string, string>} */
  const databaseEnv = database ? { [DATABASE_ENV]: '1' } : {};
  return [
    ...(kind === 'nest'
      ? [
          target('nest-express', 'nest', 'nest.cjs', nestScenarios, { NEST_ADAPTER: 'express', ...databaseEnv }),
          target('nest-fastify', 'nest', 'nest.cjs', nestScenarios, { NEST_ADAPTER: 'fastify', ...databaseEnv }),
        ]
      : []),
    target('raw-node', 'node', 'node.cjs', RAW_SCENARIOS),
    ...(kind !== 'fastify' ? [target('raw-express', 'raw', 'express.cjs', RAW_SCENARIOS)] : []),
    ...(kind !== 'express' ? [target('raw-fastify', 'raw', 'fastify.cjs', RAW_SCENARIOS)] : []),
  ];
}

/**
 * A set's config: the built-in setup's scenarios and comparisons over the set's own servers.
 * @param {import('./set-specs.js').SetKind} kind
 * @param {string} dir
 * @param {boolean} database whether the era app serves the DB routes on this cell
 * @returns {import('../model/config.js').Config}
 */
export function setConfig(kind, dir, database) {
  const served = database ? [...SET_SCENARIOS, ...DATABASE_SCENARIOS] : SET_SCENARIOS;
  return {
    ...BUILTIN_CONFIG,
    source: `package set in ${dir}`,
    targets: setTargets(kind, dir, database),
    scenarios: BUILTIN_CONFIG.scenarios.filter((scenario) => served.includes(scenario.name)),
    prepare: null,
  };
}

/** What --targets and --scenarios choose from with --packages: every target and route a set can have. */
export const SET_CONFIG_SHAPE = setConfig('nest', PROJECT_ROOT, true);

/**
 * Compiles the era app for old Node (tsconfig.era.json); the project's TypeScript, a couple of seconds.
 * @param {(line: string) => void} log
 */
export function buildEraApp(log) {
  requireBuiltInApp('--packages', 'add --nest-app to run your own app on the set');
  log(`packages: compiling the era app (src/era/) for old Node: tsc -p ${ERA_TSCONFIG}`);
  // the project's own TypeScript (a dev dependency: the era app is built in a clone only), run by this node: nothing
  // on PATH or in node_modules/.bin stands between
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-p', ERA_TSCONFIG], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  if (build.status !== 0)
    throw new Error(`tsc -p ${ERA_TSCONFIG} failed (exit code ${build.status}); fix the errors above`);
}

/**
 * Copies the servers (and for a Nest set the compiled era app) into the set's folder, where `require` finds the set's
 * packages and nothing of the project's. Done every run, so the set runs the servers of this checkout.
 * @param {PackageSet} set
 */
export async function stageServers(set) {
  await fs.cp(SERVERS_DIR, path.join(set.dir, 'servers'), { recursive: true });
  if (set.kind === 'nest') await fs.cp(ERA_BUILD_DIR, path.join(set.dir, 'app'), { recursive: true });
}
