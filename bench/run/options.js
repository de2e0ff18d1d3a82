// @ts-check
// Every flag of `npm run bench`: defaults, validation with one-line messages, and the --help text.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { DRIVER_NAMES, FALLBACK_DRIVER, PREFERRED_DRIVER } from './drivers/registry.js';
import { UsageError } from '../errors.js';
import { SCENARIO_SETS } from '../model/beyond.js';
import { BUILTIN_CONFIG } from '../model/builtin-config.js';
import { FIRST_LOOK_STARTS, MAX_BUDGET_ROUNDS, MAX_STARTS, MIN_BUDGET_ROUNDS } from '../model/design.js';
import { PRODUCTION, PRODUCTION_PARTS, STACK_NAMES, withoutPart } from '../model/stacks.js';
import { MIN_STEADY_ROUNDS } from './designs/steady-block.js';

/** Each cold start costs a boot: past this a run takes longer than the answer needs. */
const MAX_COLD_STARTS = 200;

// Defaults, chosen so that the whole default run (16 pairs: hello, catalog and purchases on both stacks and both Nest
// adapters, and hello on the four raw servers) stays under 3 minutes on a 2-vCPU machine: many short paired rounds beat
// a few long ones, because a ratio taken within one round cancels the machine's slow drift, and the short bursts of
// slowness this VM has spoil single rounds that the median then ignores. How the rounds are spent: --budget below.
export const DEFAULT_CONNECTIONS = 50;
export const DEFAULT_DURATION_SEC = 0.25;
/** Even, so the rotation runs each pair in both orders equally often and an order effect cancels in the median. */
export const DEFAULT_ROUNDS = 12;
/**
 * Seconds per runtime from its first server start when neither --rounds nor --budget is given: with the runtime's
 * install check and the reports the default run stays within 3 minutes (docs/method.md, "Rounds under a time budget").
 */
export const DEFAULT_BUDGET_SEC = 150;
/**
 * Server starts under a budget unless --starts is given: the fewest whose t interval has a spread to go on, and what
 * the default run's three minutes hold (docs/method.md, "Starts as the unit").
 */
export const DEFAULT_STARTS = 3;
/**
 * Untimed load on the same target and route right before each timed run (--burst), so no timed run starts on a server
 * that sat idle through the rest of the round. Off by default only because it adds its length and a generator start
 * to every run, which the default run's three minutes have no room for: measured here it lowered the ratio of a
 * database route whose Express side is slow to warm, and left the others within noise (see the README).
 */
export const DEFAULT_BURST_SEC = 0;
/** @typedef {'together' | 'back-to-back'} Pairing */
/** @type {Pairing[]} */
const PAIRINGS = ['together', 'back-to-back'];
/** One request in flight per connection, as a browser or an HTTP client library sends them. */
export const DEFAULT_PIPELINING = 1;
/** Express needs a few seconds of traffic before its throughput settles; Fastify far less. */
export const DEFAULT_WARMUP_SEC = 1;
/** Targets listen on consecutive ports from here. */
export const DEFAULT_BASE_PORT = 3100;
/** --quick: a smoke test of every step, seconds in all; numbers from it prove nothing. */
export const QUICK = Object.freeze({ durationSec: 0.25, rounds: 2, warmupSec: 0.5, profileSec: 1 });
/**
 * A profiled run lasts at least this long: at V8's 1 ms sampling interval, ~5,000 ticks put each top-15 share within
 * about a percentage point, where one 0.5 s round would give a few hundred.
 */
export const MIN_PROFILE_SEC = 5;

/**
 * --load-curve's offered rates, as shares of the slower Nest adapter's capacity measured in the same run: from the
 * light load most services run at, to the knee of the latency curve.
 */
export const DEFAULT_LOAD_LEVELS = Object.freeze([0.1, 0.25, 0.5, 0.75, 0.9]);
/** The load curve compares these two, each scenario at the same offered rates. */
export const LOAD_CURVE_TARGETS = Object.freeze(['nest-express', 'nest-fastify']);
/**
 * The scenarios run by default when the production stack is measured: the three routes the production question turns
 * on (the cheapest route, a big compressible read, a write), on both stacks, fit the 3-minute default run; the other
 * scenarios run by default with --stack bare, or when named.
 */
export const DEFAULT_PRODUCTION_SCENARIOS = ['hello', 'catalog', 'purchases'];
/** --ablate's default scenarios: the cheapest route, where the middleware weigh most, and a big compressible read. */
export const DEFAULT_ABLATION_SCENARIOS = ['hello', 'catalog'];

/** Scenarios that run only when named, alone or through their set. */
const IN_SETS = new Set(Object.values(SCENARIO_SETS).flat());
const MAX_CONNECTIONS = 10_000;
const MAX_PIPELINING = 1000;
const MAX_RATE = 1_000_000;
const MAX_DURATION_SEC = 3600;
const MAX_ROUNDS = 1000;
const MAX_PORT = 65535;

