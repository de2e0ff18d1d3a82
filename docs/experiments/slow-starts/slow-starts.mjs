// Issue 42 §5: does a start land in a slower state for its whole life, and what differs in the process that does?
// Each start spawns two servers of one build (a, then b) on CPU 0, as the A/A run does, primes each alone (the order
// alternating by start, as the bench's priming does), then loads both at once from two wrk processes on CPU 1 for
// `rounds` rounds. Per server and start: CPU µs per request over the rounds (its own CPU, from /proc, so a scheduler
// that favours one server cannot make it), and what V8's tracing says it compiled and threw away during the rounds.
//
//   node docs/experiments/slow-starts/slow-starts.mjs NODE_BINARY dist/main.js [starts] [rounds] [round seconds]
//
// Needs `npm run build` and wrk. GET / (hello, bare app), 50 connections per server.
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import wrk from '../../../bench/run/drivers/wrk.js';
import { processCpuNs } from '../../../bench/run/procstat.js';
import { tracedCounts } from '../v8-trace.mjs';

const [node = process.execPath, entry = 'dist/main.js', startsArg = '20', roundsArg = '12', roundArg = '0.5'] =
  process.argv.slice(2);
const PRIME_REQUESTS = 30_000;
const CONNECTIONS = 50;

/** A server of the build, traced; its counters move as V8 reports compiles and deoptimizations. */
function server(name, port) {
  const child = spawn('taskset', ['-c', '0', node, '--no-memory-reducer', '--trace-opt', '--trace-deopt', entry], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      JWT_SECRET: 'an-a-a-run-signs-no-token-it-checks',
      REQUEST_LOG_FILE: join(tmpdir(), `slow-starts-${process.pid}-${name}.log`),
    },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const { counts, ready } = tracedCounts(child.stdout);
  return { name, port, child, counts, ready };
}

const load = (target, durationSec) =>
  wrk.run({
    url: `http://127.0.0.1:${target.port}/`,
    method: 'GET',
    headers: {},
    connections: CONNECTIONS,
    durationSec,
    expectedStatus: 200,
    pipelining: 1,
    cpu: '1',
  });

async function prime(target) {
  for (let served = 0, runs = 0; served < PRIME_REQUESTS && runs < 6; runs++)
    served += (await load(target, 1)).requests;
}

console.log(
  `${node} ${entry}: ${startsArg} starts, ${roundsArg} rounds of ${roundArg} s with both loaded at once, GET / (bare)`,
);
console.log(
  '| start | a µs/req | b µs/req | a ÷ b | a rounds (µs/req) | b rounds (µs/req) | a TurboFan / Maglev / deopts | b TurboFan / Maglev / deopts |',
);
console.log('| ---: | ---: | ---: | ---: | --- | --- | --- | --- |');
for (let start = 0; start < Number(startsArg); start++) {
  const pair = [server('a', 4301), server('b', 4302)];
  await Promise.all(pair.map((s) => s.ready));
  for (const target of start % 2 ? [...pair].reverse() : pair) await prime(target);
  const before = pair.map((s) => ({ ...s.counts }));
  const totals = pair.map(() => ({ cpuNs: 0, requests: 0, rounds: /** @type {number[]} */ ([]) }));
  for (let round = 0; round < Number(roundsArg); round++) {
    const cpuBefore = pair.map((s) => processCpuNs(s.child.pid));
    const loads = await Promise.all(pair.map((s) => load(s, Number(roundArg))));
    pair.forEach((s, i) => {
      const cpuNs = processCpuNs(s.child.pid) - cpuBefore[i];
      totals[i].cpuNs += cpuNs;
      totals[i].requests += loads[i].requests;
      totals[i].rounds.push(Math.round(cpuNs / 1000 / loads[i].requests));
    });
  }
  await sleep(50); // the trace's last lines
  const usPerRequest = totals.map((t) => t.cpuNs / 1000 / t.requests);
  const traced = pair.map((s, i) => ['turbofan', 'maglev', 'deopt'].map((k) => s.counts[k] - before[i][k]).join(' / '));
  console.log(
    `| ${start} | ${usPerRequest[0].toFixed(1)} | ${usPerRequest[1].toFixed(1)} | ${(usPerRequest[0] / usPerRequest[1]).toFixed(2)} | ${totals[0].rounds.join(' ')} | ${totals[1].rounds.join(' ')} | ${traced[0]} | ${traced[1]} |`,
  );
  for (const s of pair) s.child.kill();
  await Promise.all(pair.map((s) => new Promise((resolve) => s.child.once('exit', resolve))));
}
process.exit(0);
