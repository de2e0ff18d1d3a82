import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../../bench/errors.js';
import { SCENARIO_SETS } from '../../../bench/model/beyond.js';
import { SCENARIO_NAMES } from '../../../bench/model/scenarios.js';
import { PRODUCTION_PARTS } from '../../../bench/model/stacks.js';
import {
  DEFAULT_ABLATION_SCENARIOS,
  DEFAULT_PRODUCTION_SCENARIOS,
  DEFAULT_BUDGET_SEC,
  DEFAULT_STARTS,
  DEFAULT_BURST_SEC,
  DEFAULT_CONNECTIONS,
  DEFAULT_DURATION_SEC,
  DEFAULT_PIPELINING,
  DEFAULT_ROUNDS,
  DEFAULT_WARMUP_SEC,
  MIN_PROFILE_SEC,
  QUICK,
  parseCommandLine,
  stackPlan,
} from '../../../bench/run/options.js';
import { HELP } from '../../../bench/bin/bench-help.js';
import { parseOptions } from '../support/options.js';

const CLI = fileURLToPath(new URL('../../../bench/bin/bench.js', import.meta.url));

function usageMessage(argv: string[]): string {
  try {
    parseOptions(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
}

describe('flag defaults', () => {
  it('runs every target on both stacks with the production scenarios and the named defaults, driver left to auto-selection', () => {
    const options = parseOptions([]);
    expect(options.targets).toEqual([
      'nest-express',
      'nest-fastify',
      // they serve only the transfer, TLS and HTTP/2 profiles, which the default run leaves out
      'nest-express-transfer',
      'nest-fastify-transfer',
      'nest-express-tls',
      'nest-fastify-tls',
      'nest-fastify-h2',
      'nest-fastify-h2c',
      'raw-node',
      'raw-express',
      'raw-fastify',
      'raw-hono',
    ]);
    expect(options.stacks).toEqual(['bare', 'production']);
    expect(options.ablate).toBe(false);
    expect(options.scenarios).toEqual(DEFAULT_PRODUCTION_SCENARIOS);
    expect(options).toMatchObject({
      driver: null,
      connections: DEFAULT_CONNECTIONS,
      durationSec: DEFAULT_DURATION_SEC,
      rounds: DEFAULT_ROUNDS,
      warmupSec: DEFAULT_WARMUP_SEC,
      burstSec: DEFAULT_BURST_SEC,
      pipelining: DEFAULT_PIPELINING,
      prof: false,
      runtime: null,
      outDir: null,
    });
  });

  it.runIf(availableParallelism() >= 2)('pins servers and generator to different CPUs unless --no-pin', () => {
    expect(parseOptions([]).cpus).toEqual(parseOptions(['--pin']).cpus);
    expect(parseOptions([]).pinnedByDefault).toBe(true);
    expect(parseOptions(['--pin']).pinnedByDefault).toBe(false);
    expect(parseOptions(['--no-pin'])).toMatchObject({ cpus: null, pinnedByDefault: false });
  });

  it('runs every scenario outside the beyond set with --stack bare, and named scenarios on whatever stacks', () => {
    const beyond = new Set(SCENARIO_SETS.beyond);
    expect(parseOptions(['--stack', 'bare']).scenarios).toEqual(SCENARIO_NAMES.filter((name) => !beyond.has(name)));
    expect(parseOptions(['--stack', 'production', '--scenarios', 'mix,json'])).toMatchObject({
      stacks: ['production'],
      scenarios: ['json', 'mix'],
    });
  });

  it('--ablate measures the production stack on hello and catalog, plus each variant without one part', () => {
    const options = parseOptions(['--ablate']);
    expect(options).toMatchObject({ ablate: true, stacks: ['production'], scenarios: DEFAULT_ABLATION_SCENARIOS });
    expect(stackPlan(options).map((s) => s.stack)).toEqual([
      'production',
      ...PRODUCTION_PARTS.map((part) => `production-without-${part}`),
    ]);
    expect(stackPlan(parseOptions(['--stack', 'production,bare'])).map((s) => s.stack)).toEqual(['bare', 'production']);
  });

  it('spends a time budget on undecided scenarios by default, and --rounds or --quick fix the rounds instead', () => {
    expect(parseOptions([]).budgetSec).toBe(DEFAULT_BUDGET_SEC);
    expect(parseOptions(['--budget', '90.5']).budgetSec).toBe(90.5);
    expect(parseOptions(['--rounds', '12'])).toMatchObject({ budgetSec: null, rounds: 12 });
    expect(parseOptions(['--quick'])).toMatchObject({ budgetSec: null, rounds: QUICK.rounds });
  });

  it('starts every server DEFAULT_STARTS times under the budget, once with fixed rounds, and --starts N times', () => {
    expect(parseOptions([]).starts).toBe(DEFAULT_STARTS);
    expect(parseOptions(['--rounds', '12']).starts).toBe(1);
    expect(parseOptions(['--quick']).starts).toBe(1);
    expect(parseOptions(['--starts', '4'])).toMatchObject({ starts: 4, budgetSec: DEFAULT_BUDGET_SEC });
    expect(parseOptions(['--starts', '3', '--rounds', '4'])).toMatchObject({ starts: 3, rounds: 4, budgetSec: null });
  });

  it('--quick shortens duration, rounds and warm-up, but explicit flags still win', () => {
    expect(parseOptions(['--quick'])).toMatchObject({
      durationSec: QUICK.durationSec,
      rounds: QUICK.rounds,
      warmupSec: QUICK.warmupSec,
    });
    expect(parseOptions(['--quick', '--rounds', '4'])).toMatchObject({ durationSec: QUICK.durationSec, rounds: 4 });
  });

  it('profiles for the longer of --duration and the minimum profile length, or briefly with --quick', () => {
    expect(parseOptions([]).profileSec).toBe(MIN_PROFILE_SEC);
    expect(parseOptions(['--duration', String(MIN_PROFILE_SEC * 2)]).profileSec).toBe(MIN_PROFILE_SEC * 2);
    expect(parseOptions(['--quick']).profileSec).toBe(QUICK.profileSec);
  });

  it('keeps lists in canonical order whatever order they were typed in', () => {
    expect(parseOptions(['--targets', 'nest-fastify,nest-express']).targets).toEqual(['nest-express', 'nest-fastify']);
  });

  it('accepts decimal seconds and the pass-through flags', () => {
    expect(
      parseOptions(['--duration', '0.5', '--warmup', '0', '--runtime', 'node@22', '--prof', '--driver', 'ab']),
    ).toMatchObject({
      durationSec: 0.5,
      warmupSec: 0,
      runtime: 'node@22',
      prof: true,
      driver: 'ab',
    });
  });

  it('takes --pipelining and --burst', () => {
    expect(parseOptions(['--pipelining', '10', '--connections', '100'])).toMatchObject({
      pipelining: 10,
      connections: 100,
    });
    expect(parseOptions(['--burst', '0.2']).burstSec).toBe(0.2);
    expect(DEFAULT_BURST_SEC).toBe(0);
  });

  it('--cpus pins with explicit lists; --pin picks server and generator CPUs apart', () => {
    expect(parseOptions(['--cpus', '0:1']).cpus).toEqual({ server: '0', generator: '1' });
    const pinned = parseOptions(['--pin']).cpus!;
    expect(pinned.server).not.toContain(pinned.generator);
  });
});

describe('bad flags and values: one line naming the flag', () => {
  it.each([
    [['--bogus'], /^unknown flag --bogus/],
    [['--duration'], /^--duration needs a value/],
    [['--quick=yes'], /^--quick takes no value/],
    [['stray'], /^unexpected argument stray/],
    [['--targets', 'nest-express,koa'], /^--targets: unknown name "koa"/],
    [['--scenarios', 'hello,'], /^--scenarios: empty name/],
    [['--driver', 'k6'], /^--driver: unknown value "k6"; use one of autocannon, wrk, ab/],
    [['--connections', '0'], /^--connections: "0" is not a whole number from 1/],
    [['--connections', '12.5'], /^--connections: "12.5" is not a whole number/],
    [['--duration', '0'], /^--duration: "0" is not a number of seconds above 0/],
    [['--duration', '2s'], /^--duration: "2s" is not a number of seconds/],
    [['--rounds', 'many'], /^--rounds: "many" is not a whole number/],
    [['--budget', '0'], /^--budget: "0" is not a number of seconds above 0/],
    [['--budget', '60', '--rounds', '12'], /^--budget and --rounds are two designs/],
    [['--budget', '60', '--quick'], /^--budget: --quick runs a fixed 2 rounds/],
    [['--starts', '0'], /^--starts: "0" is not a whole number from 1 to \d+/],
    [['--starts', '99'], /^--starts: "99" is not a whole number from 1 to \d+/],
    [['--warmup', '-1'], /^--warmup needs a value; write one that starts with "-" as --warmup=VALUE/],
    [['--warmup=-1'], /^--warmup: "-1" is not a number of seconds from 0/],
    [['--port', '70000'], /^--port: "70000" is not a whole number/],
    [['--cpus', '0'], /^--cpus: "0" is not SERVER:GENERATOR/],
    [['--cpus', '0:0'], /^--cpus: "0:0" gives server and generator the same CPU/],
    [['--cpus', '0:999'], /^--cpus: CPU 999 does not exist/],
    [['--cpus', '1-0:1'], /^--cpus: range "1-0" runs backwards/],
    [['--no-pin', '--pin'], /^--no-pin contradicts --pin; give one/],
    [['--no-pin', '--cpus', '0:1'], /^--no-pin contradicts --cpus; give one/],
    [['--out', ''], /^--out needs a value/],
    [['--pipelining', '0'], /^--pipelining: "0" is not a whole number from 1/],
    [['--pipelining', '10', '--driver', 'ab'], /^--pipelining: ab cannot pipeline requests/],
    [['--burst', 'x'], /^--burst: "x" is not a number of seconds from 0/],
    [['--stack', 'prod'], /^--stack: unknown name "prod"; use a comma-separated subset of bare,production/],
    [['--stack', ''], /^--stack: empty name/],
    [['--stack', 'bare', '--ablate'], /^--ablate takes parts out of the production stack; add production to --stack/],
    [['--ablate=yes'], /^--ablate takes no value/],
  ])('%j → %s', (argv, message) => {
    const text = usageMessage(argv as string[]);
    expect(text).toMatch(message);
    expect(text).not.toContain('\n');
  });
});

describe('the CLI on bad input', () => {
  it('refuses a mix with ab in one line, exit code 2', () => {
    const run = spawnSync(process.execPath, [CLI, '--driver', 'ab', '--scenarios', 'mix'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^--scenarios mix: ab sends one kind of request per run, a mix needs several;.*\n$/);
  });

  it("refuses a bad flag before --nest-app's module is looked for, let alone booted", () => {
    const run = spawnSync(process.execPath, [CLI, '--nest-app', 'not-built/app.module.js', '--duration', '0'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('--duration: "0" is not a number of seconds above 0 to 3600\n');
  });

  it('prints one line on stderr and exits with code 2, before building or starting anything', () => {
    const run = spawnSync(process.execPath, [CLI, '--rounds', 'zero'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('--rounds: "zero" is not a whole number from 1 to 1000\n');
    expect(run.stdout).toBe('');
  });

  it("exits with code 2 for a bad --runtime, with the runtimes module's message", () => {
    const run = spawnSync(process.execPath, [CLI, '--runtime', 'dino'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/--runtime/);
  });

  it('documents every flag in --help and exits 0', () => {
    const run = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${HELP}\n`);
    for (const flag of [
      '--targets',
      '--scenarios',
      '--driver',
      '--connections',
      '--duration',
      '--rounds',
      '--starts',
      '--warmup',
      '--quick',
      '--out',
      '--pin',
      '--no-pin',
      '--cpus',
      '--port',
      '--runtime',
      '--prof',
      '--stack',
      '--ablate',
      '--help',
    ]) {
      expect(HELP).toContain(flag);
    }
  });

  it('says the own-app flags go with --nest-main as with --nest-app, as the parser takes them', () => {
    for (const flag of [
      'params',
      'traffic',
      'body',
      'sign-in',
      'header',
      'graphql-queries',
      'time-write',
      'keep-throttle',
    ]) {
      const entry = HELP.split('\n').find((line) => line.startsWith(`  --${flag} `)) ?? '';
      expect(entry).toContain('with --nest-main or --nest-app');
    }
  });
});

describe('--load-curve and --rates', () => {
  it('are off by default, so the default run is not slowed', () => {
    expect(parseOptions([])).toMatchObject({ loadCurve: false, rates: null });
  });

  it('--rates implies --load-curve and keeps each rate once, ascending', () => {
    expect(parseOptions(['--rates', '2000,500,1000,500'])).toMatchObject({ loadCurve: true, rates: [500, 1000, 2000] });
    expect(parseOptions(['--load-curve'])).toMatchObject({ loadCurve: true, rates: null });
  });

  it.each([
    [['--rates', '0'], /--rates: "0" is not a rate in req\/s above 0/],
    [['--rates', '500,fast'], /--rates: "fast" is not a rate/],
    [['--rates', '500,,1000'], /--rates: "" is not a rate/],
    [['--rates', '-5'], /--rates needs a value|--rates: "-5"/],
    [
      ['--load-curve', '--targets', 'nest-express,raw-node'],
      /--load-curve compares nest-express and nest-fastify; add nest-fastify to --targets/,
    ],
    [
      ['--rates', '100', '--targets', 'raw-node'],
      /--rates compares .*; add nest-express and nest-fastify to --targets/,
    ],
  ])('refuses %j with one line naming the flag', (argv, message) => {
    expect(usageMessage(argv)).toMatch(message);
  });

  it('the CLI prints the refusal as one line and exits 2', () => {
    const run = spawnSync(process.execPath, [CLI, '--rates', 'x'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^--rates: "x" is not a rate/)]);
  });
});

describe('--rate', () => {
  it('drives the load curve at that one rate', () => {
    expect(parseOptions(['--rate', '300'])).toMatchObject({ loadCurve: true, rates: [300], rate: 300 });
  });

  it.each([
    [['--rate', '300', '--rates', '100,200'], /--rate sizes a switch at one rate; --rates draws a curve/],
    [['--rate', '0'], /--rate: "0" is not a rate in req\/s above 0.*--rate 300/],
    [['--rate', '300,600'], /--rate: "300,600" is not a rate/],
  ])('refuses %j with one line naming the flag', (argv, message) => {
    expect(usageMessage(argv)).toMatch(message);
  });
});

describe('--body and --header', () => {
  const nestApp = (...flags: string[]) => parseCommandLine(['--nest-app', 'dist/app.module.js', ...flags]).nestApp;

  it('reads a route’s body as METHOD /path=JSON, and a header as name: value', () => {
    expect(
      nestApp('--body', 'POST /api/users/login={"user":{"email":"a@b.c"}}', '--header', 'X-Api-Key: k1'),
    ).toMatchObject({
      bodies: [{ method: 'POST', url: '/api/users/login', value: { user: { email: 'a@b.c' } } }],
      headers: { 'x-api-key': 'k1' },
    });
  });

  it.each([
    [['--body', 'POST /api/users'], /--body: "POST \/api\/users" is not METHOD \/path=JSON/],
    [['--body', 'POST /api/users={oops'], /--body POST \/api\/users: not JSON/],
    [['--header', 'no colon'], /--header: "no colon" is not "name: value"/],
  ])('refuses %j with one line naming the flag', (argv, message) => {
    let thrown: unknown;
    try {
      nestApp(...argv);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect(String((thrown as Error).message)).toMatch(message);
  });

  it('goes with --nest-main or --nest-app only', () => {
    expect(() => parseCommandLine(['--header', 'a: b'])).toThrow(
      /--header goes with --nest-main dist\/main\.js or --nest-app FILE/,
    );
  });
});

describe('--nest-main, --fastify-options and --strict', () => {
  const flags = (...argv: string[]) => parseCommandLine(argv).nestApp;

  it('take the app’s own main, the FastifyAdapter’s options as JSON, and whether to stop at what Fastify cannot take', () => {
    expect(flags('--nest-main', 'dist/main.js', '--fastify-options', '{"trustProxy":1}', '--strict')).toMatchObject({
      module: 'dist/main.js',
      main: true,
      fastifyOptions: { trustProxy: 1 },
      strict: true,
    });
    expect(flags('--nest-app', 'dist/app.module.js')).toMatchObject({
      main: false,
      fastifyOptions: null,
      strict: false,
    });
  });

  it.each([
    [['--nest-main', 'dist/main.js', '--nest-app', 'dist/app.module.js'], /--nest-main and --nest-app: give one/],
    [['--nest-app', 'dist/app.module.js', '--strict'], /--strict goes with --nest-main/],
    [['--nest-main', 'dist/main.js', '--fastify-options', '{trustProxy'], /--fastify-options: not JSON/],
    [['--nest-main', 'dist/main.js', '--fastify-options', '[1]'], /--fastify-options: give an object/],
    [['--fastify-options', '{}'], /--fastify-options goes with --nest-main dist\/main\.js or --nest-app FILE/],
  ])('refuses %j with one line naming the flag', (argv, message) => {
    expect(() => flags(...argv)).toThrow(UsageError);
    expect(() => flags(...argv)).toThrow(message);
  });
});

describe('--baseline DIR', () => {
  const flags = (...argv: string[]) => parseCommandLine(argv).nestApp;

  it('takes the base build’s folder beside --nest-main or --nest-app', () => {
    expect(flags('--nest-main', 'dist/main.js', '--baseline', '../base')).toMatchObject({ baseline: '../base' });
    expect(flags('--nest-app', 'dist/app.module.js')).toMatchObject({ baseline: null });
  });

  it.each([
    [['--baseline', '../base'], /--baseline goes with --nest-main dist\/main\.js or --nest-app FILE/],
    [['--nest-main', 'dist/main.js', '--baseline', ''], /--baseline/],
    [['--nest-main', 'dist/main.js', '--baseline', '../base', '--rate', '500'], /--rate compares the adapters/],
    [['--nest-main', 'dist/main.js', '--baseline', '../base', '--prof'], /--prof compares the adapters/],
    [['--nest-main', 'dist/main.js', '--baseline', '../base', '--packages', 'nest@11'], /--packages compares/],
    [['--nest-main', 'dist/main.js', '--baseline', '../base', '--targets', 'nest-fastify'], /--targets: a --baseline/],
  ])('refuses %j with one line naming the flag', (argv, message) => {
    expect(() => flags(...argv)).toThrow(UsageError);
    expect(() => flags(...argv)).toThrow(message);
  });
});