/**
 * @typedef {object} Options
 * @property {string | null} configFile --config as given; null: the built-in setup
 * @property {string[]} targets in the config's order
 * @property {string[]} scenarios in the config's order
 * @property {string[]} stacks in the order of STACK_NAMES
 * @property {boolean} ablate also run the production stack without each of its parts in turn
 * @property {boolean} memoryReducer leave V8's memory reducer on in the servers (bench/run/steady-state.js)
 * @property {boolean} telemetry load the telemetry preload into the servers
 * @property {string | null} driver null: the preferred driver when installed, else the fallback
 * @property {number} connections
 * @property {number} durationSec per run
 * @property {number} rounds the fixed design's rounds, and the load curve's
 * @property {number | null} budgetSec seconds of timed rounds per runtime, spent on the scenarios still undecided;
 *   null: the fixed design, every pair runs `rounds` rounds
 * @property {number} starts server starts per run, each with its own warm-up and block of rounds; 1: every server
 *   starts once and all rounds measure that start
 * @property {number} [coldStarts] --cold-starts: starts of each compared server timed to its first answer, with its
 *   memory after boot; 0: none
 * @property {number} warmupSec per target and scenario, before the first round
 * @property {number} burstSec untimed load right before each timed run; 0: none
 * @property {Pairing} pairing how a start's compared pair shares its rounds (--starts)
 * @property {number} pipelining requests each connection sends before it waits for answers
 * @property {boolean} quick
 * @property {string | null} outDir null: results/<timestamp>
 * @property {{ server: string, generator: string } | null} cpus taskset CPU lists, or null when not pinned
 * @property {boolean} pinnedByDefault pinned without --pin or --cpus: without taskset the bench runs unpinned instead
 * @property {number} basePort
 * @property {string | null} runtime the --runtime text, resolved later by bench/runtimes.js
 * @property {string | null} packages the --packages text, resolved later by bench/packages/cells.js; null: the
 *   project's own installed packages
 * @property {boolean} nestBenchmark with --packages: also run Nest's own benchmark on each cell (wrk -t8 -c1024 -d10)
 * @property {boolean} prof profile every pair after the timed runs
 * @property {number} profileSec seconds of load per profiled run
 * @property {boolean} loadCurve after the saturation rounds, drive the Nest adapters at fixed offered rates
 * @property {number[] | null} rates --rates: absolute offered rates in req/s, ascending; null: DEFAULT_LOAD_LEVELS
 * @property {number | null} rate --rate: the one rate a switch is sized at (then also the only entry of rates)
 * @property {string[] | null} curveScenarios the scenarios the load curve drives; null: every measured one (--nest-app
 *   with a traffic mix and --rate: the mix alone, the rate being the app's)
 * @property {boolean} quiet print only the verdict: no progress, no notes on stderr
 * @property {boolean} json print the decision as JSON on stdout, and nothing else there
 * @property {boolean} help
 * @property {boolean} [fitLoads] --nest-app: each route measured at a load it answers (route-load.js) and drained after
 *   every load on it (recover.js); absent: every route at --connections and --duration
 */

const FLAGS = /** @type {const} */ ({
  config: { type: 'string' },
  targets: { type: 'string' },
  scenarios: { type: 'string' },
  stack: { type: 'string' },
  ablate: { type: 'boolean' },
  driver: { type: 'string' },
  connections: { type: 'string' },
  duration: { type: 'string' },
  rounds: { type: 'string' },
  budget: { type: 'string' },
  starts: { type: 'string' },
  'cold-starts': { type: 'string' },
  warmup: { type: 'string' },
  burst: { type: 'string' },
  pairing: { type: 'string' },
  pipelining: { type: 'string' },
  quick: { type: 'boolean' },
  out: { type: 'string' },
  pin: { type: 'boolean' },
  'no-pin': { type: 'boolean' },
  cpus: { type: 'string' },
  port: { type: 'string' },
  runtime: { type: 'string' },
  packages: { type: 'string' },
  'nest-benchmark': { type: 'boolean' },
  prof: { type: 'boolean' },
  'load-curve': { type: 'boolean' },
  'memory-reducer': { type: 'boolean' },
  'no-telemetry': { type: 'boolean' },
  rates: { type: 'string' },
  'nest-app': { type: 'string' },
  'nest-setup': { type: 'string' },
  'nest-cwd': { type: 'string' },
  'list-routes': { type: 'boolean' },
  params: { type: 'string' },
  traffic: { type: 'string' },
  body: { type: 'string', multiple: true },
  header: { type: 'string', multiple: true },
  'time-write': { type: 'string', multiple: true },
  'graphql-queries': { type: 'string' },
  rate: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
});

