// @ts-check
// The heap state every timed server is held in, so that every round of a run measures the same one.

/**
 * V8's memory reducer collects a heap that has gone long without a major GC and shrinks its young generation, which a
 * bare Nest server meets partway through a run, idle between its runs or not (docs/method.md, "A steady state to
 * measure").
 */
const V8_STEADY_STATE_FLAGS = ['--no-memory-reducer'];

/**
 * The runtime flags that hold a server in that state, as node spells them (Deno gets them as --v8-flags); none for
 * Bun, whose JavaScriptCore has no memory reducer of V8's kind.
 * @param {import('../runtimes/runtimes.js').Runtime} runtime
 * @param {{ memoryReducer: boolean }} options --memory-reducer leaves V8's default on
 * @returns {string[]}
 */
export function steadyStateArgs(runtime, { memoryReducer }) {
  if (memoryReducer || runtime.name === 'bun') return [];
  return V8_STEADY_STATE_FLAGS;
}
