// @ts-check
// `npm run bench -- --help`: every flag with its default, from the constants the options are parsed with.
import { FALLBACK_DRIVER, DRIVER_NAMES, PREFERRED_DRIVER } from '../run/drivers/registry.js';
import { SCENARIO_SETS } from '../model/beyond.js';
import { BUILTIN_CONFIG } from '../model/builtin-config.js';
import { FIRST_LOOK_STARTS, MAX_BUDGET_ROUNDS, MAX_STARTS, MIN_BUDGET_ROUNDS } from '../model/design.js';
import { PRODUCTION, PRODUCTION_PARTS, STACK_NAMES } from '../model/stacks.js';
import { MIN_STEADY_ROUNDS } from '../run/designs/steady-block.js';
import {
  DEFAULT_ABLATION_SCENARIOS,
  DEFAULT_BUDGET_SEC,
  DEFAULT_BURST_SEC,
  DEFAULT_CONNECTIONS,
  DEFAULT_DURATION_SEC,
  DEFAULT_LOAD_LEVELS,
  DEFAULT_PIPELINING,
  DEFAULT_PRODUCTION_SCENARIOS,
  DEFAULT_ROUNDS,
  DEFAULT_STARTS,
  DEFAULT_WARMUP_SEC,
  LOAD_CURVE_TARGETS,
  MIN_PROFILE_SEC,
  ONLY_WHEN_NAMED,
  QUICK,
} from '../run/options.js';