export const HELP = `Usage: npm run bench -- [flags]
       npx nest-adapter-bench --config bench.config.json [flags]   (from your own project, once installed)

Measures Nest on Express vs Nest on Fastify (and the bare frameworks) in paired, rotated rounds, then prints a verdict
on the docs' claim "Fastify is almost two times faster" and writes results.json, report.md and report.html.

  --config FILE        what to measure: a .json file, or a .js/.mjs module exporting the object (default: the
                       built-in setup below). Relative paths in it (a target's cwd) resolve against the file's own
                       directory, so it works from wherever it is run; see docs/own-app.md
  --nest-app FILE[#Export]  your compiled Nest module (e.g. dist/app.module.js; export default AppModule), booted
                       on Express and on Fastify by the bench's own launcher with your app's @nestjs packages; every
                       GET route Nest registered becomes a scenario, checked on both adapters before it is timed
  --nest-setup FILE    a module exporting configure(app): what your main.ts does (prefix, pipes, versioning, CORS)
  --nest-cwd DIR       with --nest-app: the servers' working directory (default: the app's root, the folder of
                       its package.json, where its .env is)
  --list-routes        with --nest-app: print the routes Nest registered, one a line, and exit
  --params LIST        with --nest-app: path parameter values, e.g. id=7,slug=intro, and ids a body names
                       (role.id=VALUE); without them, ids come from authenticate() and the app's list routes
  --traffic FILE       with --nest-app: a request log (pino JSON lines, or common/combined log format); the routes
                       it hits are measured as one mix in their logged shares, "traffic"; see docs/own-app.md
  --body 'M /path=JSON'  with --nest-app, repeatable: the body of one route where the one derived from its DTOs
                       will not do, e.g. --body 'POST /api/login={"email":"a@b.c","password":"pw"}' (=@FILE reads
                       a JSON file); {{unique}} in a string becomes a value unique per request
  --header 'N: V'      with --nest-app, repeatable: a header sent with every request, e.g. --header 'x-api-key: k1'
                       (for a sign-in, export authenticate(client) from --nest-setup instead; docs/own-app.md)
  --graphql-queries FILE  with --nest-app: the GraphQL operations to measure, named (query Books { ... }), each a
                       scenario checked to answer without errors on both adapters; variables from --params. Without
                       it, the schema's root queries whose required arguments --params fills
  --time-write 'M /path'  with --nest-app, repeatable: time a write that changes the signed-in account (DELETE
                       /auth/me, a password change), which is otherwise listed and left out; use an account you can lose
  --rate R             after the timed rounds, drive ${LOAD_CURVE_TARGETS.join(' and ')} open loop at R req/s on each
                       measured scenario (your traffic mix included): cores each adapter needs at R, with intervals,
                       the saving, p50/p99 and the instances each would need (a --load-curve at one rate)
  --targets LIST       comma-separated, default all: ${names(BUILTIN_CONFIG.targets)} (or the config's)
  --scenarios LIST     comma-separated, from: ${names(BUILTIN_CONFIG.scenarios.filter((s) => !IN_SETS.has(s.name)))} (or the config's);
                       default ${DEFAULT_PRODUCTION_SCENARIOS.join(',')} when the production stack is measured (to fit
                       3 minutes), ${DEFAULT_ABLATION_SCENARIOS.join(',')} with --ablate, all these with --stack bare.
                       beyond: bodies, uploads, static files, streams, connections, TLS and HTTP/2, never by default:
                       ${SCENARIO_SETS.beyond.join(',')}
  --stack LIST         the app's stacks: ${STACK_NAMES.join(',')} or both (default both; --ablate: ${PRODUCTION}). bare is
                       the app as nest new makes it; production adds helmet, CORS, gzip, a request log, request ids and
                       class-transformer serialization (APP_STACK). The raw servers run bare only
  --ablate             also run the production stack without one part at a time (${PRODUCTION_PARTS.join(', ')}):
                       what each costs per adapter, as a share of a request's server CPU
  --driver NAME        load generator: ${DRIVER_NAMES.join('|')}; default ${PREFERRED_DRIVER} when installed,
                       else ${FALLBACK_DRIVER} (with a notice)
  --connections N      concurrent keep-alive connections (default ${DEFAULT_CONNECTIONS})
  --duration S         seconds per run, decimals allowed (default ${DEFAULT_DURATION_SEC})
  --budget S           seconds per runtime from its first server start (default ${DEFAULT_BUDGET_SEC}), spent on server
                       starts while the next one fits (--starts). With --starts 1: every scenario gets ${MIN_BUDGET_ROUNDS} rounds, then
                       further rounds, two at a time (one in each order), go to the scenarios whose verdict is still
                       open, until each is decided, the budget is spent or it reached ${MAX_BUDGET_ROUNDS} rounds;
                       intervals are group-sequential, valid however early a scenario stops (docs/method.md)
  --rounds N           a fixed number of rounds instead of --budget; each runs every target x scenario once, order
                       rotated, with Hodges–Lehmann intervals (--load-curve: its rounds; default ${DEFAULT_ROUNDS})
  --starts N           start the servers afresh N times (boot order alternating); each start measures every scenario
                       in a block of alternating runs of its targets until their cost per request and young
                       generation reach a steady state (changepoints), and keeps the rounds from there on (with
                       --rounds, that many; else ${MIN_STEADY_ROUNDS}). Starts measure the compared pair, the first
                       scenario first; the targets beside it (bare frameworks, node:http) get one start after them if
                       the budget allows. Intervals take the start as their unit, and each row shows how its noise
                       splits between starts and rounds (default ${DEFAULT_STARTS} under --budget, 1 with --rounds or
                       --quick); under --budget starts, the N asked included, go on while the next one's first block
                       fits, up to ${MAX_STARTS}, a later start's block runs only while it fits, and from start
                       ${FIRST_LOOK_STARTS} (or the N asked) on, a block whose interval at 99.5 % decides stops (shown
                       at 98 %, the others at 97 %); --starts 1 keeps one start with per-round group-sequential
                       intervals (docs/method.md, "Starts as the unit")
  --cold-starts N      after each runtime's timed rounds, start each compared server N times more (order
                       alternating), timed from process start to its first answer, with RSS and heap after boot
                       (default 0: none; docs/method.md, "Cold start and memory")
  --warmup S           seconds of load per target x scenario before the first round (default ${DEFAULT_WARMUP_SEC})
  --burst S            seconds of untimed load on the same target and route right before each timed run, so none
                       starts on a server that sat idle, e.g. 0.2 (default ${DEFAULT_BURST_SEC}: none)
  --pairing WAY        how the compared pair of a start's block runs its rounds: together (both loaded at once, the
                       server CPU shared, so the host's slow and fast moments hit both alike; the default) or
                       back-to-back (each loaded alone in turn); the targets beside the verdict always run
                       back-to-back (docs/method.md, "Both servers of a pair loaded together")
  --pipelining N       requests each connection sends before waiting for the answers (default ${DEFAULT_PIPELINING});
                       10 with --connections 100 is the setup of the published numbers (wrk, autocannon; not ab)
  --quick              smoke test: --duration ${QUICK.durationSec} --rounds ${QUICK.rounds} --warmup ${QUICK.warmupSec} unless given; numbers mean nothing
  --out DIR            where results go (default results/<timestamp> beside the --config file, else in this repository)
  --pin                pin servers and generator to different CPUs with taskset (servers: all but the last CPU);
                       the default wherever there are 2 CPUs or more
  --no-pin             let the scheduler place servers and generator
  --cpus S:G           pin with explicit taskset CPU lists, e.g. 0:1 or 0-2:3 (implies --pin)
  --port N             first of the consecutive ports the targets listen on (default ${DEFAULT_BASE_PORT})
  --runtime LIST       runtimes to run every target under, comma-separated, e.g. supported,bun: node (the node
                       running this), node@24, node@24.11.1, lts (the active LTS line), supported (every Node line
                       not past end of life today), node@20..26 (the newest release of each major, odd ones
                       included), bun, bun@1.3, deno, deno@2.9. Default: the node running this, or lts when its
                       line is end of life
  --packages LIST      package sets to run the era app (src/era/: hello, json, orders, and the DB routes where the
                       set's TypeORM runs them) and the bare frameworks on, each installed from npm into .packages/
                       on first use: nest@10 (that major's newest @nestjs/* with the Express and Fastify they depend
                       on), nest@10.4.22, express@4.21.2, fastify@4; each under every --runtime, or under its own
                       with nest@7/node@12. Aliases: eras (each Nest major on the Node line of its day, 5 to 12),
                       split (Nest 10 and 12 on Node 22 and 24); docs/packages.md
  --nest-benchmark     with --packages: also run Nest's own benchmark (benchmarks/run.sh in nestjs/nest: GET /, wrk -t8
                       -c1024 -d10, once per server) on every cell
  --prof               after the timed runs, profile every target x scenario (separate runs, never timed), each
                       for the longer of --duration and ${MIN_PROFILE_SEC} s (${QUICK.profileSec} s with --quick); with several
                       runtimes, also differential profiles of each against the one before it (npm run profile:diff)
  --load-curve         after the timed rounds, drive ${LOAD_CURVE_TARGETS.join(' and ')} at the same fixed offered rates
                       (open loop) per scenario: ${DEFAULT_LOAD_LEVELS.map((level) => level * 100).join(', ')} % of the slower one's capacity in this run;
                       --rounds paired rounds of --duration each, over --connections connections
  --memory-reducer     leave V8's memory reducer on in the servers; off by default, as about 100 s after start it
                       shrinks a bare server's young generation, a step partway through the run (docs/method.md)
  --no-telemetry       start the servers without the telemetry preload (GC, heap, event loop; bench/run/telemetry/),
                       to see what it costs (docs/method.md)
  --rates LIST         the load curve's offered rates in req/s instead, e.g. 500,1000,2000 (implies --load-curve)
  -q, --quiet          print only the verdict table (errors still go to stderr)
  --json               print the decision as JSON on stdout (each row's ratio, interval, verdict; the files written)
                       and nothing else there; progress and notes stay on stderr
  -h, --help           this text

Environment: DATABASE_URL=mysql://user:pass@host:port/db is passed to the Nest targets (default: embedded SQLite).
Exit codes: 0 compared, 1 a timed run or its verification failed, 2 bad input (one line says which), 3 nothing
compared (an adapter or the app did not boot, no pair measured), 130 interrupted. Whatever the code, results.json,
report.md and report.html are written (partial results kept), the reason first.`;

