// Where a fresh server's warm-up goes, run by run: its CPU per request beside what V8's tracing says it compiled and
// threw away in the same run. One server alone on CPU 0, the bench's wrk driver on CPU 1, GET / (hello, bare app).
//
//   node docs/experiments/jit-warm-up/jit-warm-up.mjs NODE_BINARY dist/main.js [runs] [run seconds]
//
// Counts per run: Maglev and TurboFan compiles that completed, deoptimizations. Needs `npm run build` and wrk.
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import wrk from '../../../bench/run/drivers/wrk.js';
import { processCpuNs } from '../../../bench/run/procstat.js';
import { tracedCounts } from '../v8-trace.mjs';

const [node = process.execPath, entry = 'dist/main.js', runsArg = '24', runArg = '0.25'] = process.argv.slice(2);
const PORT = 4201;
const route = process.env.ROUTE ?? '/';
const stack = process.env.APP_STACK ?? 'bare';
const connections = Number(process.env.CONNECTIONS ?? 50);
const v8Flags = (process.env.V8_FLAGS ?? '').split(' ').filter(Boolean);
const child = spawn(
  'taskset',
  ['-c', '0', node, '--no-memory-reducer', ...v8Flags, '--trace-opt', '--trace-deopt', entry],
  {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      JWT_SECRET: 'a-warm-up-trace-signs-nothing',
      APP_STACK: stack,
      REQUEST_LOG_FILE: join(tmpdir(), `jit-warm-up-${process.pid}.log`),
    },
    stdio: ['ignore', 'pipe', 'ignore'],
  },
);
process.on('exit', () => child.kill());
const { counts, ready } = tracedCounts(child.stdout);
await ready;

console.log(
  `${node} ${[...v8Flags, entry].join(' ')}: ${runsArg} runs of ${runArg} s, ${connections} connections, GET ${route} (${stack})`,
);
console.log('| run | req/s | CPU µs per request | Maglev compiles | TurboFan compiles | deopts |');
console.log('| ---: | ---: | ---: | ---: | ---: | ---: |');
for (let run = 1; run <= Number(runsArg); run++) {
  const before = { ...counts };
  const cpuBefore = processCpuNs(child.pid);
  const load = await wrk.run({
    url: `http://127.0.0.1:${PORT}${route}`,
    method: 'GET',
    headers: stack === 'bare' ? {} : { 'accept-encoding': 'gzip' },
    connections,
    durationSec: Number(runArg),
    expectedStatus: 200,
    pipelining: 1,
    cpu: '1',
  });
  const cpuUs = (processCpuNs(child.pid) - cpuBefore) / 1000 / load.requests;
  await sleep(50); // the trace's last lines of the run
  console.log(
    `| ${run} | ${Math.round(load.rps)} | ${cpuUs.toFixed(0)} | ${counts.maglev - before.maglev} | ${counts.turbofan - before.turbofan} | ${counts.deopt - before.deopt} |`,
  );
}
process.exit(0);
