// @ts-check
// What a run records, kind by kind: the shapes results.json holds (results.js gathers them into Results). The stages
// that write them (run/, profile/, packages/) and those that read them (analysis/, report/) name them from here.

// types only: the empty export makes this file a module, whose typedefs other modules import
export {};

/**
 * One target on one scenario with one stack. Named a pair for the target × scenario it started as; the stack is the
 * third dimension (model/stacks.js).
 * @typedef {{ target: string, scenario: string, stack: string }} Pair
 */

/**
 * What one closed-loop run measured, as its generator counted it.
 * @typedef {object} LoadResult
 * @property {number} requests responses received (any status)
 * @property {Record<string, number> | null} statusCounts responses per status; null where the generator cannot tell (ab)
 * @property {number} durationSec measured by the generator
 * @property {number} rps responses with the expected status / durationSec: a failed answer is not throughput
 * @property {{ p50: number, p90: number, p99: number, p999: number | null, mean: number, max: number }} latencyMs
 * @property {number} errors connection and socket errors, timeouts excluded
 * @property {number} timeouts
 * @property {number} unexpectedStatus responses with another status than the expected one (ab: outside 200-299)
 * @property {number} generatorCpuSec CPU time the generator used during the run
 * @property {string[]} warnings anything that makes the numbers doubtful (e.g. connections not kept alive)
 * @property {string} [protocol] the protocol the generator negotiated, where it says (h2load: h2 or h2c)
 * @property {number} [connectionsOpened] connections the generator opened: its own, and one more for each the server
 *   closed (Connection: close); absent where the generator cannot tell
 * @property {Record<string, number>} [sentByRoute] a mix's requests as sent, per route (the few still in flight when
 *   the run ends are among them, not among `requests`)
 */

/**
 * @typedef {{ count: number, totalMs: number, maxMs: number }} PauseSum
 * @typedef {{ at: number, ms: number, kind: string, flags: string[] }} GcEvent at: epoch ms when the pause began
 * @typedef {{ youngMiB: number | null, oldMiB: number | null, heapTotalMiB: number, heapUsedMiB: number,
 *   externalMiB: number, rssMiB: number }} HeapState
 *
 * @typedef {object} GcSummary
 * @property {Record<string, PauseSum>} pauses by kind: minor (scavenges), major, incremental, weakcb
 * @property {Record<string, number>} flagged how many collections carried each flag (allExternalMemory: the memory
 *   reducer's and low-memory collections)
 * @property {GcEvent[]} events every pause but short minor ones, oldest first
 * @property {number} droppedEvents beyond the preload's bound
 *
 * @typedef {object} ServerState what the server's own telemetry says about one timed run
 * @property {GcSummary} between collections since the server's previous snapshot, or since it started: the idle time,
 *   warm-up and untimed load before this run
 * @property {GcSummary} during collections from the run's start to its end
 * @property {HeapState | null} heapBefore
 * @property {HeapState | null} heapAfter
 * @property {{ p50Ms: number, p99Ms: number, maxMs: number } | null} eventLoopDelay during the run
 * @property {number | null} eventLoopUtilization during the run: the loop's busy share, 1 = never idle
 * @property {Record<string, string>} unsupported feature → why this runtime does not record it
 */

/**
 * @typedef {object} Settling what the wait before a run saw
 * @property {number} waitedMs
 * @property {boolean} settled false: the cap ran out first, and the run started on a busy core
 * @property {number} inFlight requests the servers still held when the wait ended: connections their clients closed
 *   that they have not, and connections not yet accepted
 * @property {number} cpuShare the servers' CPU over the last window, in shares of a core
 * @property {string | null} busiest unsettled: the server that held the most requests or, with none held, used the most
 *   CPU
 */

/**
 * @typedef {object} CpuIdentity enough to tell two hosts apart when their model names agree
 * @property {string | null} vendor
 * @property {number | null} family
 * @property {number | null} model
 * @property {string} modelName
 * @property {number | null} stepping
 * @property {string | null} microcode
 * @property {Array<{ level: number, type: string, size: string }>} caches
 *
 * @typedef {object} HostIdentity
 * @property {CpuIdentity} cpu
 * @property {string} kernel release and build
 * @property {{ vm: string | null, container: string | null }} virtualization the hypervisor and the container as
 *   systemd-detect-virt (or DMI, or the CPU's hypervisor flag) names them; null: none found
 *
 * @typedef {object} HostDuringRun
 * @property {number | null} stealShare of all CPUs' time, the share the hypervisor gave to other guests
 * @property {{ cpu: string, stealShare: number, otherShare: number | null } | null} serverCore the pinned server's
 *   core: steal there, and CPU seconds per second it was busy beyond the server's own CPU time (other processes, and
 *   interrupt work such as the loopback network's, which the kernel does not charge to the server); null when not
 *   pinned
 */