/** @param {{ name: string }[]} items */
function names(items) {
  return items.map((item) => item.name).join(',');
}

/**
 * The --config value alone, read before the config it names is loaded (the other flags are checked against it).
 * @param {string[]} argv
 * @returns {string | null}
 */
export function configFlag(argv) {
  const value = readFlags(argv).config;
  return value === undefined ? null : parseNonEmpty('--config', value);
}

/**
 * --nest-app and the flags that go with it, read before the config they produce exists.
 * @param {string[]} argv
 * @returns {import('../own-app/own-app.js').NestAppFlags | null} null without --nest-app
 */
export function nestAppFlags(argv) {
  const values = readFlags(argv);
  if (values['nest-app'] === undefined) {
    const stray = /** @type {const} */ ([
      'nest-setup',
      'nest-cwd',
      'list-routes',
      'params',
      'traffic',
      'body',
      'header',
      'time-write',
      'graphql-queries',
    ]).find((flag) => values[flag] !== undefined);
    if (stray) throw new UsageError(`--${stray} goes with --nest-app FILE; see --help`);
    return null;
  }
  return {
    module: parseNonEmpty('--nest-app', values['nest-app']),
    setup: values['nest-setup'] === undefined ? null : parseNonEmpty('--nest-setup', values['nest-setup']),
    cwd: values['nest-cwd'] === undefined ? null : parseNonEmpty('--nest-cwd', values['nest-cwd']),
    listRoutes: values['list-routes'] ?? false,
    params: values.params === undefined ? {} : parseParams(values.params),
    traffic: values.traffic === undefined ? null : parseNonEmpty('--traffic', values.traffic),
    bodies: (values.body ?? []).map(parseBody),
    headers: Object.fromEntries((values.header ?? []).map(parseHeader)),
    timeWrites: (values['time-write'] ?? []).map(parseRouteLine),
    graphqlQueries:
      values['graphql-queries'] === undefined ? null : parseNonEmpty('--graphql-queries', values['graphql-queries']),
  };
}

