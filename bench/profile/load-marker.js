// @ts-check
/**
 * Preloaded (`--import`) into a profiled target. Each `mark` the profiler sends on the socket named by
 * BENCH_PROFILE_MARK_SOCKET compiles a tiny script whose name marks the moment in the V8 log: V8 logs every script
 * compilation as a `code-creation` line stamped in the same microsecond time base as the ticks, so the load window can
 * be cut from the log exactly, with no clock to reconcile between processes. It also lets a server without a SIGTERM
 * handler of its own exit cleanly.
 */
import vm from 'node:vm';

import channel from '../run/telemetry/channel.cjs';
import { MARK_SOCKET_ENV, markScriptName } from './load-window.js';

let marks = 0;
const socketPath = process.env[MARK_SOCKET_ENV];
if (socketPath)
  channel.serveBench(socketPath, {
    mark() {
      marks += 1;
      // A fresh source text each time, so V8's compilation cache can never skip the compile (and its log line).
      vm.runInThisContext(`void ${marks}`, { filename: markScriptName(marks) });
      return marks;
    },
  });

// A server that does not handle SIGTERM would die of it before V8 flushes the log; one that does (Nest's shutdown
// hooks, the raw servers) exits its own way, and this listener stands aside.
process.on('SIGTERM', () => {
  if (process.listenerCount('SIGTERM') === 1) process.exit(0);
});