/**
 * @typedef {object} Verification
 * @property {string} runtime
 * @property {string} target
 * @property {string} scenario
 * @property {string} stack
 * @property {boolean} ok
 * @property {string | null} reason why the pair is skipped
 * @property {number | null} status
 * @property {Record<string, string>} headers response headers, lower-case names, without Date
 *
 * @typedef {object} HeaderDifference
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} stack
 * @property {string} header
 * @property {boolean} [security] one of the headers a security middleware (helmet) or CORS sets or removes
 * @property {Record<string, string | null>} values per target; null = header absent
 */

/**
 * @typedef {'warm-up' | 'burst' | 'round'} LoadPhase
 * @typedef {{ request: string, answered: boolean, ms: number, status: number | null }} ProbeAnswer request: `GET
 *   /path`; status null: no answer within the deadline, or the connection failed
 * @typedef {object} Drain what the wait after a route's load saw, recorded unless the server was clear at once
 * @property {string} runtime
 * @property {string} target
 * @property {string} scenario
 * @property {string} stack
 * @property {LoadPhase} phase
 * @property {number} round 1-based; 0 in the warm-up, and in a --starts block, whose rounds are numbered once it ends
 * @property {number} start 0-based
 * @property {number} connections the route's load when it left this
 * @property {'backlog' | 'hung' | 'crashed'} outcome backlog: the servers took NOTABLE_DRAIN_MS (run/recover.js) or
 *   more to hold nothing and go quiet (a server that has read every request holds none in the kernel, yet may still
 *   work through them); hung: requests still held at the cap, or a probe unanswered; crashed: the server exited
 * @property {number} heldAtEnd requests the server held when the load stopped
 * @property {number} drainedMs how long the wait took
 * @property {number} capMs
 * @property {number} heldAfter requests still held when the wait ended
 * @property {ProbeAnswer[]} probes the route's request (a mix: each of its routes'), in order, up to the first
 *   unanswered; none when the server had exited
 * @property {{ p50Ms: number, p99Ms: number, maxMs: number } | null} [eventLoopDelay] a hung server's, from its
 *   telemetry, when it answered the snapshot
 * @property {{ requests: number, statusCounts: Record<string, number> | null } | null} [lastAnswer] what the load that
 *   left this got back; null: the load itself failed
 * @property {{ exitCode: number | null, signal: string | null, stderrTail: string }} [exit] a crashed server's
 */

/**
 * What one route (or the traffic mix) is measured with on every server of its pair.
 * @typedef {object} RouteLoad
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} stack
 * @property {Record<string, number | null>} aloneMs each target's mean single-request latency, in ms; null: its
 *   sampling failed (the flags' load then stands)
 * @property {number} connections
 * @property {number} durationSec
 * @property {boolean} lowered fewer connections or a longer run than --connections and --duration
 */

/**
 * What one block (a scenario on a stack, --starts) is measured with from its first start's warm-up rounds on.
 * @typedef {object} BlockLoad
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} stack
 * @property {number} msPerRequest the slower compared server's time per request, from the round it was fitted on
 * @property {number} connections
 * @property {number} durationSec
 * @property {boolean} lowered fewer connections than --connections
 */

/**
 * @typedef {'flat' | 'warm-up' | 'slowdown' | 'no steady state'} SteadyClass
 * @typedef {object} TargetWarmUp how one target's series settled in a block
 * @property {SteadyClass} classification from its cost per request
 * @property {number | null} steadyFrom 0-based round where its last segment began; null: no steady state
 * @property {Array<number | null>} cpuUsPerRequest per round (the reciprocal of req/s where the server's CPU is not
 *   ours to read)
 * @property {Array<number | null>} youngMiB per round, before the run
 */

/**
 * @typedef {object} Lateness how far behind its schedule the generator dispatched requests
 * @property {number} dispatched
 * @property {number} late requests dispatched more than LATE_THRESHOLD_NS (run/open-loop/scheduler.js) after their
 *   due time
 * @property {number} share late / dispatched (0 when nothing was dispatched)
 * @property {number} maxNs the largest lateness seen
 */

