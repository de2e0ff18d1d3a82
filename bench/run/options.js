// @ts-check
// Every flag of `npm run bench`: parsed once, checked with one-line messages, defaults filled in; the names that a
// config resolves (--targets, --scenarios, --stack) are checked against it once it is known.
import { parseArgs } from 'node:util';
import { DRIVER_NAMES } from './drivers/registry.js';
import { UsageError } from '../errors.js';
import { SCENARIO_SETS } from '../model/beyond.js';
import { BUILTIN_CONFIG } from '../model/builtin-config.js';
import { MAX_STARTS } from '../model/design.js';
import { PRODUCTION, PRODUCTION_PARTS, STACK_NAMES, withoutPart } from '../model/stacks.js';
import {
  describeParseError,
  parseChoice,
  parseInteger,
  parseList,
  parseNonEmpty,
  parsePinning,
  parseRates,
  parseSeconds,
  parseSlowerPercent,
} from './flag-values.js';
import { nestAppFlags } from './nest-app-flags.js';

/** Each cold start costs a boot: past this a run takes longer than the answer needs. */
const MAX_COLD_STARTS = 200;

// Defaults: the whole default run stays within 3 minutes on two CPUs, in many short paired rounds rather than a few long
// ones, since a ratio taken within one round cancels the host's slow drift (docs/method.md, "Paired, rotated rounds").
// How the rounds are spent: --budget below.
export const DEFAULT_CONNECTIONS = 50;
export const DEFAULT_DURATION_SEC = 0.25;
/** Even, so the rotation runs each pair in both orders equally often and an order effect cancels in the median. */
export const DEFAULT_ROUNDS = 12;
/**
 * Seconds per runtime from its first server start when neither --rounds nor --budget is given: with the runtime's
 * install check and the reports the default run stays within 3 minutes; the headline's fourth start has its share
 * (docs/method.md, "The headline measured on every start").
 */
export const DEFAULT_BUDGET_SEC = 160;
/**
 * Server starts under a budget unless --starts is given: the fewest whose t interval has a spread to go on, and what
 * the default run's three minutes hold (docs/method.md, "Starts as the unit").
 */
export const DEFAULT_STARTS = 3;
/**
 * Untimed load on the same target and route right before each timed run (--burst), so no timed run starts on a server
 * that sat idle through the rest of the round. Off by default: it adds its length and a generator start to every run,
 * which the default run's three minutes have no room for (docs/method.md, "Paired, rotated rounds").
 */
export const DEFAULT_BURST_SEC = 0;
/** @typedef {import('../model/recorded-options.js').Pairing} Pairing */
/** @type {Pairing[]} */
const PAIRINGS = ['together', 'back-to-back'];
/** One request in flight per connection, as a browser or an HTTP client library sends them. */
export const DEFAULT_PIPELINING = 1;
/** Express needs a few seconds of traffic before its throughput settles; Fastify far less. */
export const DEFAULT_WARMUP_SEC = 1;
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
export const ONLY_WHEN_NAMED = new Set(Object.values(SCENARIO_SETS).flat());
const MAX_CONNECTIONS = 10_000;
const MAX_PIPELINING = 1000;
const MAX_ROUNDS = 1000;
const MAX_PORT = 65535;

/** @typedef {import('../model/recorded-options.js').Options} Options */

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
  'nest-main': { type: 'string' },
  baseline: { type: 'string' },
  'fastify-options': { type: 'string' },
  strict: { type: 'boolean' },
  'nest-setup': { type: 'string' },
  'nest-cwd': { type: 'string' },
  'list-routes': { type: 'boolean' },
  params: { type: 'string' },
  traffic: { type: 'string' },
  body: { type: 'string', multiple: true },
  header: { type: 'string', multiple: true },
  'time-write': { type: 'string', multiple: true },
  'graphql-queries': { type: 'string' },
  'sign-in': { type: 'string' },
  'keep-throttle': { type: 'boolean' },
  rate: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  json: { type: 'boolean' },
  'fail-if-slower': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
});

/**
 * The command line, parsed once and checked: every flag's value with its default, and the names a config resolves.
 * @typedef {object} CommandLine
 * @property {Omit<Options, 'targets' | 'scenarios' | 'stacks'>} settings every flag that needs no config
 * @property {ConfigNames} names what resolveOptions checks against the config
 * @property {import('../own-app/own-app.js').NestAppFlags | null} nestApp null without --nest-app or --nest-main
 *
 * @typedef {object} ConfigNames
 * @property {string | undefined} targets --targets as given
 * @property {string | undefined} scenarios --scenarios as given, each set's name replaced by its scenarios
 * @property {string[] | null} stacks --stack, checked; null: every stack the config's targets run
 * @property {'--load-curve' | '--rates' | '--rate' | null} curveFlag the flag that asked for the load curve, whose
 *   targets the config must have
 */

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
 * @returns {CommandLine}
 * @throws {UsageError} naming the bad flag or value, before anything is loaded
 */
