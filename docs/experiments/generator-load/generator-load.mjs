// Does work on the generator's CPU slow the server on the other one? Nest-Express on CPU 0 at a fixed offered rate
// from httperf (open loop, C) on CPU 1, its CPU per request measured with CPU 1 otherwise idle and with a spinning
// process on CPU 1 taking what httperf leaves, alternating, so the host's drift hits both alike.
//   node docs/experiments/generator-load/generator-load.mjs NODE_BINARY [RATE] [PAIRS]
// Prints one JSON line per run and a summary; run it alone (flock /work/.measure.lock).
import { execFileSync, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

const [node = process.execPath, rateText = '3000', pairsText = '6'] = process.argv.slice(2);
const RATE = Number(rateText);
const PAIRS = Number(pairsText);
const PORT = 3399;
const RUN_SEC = 4;
/** Requests per connection, one after another: keep-alive, as the bench's generators send them. */
const CALLS_PER_CONNECTION = 10;
const SERVER_CPU = '0';
const GENERATOR_CPU = '1';

const cpuNs = (pid) =>
  execFileSync('sh', ['-c', `cat /proc/${pid}/task/*/schedstat`], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .reduce((sum, line) => sum + Number(line.split(' ')[0]), 0);

const server = spawn('taskset', ['-c', SERVER_CPU, node, '--no-memory-reducer', 'dist/main.js'], {
  env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
for (let i = 0; i < 100; i++) {
  try {
    if ((await fetch(`http://127.0.0.1:${PORT}/`)).ok) break;
  } catch {
    await sleep(100);
  }
}

function httperf(seconds) {
  const connections = Math.round((RATE * seconds) / CALLS_PER_CONNECTION);
  const out = execFileSync(
    'taskset',
    [
      '-c',
      GENERATOR_CPU,
      'nice',
      '-n',
      '-5',
      'httperf',
      '--server',
      '127.0.0.1',
      '--port',
      String(PORT),
      '--uri',
      '/',
      '--rate',
      String(RATE / CALLS_PER_CONNECTION),
      '--num-conns',
      String(connections),
      '--num-calls',
      String(CALLS_PER_CONNECTION),
      '--timeout',
      '5',
    ],
    { encoding: 'utf8' },
  );
  const replies = Number(/Total: connections \d+ requests \d+ replies (\d+)/.exec(out)?.[1]);
  const errors = Number(/Errors: total (\d+)/.exec(out)?.[1]);
  return { replies, errors };
}

async function run(spinning) {
  const spinner = spinning
    ? spawn('taskset', ['-c', GENERATOR_CPU, 'nice', '-n', '19', node, '-e', 'for(;;){}'], { stdio: 'ignore' })
    : null;
  await sleep(200);
  const before = cpuNs(server.pid);
  const { replies, errors } = httperf(RUN_SEC);
  const usPerRequest = (cpuNs(server.pid) - before) / 1000 / replies;
  spinner?.kill();
  await sleep(300);
  return { spinning, replies, errors, usPerRequest: Math.round(usPerRequest * 10) / 10 };
}

httperf(RUN_SEC); // warm-up
const ratios = [];
for (let pair = 0; pair < PAIRS; pair++) {
  const [first, second] = pair % 2 === 0 ? [false, true] : [true, false];
  const a = await run(first);
  const b = await run(second);
  console.log(JSON.stringify(a));
  console.log(JSON.stringify(b));
  const [idle, busy] = first ? [b, a] : [a, b];
  ratios.push(busy.usPerRequest / idle.usPerRequest);
}
server.kill();
ratios.sort((x, y) => x - y);
console.log(
  JSON.stringify({
    node,
    rate: RATE,
    pairs: PAIRS,
    busyOverIdle: ratios.map((r) => Math.round(r * 1000) / 1000),
    median: ratios[Math.floor(ratios.length / 2)],
  }),
);