export const HELP = `Usage: npm run bench -- [flags]
       npx nest-adapter-bench --config bench.config.json [flags]   (from your own project, once installed)

Measures Nest on Express vs Nest on Fastify (and the bare frameworks) in paired, rotated rounds, then prints a verdict
on the docs' claim "Fastify is almost two times faster" and writes results.json, report.md and report.html.

  --config FILE        what to measure: a .json file, or a .js/.mjs module exporting the object (default: the
                       built-in setup below). Relative paths in it (a target's cwd) resolve against the file's own
                       directory, so it works from wherever it is run; see docs/own-app.md
  --nest-main FILE     your app's own compiled main (e.g. dist/main.js), run from its folder with your app's
                       @nestjs packages twice: as written, and with FastifyAdapter where it calls NestFactory.create;
                       listen() takes the bench's port. Every route Nest registered becomes a scenario, checked on
                       both adapters before it is timed; a call of main's Fastify cannot take (app.set, ...) is named
                       at main.ts's line and left out on Fastify
  --fastify-options JSON  what FastifyAdapter is built with, e.g. '{"trustProxy":1}' (=@FILE reads a JSON file)
  --strict             with --nest-main: a call of main's Fastify cannot take stops Fastify's boot instead
  --nest-app FILE[#Export]  instead of --nest-main: your compiled Nest module (e.g. dist/app.module.js), booted by
                       the bench's own launcher, with --nest-setup for what your main.ts does
  --nest-setup FILE    a module exporting configure(app), loaded after your app's module: with --nest-app what your
                       main.ts does (prefix, pipes, versioning, CORS); authenticate(client) for a sign-in
  --nest-cwd DIR       the servers' working directory (default: the app's root, the folder of
                       its package.json, where its .env is)
  --baseline DIR       with --nest-main or --nest-app: the base build of your app, e.g. a checkout of main built in
                       DIR (its own node_modules, the same path to main as the candidate's): the candidate (nest-
                       express) and the base (base-nest-express) are timed as written in one paired run, their ratio
                       the verdict; the routes are the candidate's, checked on both adapters first (docs/ci.md)
  --list-routes        print the routes Nest registered, one a line, and exit
  --params LIST        with --nest-main or --nest-app: path parameter values, e.g. id=7,slug=intro, and ids a body
                       names (role.id=VALUE); without them, ids come from the sign-in and the app's list routes
  --traffic FILE       with --nest-main or --nest-app: a request log (pino JSON lines, or common/combined log
                       format); the routes it hits are measured as one mix in their logged shares, "traffic"; see
                       docs/own-app.md
  --body 'M /path=JSON'  with --nest-main or --nest-app, repeatable: the body of one route where the one derived
                       from its DTOs will not do, e.g. --body 'POST /api/login={"email":"a@b.c","password":"pw"}'
                       (=@FILE reads a JSON file); {{unique}} in a string becomes a value unique per request
  --sign-in 'M /path=JSON'  with --nest-main or --nest-app: a password sign-in, e.g. --sign-in 'POST
                       /api/auth/login={"email":"a@b.c","password":"pw"}' (=@FILE; a GraphQL mutation as
                       {"query":"mutation { … }"}): sent on each adapter, its token (a JWT at any depth of the
                       answer) or cookies sent back as the app takes them, proved on a request refused signed out;
                       authenticate() in --nest-setup for others
  --header 'N: V'      with --nest-main or --nest-app, repeatable: a header sent with every request, e.g. --header
                       'x-api-key: k1' (for a password sign-in, --sign-in; for others, authenticate(client) in
                       --nest-setup)
  --graphql-queries FILE  with --nest-main or --nest-app: the GraphQL operations to measure, named (query Books
                       { ... }), each a scenario checked to answer without errors on both adapters; variables from
                       --params. Without it, the schema's root queries whose required arguments --params fills
  --time-write 'M /path'  with --nest-main or --nest-app, repeatable: time a write that changes the signed-in
                       account (DELETE /auth/me, a password change), which is otherwise listed and left out; use an
                       account you can lose
  --keep-throttle      with --nest-main or --nest-app: time the app with its @nestjs/throttler guards as they are
                       (their 429s are then findings); without it they are lifted while timing, and the report says so
  --rate R             after the timed rounds, drive ${LOAD_CURVE_TARGETS.join(' and ')} open loop at R req/s on each
                       measured scenario (your traffic mix included): cores each adapter needs at R, with intervals,
                       the saving, p50/p99 and the instances each would need (a --load-curve at one rate)
  --targets LIST       comma-separated, default all: ${names(BUILTIN_CONFIG.targets)} (or the config's)
  --scenarios LIST     comma-separated, from: ${names(BUILTIN_CONFIG.scenarios.filter((s) => !ONLY_WHEN_NAMED.has(s.name)))} (or the config's);
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
                       the budget allows, and a profile with no compared pair (h2, h2c: Fastify only) has that
                       start's time held back from the budget after the first start. Intervals take the start as their unit, and each row shows how its noise
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
  --port N             first of the consecutive ports the servers listen on (default: each a free port)
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
  --fail-if-slower PCT a CI gate for two builds in one run (--baseline DIR, or a --config whose compare is
                       [candidate, base]): exit 4
                       when a compared row is decided slower than -PCT % (its whole 98 % interval below), naming each
                       (docs/ci.md)
  -h, --help           this text

Output: on a terminal, a live progress line, then the answer and the main tables. Elsewhere (CI, a file), a line per
block (a route on a stack, on one server start) with what it kept and decided, then the verdict table, what it cannot
say (a boot failure, a refusal, what switching costs) and what failed; report.md holds every other table.
Environment: DATABASE_URL=mysql://user:pass@host:port/db is passed to the Nest targets (default: embedded SQLite).
Exit codes: 0 compared, 1 a timed run or its verification failed (or, with --nest-app, a request ended the app's
process), 2 bad input (one line says which; a sign-in the app refused too), 3 nothing compared (an adapter or the app
did not boot, no pair measured), 4 --fail-if-slower found a slower row, 130 interrupted. Once a server has started,
whatever the code, results.json, report.md and report.html are written (partial results kept), the reason first; input
refused before that writes nothing.`;

/** @param {{ name: string }[]} items */
function names(items) {
  return items.map((item) => item.name).join(',');
}