export function parseCommandLine(argv) {
  const values = readFlags(argv);
  const quick = values.quick ?? false;
  const load = parseLoad(values, quick);
  const cpus = parsePinning(values);
  const rounds = parseRounds(values, quick);
  const settings = {
    configFile: values.config === undefined ? null : parseNonEmpty('--config', values.config),
    ablate: values.ablate ?? false,
    memoryReducer: values['memory-reducer'] ?? false,
    telemetry: !values['no-telemetry'],
    driver: values.driver === undefined ? null : parseChoice('--driver', values.driver, DRIVER_NAMES),
    connections: load.connections,
    durationSec: load.durationSec,
    rounds: rounds.rounds,
    budgetSec: rounds.budgetSec,
    starts: rounds.starts,
    coldStarts: rounds.coldStarts,
    warmupSec: load.warmupSec,
    burstSec: load.burstSec,
    pairing: rounds.pairing,
    pipelining: load.pipelining,
    quick,
    outDir: values.out === undefined ? null : parseNonEmpty('--out', values.out),
    cpus,
    pinnedByDefault: cpus !== null && !values.pin && values.cpus === undefined,
    basePort: values.port === undefined ? null : parseInteger('--port', values.port, 1, MAX_PORT),
    runtime: values.runtime === undefined ? null : parseNonEmpty('--runtime', values.runtime),
    ...parsePackages(values),
    prof: values.prof ?? false,
    profileSec: quick ? QUICK.profileSec : Math.max(load.durationSec, MIN_PROFILE_SEC),
    ...parseLoadCurve(values),
    quiet: values.quiet ?? false,
    json: values.json ?? false,
    failIfSlower:
      values['fail-if-slower'] === undefined ? null : parseSlowerPercent('--fail-if-slower', values['fail-if-slower']),
    help: values.help ?? false,
  };
  return { settings, names: parseNames(values), nestApp: nestAppFlags(values) };
}

/**
 * The load each timed run puts on a server: connections, pipelining, length, and the warm-up and burst before it.
 * @param {{ duration?: string, connections?: string, pipelining?: string, driver?: string, warmup?: string,
 *   burst?: string }} values
 * @param {boolean} quick
 * @returns {Pick<Options, 'connections' | 'durationSec' | 'pipelining' | 'warmupSec' | 'burstSec'>}
 */
function parseLoad(values, quick) {
  const durationSec =
    values.duration === undefined
      ? quick
        ? QUICK.durationSec
        : DEFAULT_DURATION_SEC
      : parseSeconds('--duration', values.duration, false);
  const pipelining =
    values.pipelining === undefined
      ? DEFAULT_PIPELINING
      : parseInteger('--pipelining', values.pipelining, 1, MAX_PIPELINING);
  if (pipelining > 1 && values.driver === 'ab')
    throw new UsageError('--pipelining: ab cannot pipeline requests; use --driver wrk or --driver autocannon');
  return {
    connections:
      values.connections === undefined
        ? DEFAULT_CONNECTIONS
        : parseInteger('--connections', values.connections, 1, MAX_CONNECTIONS),
    durationSec,
    pipelining,
    warmupSec:
      values.warmup === undefined
        ? quick
          ? QUICK.warmupSec
          : DEFAULT_WARMUP_SEC
        : parseSeconds('--warmup', values.warmup, true),
    burstSec: values.burst === undefined ? DEFAULT_BURST_SEC : parseSeconds('--burst', values.burst, true),
  };
}

/**
 * How many rounds and starts, under a budget or not (the Design is resolved from these: model/design.js), and how the
 * compared pair shares them.
 * @param {{ rounds?: string, budget?: string, starts?: string, 'cold-starts'?: string, pairing?: string }} values
 * @param {boolean} quick
 * @returns {Pick<Options, 'rounds' | 'budgetSec' | 'starts' | 'coldStarts' | 'pairing'>}
 */
function parseRounds(values, quick) {
  const budgetSec = parseBudget(values, quick);
  return {
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
    pairing:
      values.pairing === undefined
        ? 'together'
        : /** @type {Pairing} */ (parseChoice('--pairing', values.pairing, PAIRINGS)),
  };
}

/**
 * The names a config resolves, as far as they can be checked without it.
 * @param {{ stack?: string, ablate?: boolean, targets?: string, scenarios?: string, 'load-curve'?: boolean,
 *   rate?: string, rates?: string }} values
 * @returns {ConfigNames}
 */
