// @ts-check
// The options of a run as results.json records them (results.options): every flag after its defaults. run/options.js
// parses and checks the command line into this shape.

export {};

/** @typedef {'together' | 'back-to-back'} Pairing how a start's compared pair shares its rounds */

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
 * @property {number | null} basePort --port: servers listen on consecutive ports from it; null: each on a free port
 * @property {string | null} runtime the --runtime text, resolved at plan time by bench/runtimes/
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
 * @property {number | null} [failIfSlower] --fail-if-slower as a fraction: exit 4 when a compared row is decided
 *   slower than 1 − it; null or absent (runs before it): no gate
 * @property {boolean} help
 * @property {boolean} [fitLoads] --nest-app: each route measured at a load it answers (route-load.js) and drained after
 *   every load on it (recover.js); absent: every route at --connections and --duration
 */