/**
 * --body `METHOD /path=JSON` or `METHOD /path=@file.json`.
 * @param {string} text
 * @returns {import('../own-app/app-config.js').BodyOverride}
 */
function parseBody(text) {
  const match = /^\s*([A-Za-z]+)\s+(\/\S*?)=(.*)$/s.exec(text);
  if (!match)
    throw new UsageError(`--body: "${text}" is not METHOD /path=JSON; e.g. --body 'POST /api/users={"name":"a"}'`);
  const [, method, url, given] = match;
  let json = given;
  if (given.startsWith('@')) {
    try {
      json = readFileSync(given.slice(1), 'utf8');
    } catch (error) {
      throw new UsageError(
        `--body ${method} ${url}: cannot read ${given.slice(1)}: ${/** @type {Error} */ (error).message}`,
      );
    }
  }
  try {
    return { method: method.toUpperCase(), url, value: JSON.parse(json) };
  } catch (error) {
    throw new UsageError(`--body ${method} ${url}: not JSON: ${/** @type {Error} */ (error).message}`);
  }
}

/** @param {string} text `METHOD /path` as --list-routes prints it */
function parseRouteLine(text) {
  const match = /^\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(text);
  if (!match)
    throw new UsageError(`--time-write: "${text}" is not METHOD /path; e.g. --time-write 'DELETE /api/auth/me'`);
  return `${match[1].toUpperCase()} ${match[2]}`;
}