/**
 * What one open-loop run (--load-curve) measured.
 * @typedef {object} OpenLoopRun
 * @property {number} offeredRps
 * @property {number} sent requests dispatched (all of the schedule unless the run failed)
 * @property {number} completed answers received, any status
 * @property {number} elapsedSec from the schedule's start to the last answer
 * @property {number} achievedRps completed / elapsedSec
 * @property {number} errors connection and socket errors, timeouts excluded
 * @property {number} timeouts
 * @property {number} unexpectedStatus answers with another status than expectedStatus
 * @property {string} latencyHistogram microseconds from due time to the answer's end (for a timeout, to when it was
 *   given up on), HDR compressed base64
 * @property {{ p50: number, p90: number, p99: number, p999: number, max: number }} latencyMs of this run alone
 * @property {Lateness} lateness
 * @property {number} generatorCpuShare CPU seconds the generator used per second of run (1 = one core), spinning
 *   included
 * @property {number} generatorBusyShare the same without the time it spun with nothing to do (timed on the wall
 *   clock: generatorCpuShare near 1 says it was rarely preempted): its own work
 * @property {number | null} serverCpuNs null without a server pid, or when it could not be read
 */

/**
 * @typedef {object} LoadLevel
 * @property {number | null} share of the slower adapter's capacity; null for a --rates rate
 * @property {number} rps offered rate
 *
 * @typedef {object} CurvePlan the offered rates of one runtime × scenario, and what they were derived from
 * @property {string} runtime
 * @property {string} scenario
 * @property {Record<string, number>} capacityRps each adapter's median req/s in this run's saturation rounds
 * @property {string | null} basis the slower adapter, whose capacity the shares are of; null with --rates
 * @property {LoadLevel[]} levels ascending
 *
 * @typedef {object} CurveRunRecord one open-loop run of one adapter at one offered rate
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} target
 * @property {LoadLevel} level
 * @property {number} round 1-based
 * @property {number} slot position within the round, 1-based
 * @property {string} startedAt ISO time
 * @property {'ok' | 'failed'} status
 * @property {{ reason: string, exitCode?: number | null, signal?: string | null, stderrTail?: string } | null} failure
 * @property {OpenLoopRun | null} run
 * @property {{ cpuShare: number | null, cpuUsPerRequest: number | null, peakRssMiB: number | null,
 *   peakRssWindow: 'run' | 'process' } | null} server cpuShare: CPU seconds per second of run (1 = one core)
 * @property {string | null} generatorFlag why this run's latencies describe the generator, not the server
 * @property {ServerState | null} [state] the server's telemetry over the run
 * @property {HostDuringRun | null} [host] steal and other CPU on the server's core
 * @property {CurveRunRecord} [missedAttempt] the same run a moment before, which missed its schedule and was run again
 *
 * @typedef {object} CurveWarmUpRecord the untimed runs of one adapter × scenario before round 1
 * @property {string} runtime
 * @property {string} scenario
 * @property {string} target
 * @property {number} rps the rate it warmed up at: the scenario's highest
 * @property {number[]} lateShares each warm-up run's share of requests sent over 1 ms late
 * @property {boolean} kept whether the last one sent at most WARM_LATE_SHARE (run/load-curve.js) late
 *
 * @typedef {object} LoadCurveResults
 * @property {CurvePlan[]} plans
 * @property {CurveRunRecord[]} runs
 * @property {CurveWarmUpRecord[]} [warmUps] absent in results from before warm-ups were recorded
 */

/**
 * @typedef {object} Environment
 * @property {{ model: string, count: number, governor: string | null }} cpu
 * @property {HostIdentity | null} host the CPU's identity, kernel and virtualisation; null: not recorded
 * @property {number} memoryGiB
 * @property {{ kernel: string, distribution: string | null }} os
 * @property {{ node: string, argv: string[] }} bench the node running the bench, and how it was called
 * @property {import('./runtime.js').Runtime[]} runtimes what the targets ran under
 * @property {Record<string, string | null>} packages installed versions
 * @property {string} driver name and version of the load generator
 * @property {string[]} [generators] every load generator the run used, each with its version: the driver, and h2load
 *   where a target speaks HTTP/2; absent in results from before it was recorded
 * @property {{ commit: string | null, dirty: boolean | null }} git
 * @property {string} database what the Nest targets were given (credentials removed)
 * @property {{ server: string, generator: string } | null} cpus pinning, or null when not pinned
 */

/**
 * @typedef {object} ColdStartRecord one start of one target
 * @property {string} runtime `name@version`
 * @property {string} target
 * @property {number} start 0-based
 * @property {number} readyMs process start to first answer
 * @property {number | null} rssMiB after the first answer; null without the telemetry preload
 * @property {number | null} heapUsedMiB likewise
 * @property {string[]} runtimeFlags what the server ran with: the timed servers' flags
 */
