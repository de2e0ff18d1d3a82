// @ts-check
// What a run resolves once about the user's app, from its flags: the module or main and its packages, its routes, what
// main does that Fastify cannot take (--nest-main), the scan, the sign-in, --config, --traffic and --graphql-queries.
import { dirname } from 'node:path';
import { UsageError } from '../../errors.js';
import { readConfigObject } from '../../model/config.js';
import { userScenarios } from '../routes/app-config.js';
import { authenticateExport, loadSetup } from '../sign-in/authenticate.js';
import { discoverRoutes } from '../routes/discover.js';
import { readOperations } from '../graphql/graphql-operations.js';
import { signInFromFlag } from '../sign-in/sign-in-flag.js';
import { adapterChoices, resolveNestApp, resolveNestMain } from '../launch/packages.js';
import { fastifySkips, withSkippedCalls } from '../launch/main-boot.js';
import { readTraffic } from '../routes/traffic.js';
import { scanApp } from '../scan/scan.js';
import { resolveBaseline } from './baseline.js';

/**
 * @typedef {object} NestAppFlags
 * @property {string} module --nest-app, or --nest-main's file
 * @property {boolean} [main] --nest-main: module is the app's own compiled main, which the servers run
 * @property {Record<string, unknown> | null} [fastifyOptions] --fastify-options
 * @property {boolean} [strict] --strict: a call of main's Fastify cannot take stops Fastify's boot
 * @property {string | null} setup --nest-setup
 * @property {string | null} [cwd] --nest-cwd
 * @property {boolean} listRoutes
 * @property {Record<string, string>} params --params
 * @property {string | null} traffic --traffic
 * @property {import('../routes/app-config.js').BodyOverride[]} bodies --body
 * @property {Record<string, string>} headers --header
 * @property {string[]} [timeWrites] --time-write: writes to time though they change the signed-in account
 * @property {import('../sign-in/sign-in-flag.js').SignInFlag | null} [signIn] --sign-in: the password sign-in's request
 * @property {string | null} [graphqlQueries] --graphql-queries: a .graphql file of the operations to measure
 * @property {boolean} [keepThrottle] --keep-throttle: time the app's throttler as it is, not lifted
 * @property {string | null} [baseline] --baseline: the folder of the base build, timed beside this one on one adapter
 */

/**
 * What a run resolves once about the app, from its flags: every later step is given this object.
 * @typedef {object} OwnAppContext
 * @property {NestAppFlags} flags
 * @property {import('../launch/packages.js').NestApp} app
 * @property {import('../launch/packages.js').NestApp | null} baseline --baseline's build: with it the run times the app
 *   as written against it, not Fastify against Express
 * @property {import('../routes/discover.js').Discovered} discovered
 * @property {{ scenarios: Record<string, unknown>[], prepare: import('../../model/config.js').PrepareStep | null }} user
 *   a --config file's scenarios and prepare step
 * @property {import('../routes/traffic.js').TrafficLog | null} traffic
 * @property {((client: import('../sign-in/authenticate.js').AppClient) => unknown) | null} authenticate --sign-in's,
 *   or the setup module's
 * @property {string | null} signInSource what signs in, as messages name it: `--sign-in POST /login`, the setup file
 * @property {Record<string, string>} adapters adapterChoices()
 * @property {import('../graphql/graphql-operations.js').GraphqlOperation[]} fileOperations --graphql-queries
 * @property {import('../scan/scan.js').ScanRecord} scan
 * @property {import('../launch/main-factory.js').SkippedCall[]} skipped --nest-main: main's calls Fastify cannot take
 * @property {string} baseDir results go under it
 */

/**
 * @param {NestAppFlags} flags @param {string | null} configFile
 * @returns {Promise<OwnAppContext>}
 */
export async function ownAppContext(flags, configFile) {
  const app = {
    ...(flags.main
      ? resolveNestMain(flags.module, flags.setup, flags.cwd ?? null)
      : resolveNestApp(flags.module, flags.setup, flags.cwd ?? null)),
    fastifyOptions: flags.fastifyOptions ?? null,
    strict: flags.strict ?? false,
  };
  const baseline = flags.baseline ? resolveBaseline(app, flags.baseline) : null;
  const discovered = await discoverRoutes(app);
  // with --strict the first of them stops Fastify's boot, and the check reports it
  const skipped = app.mainFile && !app.strict ? await fastifySkips(app) : [];
  const user =
    configFile === null
      ? { scenarios: [], prepare: null }
      : userScenarios(await readConfigObject(configFile), configFile);
  const traffic = flags.traffic === null ? null : readTraffic(flags.traffic);
  const setup = await loadSetup(app.setupFile, app.cwd);
  const fromSetup = authenticateExport(setup, app.setupFile);
  const { authenticate, source: signInSource } = signInFromFlag(flags.signIn ?? null, discovered, {
    authenticate: fromSetup,
    source: app.setupFile,
  });
  const adapters = {
    ...adapterChoices(setup),
    ...(flags.fastifyOptions ? { fastify: `--fastify-options ${JSON.stringify(flags.fastifyOptions)}` } : {}),
  };
  if (flags.graphqlQueries && !discovered.graphql)
    throw new UsageError(
      `--graphql-queries: ${app.moduleFile} serves no GraphQL (no GraphQLModule from @nestjs/graphql)`,
    );
  const fileOperations = flags.graphqlQueries ? readOperations(flags.graphqlQueries, app.moduleFile) : [];
  const scan = withSkippedCalls(await scanApp(app), skipped);
  const baseDir = configFile === null ? process.cwd() : dirname(configFile);
  return {
    flags,
    app,
    baseline,
    discovered,
    user,
    traffic,
    authenticate,
    signInSource,
    adapters,
    fileOperations,
    scan,
    skipped,
    baseDir,
  };
}
