// @ts-check
/**
 * Preloaded (`--import`) into a profiled target. Each SIGUSR2 from the profiler compiles a tiny script whose
 * name marks the moment in the V8 log: V8 logs every script compilation as a `code-creation` line stamped in the
 * same microsecond time base as the ticks, so the load window can be cut from the log exactly, with no clock to
 * reconcile between processes.
 */
import vm from 'node:vm';

import { LOAD_MARK_SIGNAL, markScriptName } from './load-window.js';

let marks = 0;
process.on(LOAD_MARK_SIGNAL, () => {
  marks += 1;
  // A fresh source text each time, so V8's compilation cache can never skip the compile (and its log line).
  vm.runInThisContext(`void ${marks}`, { filename: markScriptName(marks) });
});
