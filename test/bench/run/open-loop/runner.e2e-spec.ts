import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { loadDriver } from '../../../../bench/run/drivers/registry.js';
import { startOpenLoopGenerator, type OpenLoopGenerator } from '../../../../bench/run/open-loop/runner.js';

const STALL_MS = 50;
const STALL_EVERY_MS = 500;
const PORT = 3185;
const RUN_SEC = 3;
const RATE = 500;
/** Half the stall: open-loop requests that arrive during a stall wait for its remainder, up to all of it. */
const STALL_SHOWS_MS = STALL_MS / 2;
const SERVER = fileURLToPath(new URL('../../support/stalling-server.js', import.meta.url));

describe(`a server that stalls for ${STALL_MS} ms every ${STALL_EVERY_MS} ms`, () => {
  let server: ChildProcess;
  let generator: OpenLoopGenerator;

  beforeAll(async () => {
    server = spawn(process.execPath, [SERVER, String(PORT), String(STALL_MS), String(STALL_EVERY_MS)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await once(server.stdout!, 'data');
    generator = startOpenLoopGenerator({ cpu: null });
  });

  afterAll(async () => {
    await generator.stop();
    server.kill();
  });

  it('shows in the open-loop p99, which a closed-loop run at one connection under-counts', async () => {
    const request = { method: 'GET', headers: {}, body: undefined };
    const openLoop = await generator.run({
      ...request,
      origin: `http://127.0.0.1:${PORT}`,
      path: '/',
      expectedStatus: 200,
      ratePerSec: RATE,
      durationSec: RUN_SEC,
      connections: 10,
      serverPid: server.pid!,
    });
    const autocannon = await loadDriver('autocannon');
    const closedLoop = await autocannon.run({
      ...request,
      url: `http://127.0.0.1:${PORT}/`,
      connections: 1,
      pipelining: 1,
      expectedStatus: 200,
      durationSec: RUN_SEC,
    });
    const both = `open-loop p99 ${openLoop.latencyMs.p99} ms at ${RATE} req/s, closed-loop p99 ${closedLoop.latencyMs.p99} ms`;

    expect(openLoop.completed, both).toBe(RATE * RUN_SEC);
    expect(openLoop.latencyMs.p99, both).toBeGreaterThanOrEqual(STALL_SHOWS_MS);
    expect(closedLoop.latencyMs.p99, both).toBeLessThan(STALL_SHOWS_MS);
    // the server's CPU, read by the generator at the schedule's ends, includes the stalls it spent spinning
    expect(openLoop.serverCpuNs, both).toBeGreaterThan(0);
  });
});