/** @param {string} text `name: value` @returns {[string, string]} */
function parseHeader(text) {
  const match = /^\s*([!#$%&'*+.^_`|~\w-]+)\s*:\s*(.*)$/.exec(text);
  if (!match) throw new UsageError(`--header: "${text}" is not "name: value"; e.g. --header 'x-api-key: k1'`);
  return [match[1].toLowerCase(), match[2].trim()];
}

/** @param {string} text `name=value,...` */
function parseParams(text) {
  return Object.fromEntries(
    text.split(',').map((item) => {
      const match = /^\s*([A-Za-z_$][\w$.[\]]*)=(.+)$/.exec(item);
      if (!match) throw new UsageError(`--params: "${item}" is not name=value; e.g. --params id=7,slug=intro`);
      return [match[1], match[2].trim()];
    }),
  );
}

/** @param {string[]} argv */
function readFlags(argv) {
  try {
    return parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(describeParseError(/** @type {NodeJS.ErrnoException} */ (error)));
  }
}

/**
 * @param {string[]} argv arguments after the script name
 * @param {import('../model/config.js').Config} [config] what --targets and --scenarios choose from
 * @returns {Options}
 * @throws {UsageError} naming the bad flag or value
 */
export function parseOptions(argv, config = BUILTIN_CONFIG) {
  const values = readFlags(argv);
  const targetNames = config.targets.map((t) => t.name);
  const scenarioNames = config.scenarios.map((s) => s.name);
  const quick = values.quick ?? false;
  const ablate = values.ablate ?? false;
  const stacks = parseStacks(values.stack, ablate, config);
  const durationSec =
    values.duration === undefined
      ? quick
        ? QUICK.durationSec
        : DEFAULT_DURATION_SEC
      : parseSeconds('--duration', values.duration, false);
  const cpus = parsePinning(values);
  const pipelining =
    values.pipelining === undefined
      ? DEFAULT_PIPELINING
      : parseInteger('--pipelining', values.pipelining, 1, MAX_PIPELINING);
  if (pipelining > 1 && values.driver === 'ab')
    throw new UsageError('--pipelining: ab cannot pipeline requests; use --driver wrk or --driver autocannon');
  const targets = parseList('--targets', values.targets, targetNames);
  const budgetSec = parseBudget(values, quick);
  return {
    configFile: values.config === undefined ? null : parseNonEmpty('--config', values.config),
    targets,
    scenarios: parseList(
      '--scenarios',
      expandSets(
        values.scenarios ??
          defaultScenarios(
            stacks,
            ablate,
            scenarioNames.filter((name) => !IN_SETS.has(name)),
          ),
      ),
      scenarioNames,
    ),
    stacks,
    ablate,
    memoryReducer: values['memory-reducer'] ?? false,
    telemetry: !values['no-telemetry'],
    driver: values.driver === undefined ? null : parseChoice('--driver', values.driver, DRIVER_NAMES),
    connections:
      values.connections === undefined
        ? DEFAULT_CONNECTIONS
        : parseInteger('--connections', values.connections, 1, MAX_CONNECTIONS),
    durationSec,
    rounds:
      values.rounds === undefined
        ? quick
          ? QUICK.rounds
          : DEFAULT_ROUNDS
        : parseInteger('--rounds', values.rounds, 1, MAX_ROUNDS),
    budgetSec,
    starts:
      values.starts === undefined
        ? budgetSec === null
          ? 1
          : DEFAULT_STARTS
        : parseInteger('--starts', values.starts, 1, MAX_STARTS),
    coldStarts:
      values['cold-starts'] === undefined
        ? 0
        : parseInteger('--cold-starts', values['cold-starts'], 0, MAX_COLD_STARTS),
    warmupSec:
      values.warmup === undefined
        ? quick
          ? QUICK.warmupSec
          : DEFAULT_WARMUP_SEC
        : parseSeconds('--warmup', values.warmup, true),
    burstSec: values.burst === undefined ? DEFAULT_BURST_SEC : parseSeconds('--burst', values.burst, true),
    pairing:
      values.pairing === undefined
        ? 'together'
        : /** @type {Pairing} */ (parseChoice('--pairing', values.pairing, PAIRINGS)),
    pipelining,
    quick,
    outDir: values.out === undefined ? null : parseNonEmpty('--out', values.out),
    cpus,
    pinnedByDefault: cpus !== null && !values.pin && values.cpus === undefined,
    basePort:
      values.port === undefined
        ? DEFAULT_BASE_PORT
        : parseInteger(
            '--port',
            values.port,
            1,
            MAX_PORT - targetNames.length * (STACK_NAMES.length + PRODUCTION_PARTS.length),
          ),
    runtime: values.runtime === undefined ? null : parseNonEmpty('--runtime', values.runtime),
    ...parsePackages(values),
    prof: values.prof ?? false,
    profileSec: quick ? QUICK.profileSec : Math.max(durationSec, MIN_PROFILE_SEC),
    ...parseLoadCurve(values, targets),
    quiet: values.quiet ?? false,
    json: values.json ?? false,
    help: values.help ?? false,
  };
}

/**
 * --packages and what goes with it.
 * @param {{ packages?: string, 'nest-benchmark'?: boolean, config?: string, 'nest-app'?: string, prof?: boolean }} values
 * @returns {Pick<Options, 'packages' | 'nestBenchmark'>}
 */
function parsePackages(values) {
  if (values.packages === undefined) {
    if (values['nest-benchmark']) throw new UsageError('--nest-benchmark runs on package sets; add --packages');
    return { packages: null, nestBenchmark: false };
  }
  if (values.config !== undefined && values['nest-app'] === undefined)
    throw new UsageError('--packages runs the era app on each set; --config measures other servers: give one');
  if (values.prof) throw new UsageError('--prof profiles one set of servers per runtime; run it without --packages');
  return { packages: parseNonEmpty('--packages', values.packages), nestBenchmark: values['nest-benchmark'] ?? false };
}

/**
 * --packages alone, read before the options are checked against what the sets serve.
 * @param {string[]} argv
 */
export function packagesFlag(argv) {
  return readFlags(argv).packages !== undefined;
}

/**
 * --budget, or the default budget unless --rounds or --quick fixes the rounds.
 * @param {{ budget?: string, rounds?: string }} values @param {boolean} quick
 * @returns {number | null}
 */
function parseBudget(values, quick) {
  if (values.budget === undefined) return values.rounds !== undefined || quick ? null : DEFAULT_BUDGET_SEC;
  if (values.rounds !== undefined)
    throw new UsageError(
      '--budget and --rounds are two designs: give --budget S (rounds where undecided) or --rounds N',
    );
  if (quick) throw new UsageError('--budget: --quick runs a fixed 2 rounds; give one of them');
  return parseSeconds('--budget', values.budget, false);
}

/**
 * @param {{ 'load-curve'?: boolean, rates?: string, rate?: string }} values @param {string[]} targets
 * @returns {Pick<Options, 'loadCurve' | 'rates' | 'rate' | 'curveScenarios'>}
 */
function parseLoadCurve(values, targets) {
  if (values.rate !== undefined && (values.rates !== undefined || values['load-curve']))
    throw new UsageError(
      `--rate sizes a switch at one rate; ${values.rates !== undefined ? '--rates' : '--load-curve'} draws a curve: give one of them`,
    );
  const rate = values.rate === undefined ? null : parseRates(values.rate, '--rate')[0];
  const rates = rate !== null ? [rate] : values.rates === undefined ? null : parseRates(values.rates, '--rates');
  const loadCurve = Boolean(values['load-curve']) || rates !== null;
  const missing = LOAD_CURVE_TARGETS.filter((name) => !targets.includes(name));
  if (loadCurve && missing.length) {
    throw new UsageError(
      `${values['load-curve'] ? '--load-curve' : rate !== null ? '--rate' : '--rates'} compares ${LOAD_CURVE_TARGETS.join(' and ')}; add ${missing.join(' and ')} to --targets`,
    );
  }
  return { loadCurve, rates, rate, curveScenarios: null };
}

/** @param {string} text @param {'--rates' | '--rate'} flag @returns {number[]} ascending, each once */
function parseRates(text, flag) {
  const items = flag === '--rate' ? [text] : text.split(',');
  const rates = items.map((item) => {
    const value = /^\d+(\.\d+)?$/.test(item.trim()) ? Number(item) : NaN;
    if (!(value > 0 && value <= MAX_RATE))
      throw new UsageError(
        `${flag}: "${item}" is not a rate in req/s above 0 and up to ${MAX_RATE}; e.g. ${flag === '--rate' ? '--rate 300' : '--rates 500,1000,2000'}`,
      );
    return value;
  });
  return [...new Set(rates)].sort((a, b) => a - b);
}

/**
 * --stack: the stacks to measure. By default every stack some target of the config can run (the built-in Nest app:
 * both); with --ablate, production, which the ablation takes parts out of.
 * @param {string | undefined} text @param {boolean} ablate @param {import('../model/config.js').Config} config
 */
function parseStacks(text, ablate, config) {
  const runnable = STACK_NAMES.filter((stack) => config.targets.some((t) => t.stacks.includes(stack)));
  const stacks = parseList('--stack', text ?? (ablate ? PRODUCTION : runnable.join(',')), STACK_NAMES);
  if (ablate && !stacks.includes(PRODUCTION))
    throw new UsageError(`--ablate takes parts out of the ${PRODUCTION} stack; add ${PRODUCTION} to --stack`);
  return stacks;
}

/**
 * A --scenarios list with each set's name replaced by its scenarios.
 * @param {string} text
 */
function expandSets(text) {
  return text
    .split(',')
    .flatMap((name) => SCENARIO_SETS[/** @type {keyof typeof SCENARIO_SETS} */ (name.trim())] ?? [name])
    .join(',');
}

/**
 * The default --scenarios for the stacks measured, as a comma list; names the config lacks are left out.
 * @param {string[]} stacks @param {boolean} ablate @param {string[]} known
 */
function defaultScenarios(stacks, ablate, known) {
  const preferred = ablate
    ? DEFAULT_ABLATION_SCENARIOS
    : stacks.includes(PRODUCTION)
      ? DEFAULT_PRODUCTION_SCENARIOS
      : known;
  const chosen = known.filter((name) => preferred.includes(name));
  return (chosen.length ? chosen : known).join(',');
}

/**
 * The stacks (and, with --ablate, the production stack's variants) the run measures each scenario on.
 * @param {Pick<Options, 'stacks' | 'ablate'>} options
 * @returns {{ stack: string }[]}
 */
export function stackPlan({ stacks, ablate }) {
  return [
    ...stacks.map((stack) => ({ stack })),
    ...(ablate ? PRODUCTION_PARTS.map((part) => ({ stack: withoutPart(part) })) : []),
  ];
}

/**
 * node:util's messages, cut to one line that names the flag.
 * @param {NodeJS.ErrnoException} error
 */
function describeParseError(error) {
  const flag = /'(?:-\w, )?(--?[^' ]+)/.exec(error.message)?.[1] ?? '';
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown flag ${flag}; see --help`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/argument missing/.test(error.message)) return `${flag} needs a value; see --help`;
      if (/ambiguous/.test(error.message))
        return `${flag} needs a value; write one that starts with "-" as ${flag}=VALUE`;
      return `${flag} takes no value; see --help`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${/'([^']*)'/.exec(error.message)?.[1] ?? ''}; flags start with --; see --help`;
    default:
      return error.message.split('\n')[0];
  }
}

