// @ts-check
// The state every timed server is held in: the one a server under constant traffic is in, whatever the bench's idle
// time between a server's runs would otherwise make of it.

/**
 * V8's memory reducer collects a heap that has gone long without a major GC and shrinks its young generation to the
 * minimum; a server the bench leaves idle between its runs meets that mid-run, one under constant traffic does not
 * (docs/method.md, "A steady state to measure").
 */
const V8_STEADY_STATE_FLAGS = ['--no-memory-reducer'];

/**
 * The runtime flags that hold a server in that state; none for a runtime without V8's memory reducer.
 * @param {import('../runtimes/runtimes.js').Runtime} runtime
 * @param {{ memoryReducer: boolean }} options --memory-reducer leaves V8's default on
 * @returns {string[]}
 */
export function steadyStateArgs(runtime, { memoryReducer }) {
  if (memoryReducer || runtime.name !== 'node') return [];
  return V8_STEADY_STATE_FLAGS;
}
