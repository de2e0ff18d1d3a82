// @ts-check
// The heap state every timed server is held in, so that every round of a run measures the same one.

/**
 * V8's memory reducer collects a heap that has gone long without a major GC and shrinks its young generation, which a
 * bare Nest server meets partway through a run, idle between its runs or not (docs/method.md, "A steady state to
 * measure").
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