/** @param {string} flag @param {string} text */
function parseNonEmpty(flag, text) {
  if (text.trim() === '') throw new UsageError(`${flag} needs a value; see --help`);
  return text;
}

/**
 * @param {string} flag @param {string | undefined} text @param {string[]} known
 * @returns {string[]} the chosen names in the order of `known`
 */
function parseList(flag, text, known) {
  if (text === undefined) return [...known];
  const names = text.split(',').map((name) => name.trim());
  const unknown = names.find((name) => !known.includes(name));
  if (unknown !== undefined) {
    throw new UsageError(
      `${flag}: ${unknown === '' ? 'empty name' : `unknown name "${unknown}"`}; use a comma-separated subset of ${known.join(',')}`,
    );
  }
  return known.filter((name) => names.includes(name));
}

/** @param {string} flag @param {string} text @param {string[]} choices */
function parseChoice(flag, text, choices) {
  if (!choices.includes(text))
    throw new UsageError(`${flag}: unknown value "${text}"; use one of ${choices.join(', ')}`);
  return text;
}

/** @param {string} flag @param {string} text @param {number} min @param {number} max */
function parseInteger(flag, text, min, max) {
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max))
    throw new UsageError(`${flag}: "${text}" is not a whole number from ${min} to ${max}`);
  return value;
}