function parseNames(values) {
  const stacks = values.stack === undefined ? null : parseList('--stack', values.stack, STACK_NAMES);
  if (values.ablate && stacks !== null && !stacks.includes(PRODUCTION))
    throw new UsageError(`--ablate takes parts out of the ${PRODUCTION} stack; add ${PRODUCTION} to --stack`);
  return {
    targets: values.targets,
    scenarios: values.scenarios === undefined ? undefined : expandSets(values.scenarios),
    stacks,
    curveFlag: values['load-curve']
      ? '--load-curve'
      : values.rate !== undefined
        ? '--rate'
        : values.rates !== undefined
          ? '--rates'
          : null,
  };
}

/**
 * The options of a run: the command line's names resolved against what the config measures.
 * @param {Pick<CommandLine, 'settings' | 'names'>} commandLine
 * @param {import('../model/config.js').Config} [config] what --targets and --scenarios choose from
 * @returns {Options}
 * @throws {UsageError} naming the flag whose names the config lacks
 */
export function resolveOptions({ settings, names }, config = BUILTIN_CONFIG) {
  const targetNames = config.targets.map((t) => t.name);
  const scenarioNames = config.scenarios.map((s) => s.name);
  const stacks = names.stacks ?? defaultStacks(settings.ablate, config);
  const targets = parseList('--targets', names.targets, targetNames);
  const scenarios = parseList(
    '--scenarios',
    names.scenarios ??
      defaultScenarios(
        stacks,
        settings.ablate,
        scenarioNames.filter((name) => !ONLY_WHEN_NAMED.has(name)),
      ),
    scenarioNames,
  );
  // every target takes a port per stack and ablation variant, counting up from --port
  if (settings.basePort !== null)
    parseInteger(
      '--port',
      String(settings.basePort),
      1,
      MAX_PORT - targetNames.length * (STACK_NAMES.length + PRODUCTION_PARTS.length),
    );
  const missing = LOAD_CURVE_TARGETS.filter((name) => !targets.includes(name));
  if (names.curveFlag !== null && missing.length)
    throw new UsageError(
      `${names.curveFlag} compares ${LOAD_CURVE_TARGETS.join(' and ')}; add ${missing.join(' and ')} to --targets`,
    );
  const { configFile, ...rest } = settings;
  // the order results.json has always listed them in
  return { configFile, targets, scenarios, stacks, ...rest };
}

/**
 * --packages and what goes with it.
 * @param {{ packages?: string, 'nest-benchmark'?: boolean, config?: string, 'nest-app'?: string, 'nest-main'?: string,
 *   prof?: boolean }} values
 * @returns {Pick<Options, 'packages' | 'nestBenchmark'>}
 */
function parsePackages(values) {
  if (values.packages === undefined) {
    if (values['nest-benchmark']) throw new UsageError('--nest-benchmark runs on package sets; add --packages');
    return { packages: null, nestBenchmark: false };
  }
  if (values.config !== undefined && values['nest-app'] === undefined && values['nest-main'] === undefined)
    throw new UsageError('--packages runs the era app on each set; --config measures other servers: give one');
  if (values.prof) throw new UsageError('--prof profiles one set of servers per runtime; run it without --packages');
  return { packages: parseNonEmpty('--packages', values.packages), nestBenchmark: values['nest-benchmark'] ?? false };
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
 * @param {{ 'load-curve'?: boolean, rates?: string, rate?: string }} values
 * @returns {Pick<Options, 'loadCurve' | 'rates' | 'rate' | 'curveScenarios'>}
 */
function parseLoadCurve(values) {
  if (values.rate !== undefined && (values.rates !== undefined || values['load-curve']))
    throw new UsageError(
      `--rate sizes a switch at one rate; ${values.rates !== undefined ? '--rates' : '--load-curve'} draws a curve: give one of them`,
    );
  const rate = values.rate === undefined ? null : parseRates(values.rate, '--rate')[0];
  const rates = rate !== null ? [rate] : values.rates === undefined ? null : parseRates(values.rates, '--rates');
  return { loadCurve: Boolean(values['load-curve']) || rates !== null, rates, rate, curveScenarios: null };
}

/**
 * The stacks measured without --stack: every stack some target of the config can run (the built-in Nest app: both);
 * with --ablate, production, which the ablation takes parts out of.
 * @param {boolean} ablate @param {import('../model/config.js').Config} config
 */
function defaultStacks(ablate, config) {
  if (ablate) return [PRODUCTION];
  return STACK_NAMES.filter((stack) => config.targets.some((t) => t.stacks.includes(stack)));
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