/** @param {string} flag @param {string} text @param {boolean} zeroAllowed */
function parseSeconds(flag, text, zeroAllowed) {
  const value = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (!(value <= MAX_DURATION_SEC && (zeroAllowed ? value >= 0 : value > 0))) {
    throw new UsageError(
      `${flag}: "${text}" is not a number of seconds ${zeroAllowed ? 'from 0' : 'above 0'} to ${MAX_DURATION_SEC}`,
    );
  }
  return value;
}

const CPU_LIST = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;

/** @param {string} text */
function parseCpus(text) {
  const [server, generator, ...rest] = text.split(':');
  if (rest.length || !CPU_LIST.test(server ?? '') || !CPU_LIST.test(generator ?? '')) {
    throw new UsageError(`--cpus: "${text}" is not SERVER:GENERATOR taskset CPU lists, e.g. 0:1 or 0-2:3`);
  }
  const count = availableParallelism();
  const serverCpus = expandCpuList(server);
  const generatorCpus = expandCpuList(generator);
  const missing = [...serverCpus, ...generatorCpus].find((cpu) => cpu >= count);
  if (missing !== undefined)
    throw new UsageError(`--cpus: CPU ${missing} does not exist; this machine has CPUs 0-${count - 1}`);
  if (serverCpus.some((cpu) => generatorCpus.includes(cpu)))
    throw new UsageError(`--cpus: "${text}" gives server and generator the same CPU`);
  return { server, generator };
}

/** @param {string} list */
function expandCpuList(list) {
  return list.split(',').flatMap((part) => {
    const [from, to = from] = part.split('-').map(Number);
    // taskset refuses a backwards range only once a server is starting: say it here, as a flag error
    if (from > to) throw new UsageError(`--cpus: range "${part}" runs backwards; write it low-high, e.g. 0-2:3`);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

/**
 * Pinned wherever the machine allows: every server then runs on the same CPU, so the two halves of a pair meet the same
 * (virtual) hardware. Unpinned on a 2-vCPU VM here, the scheduler moved servers and generator between vCPUs that the
 * host slowed at different moments: the Express and Fastify hello runs of a round barely correlated (r 0.05–0.33) and
 * the hello interval was ±14–26 %; pinned, r was 0.63–0.93 in six of eight runs and the interval ±2.9–14.3 % (see the
 * README's calibration).
 * @param {{ pin?: boolean, 'no-pin'?: boolean, cpus?: string }} values
 */
function parsePinning(values) {
  if (values['no-pin'] && (values.pin || values.cpus !== undefined))
    throw new UsageError(`--no-pin contradicts ${values.pin ? '--pin' : '--cpus'}; give one`);
  if (values.cpus !== undefined) return parseCpus(values.cpus);
  if (values['no-pin']) return null;
  if (!values.pin && availableParallelism() < 2) return null;
  return defaultCpus();
}

function defaultCpus() {
  const count = availableParallelism();
  if (count < 2) throw new UsageError(`--pin: this machine has ${count} CPU; pinning needs at least 2`);
  const last = count - 1;
  return { server: last === 1 ? '0' : `0-${last - 1}`, generator: String(last) };
}
