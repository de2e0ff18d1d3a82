import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { drainRoute, NOTABLE_DRAIN_MS } from '../../bench/run/recover.js';
import { SETTLE_CAP_MS } from '../../bench/run/settle.js';

const BUSY_SERVER = fileURLToPath(new URL('./support/busy-server.js', import.meta.url));
const CPU_MS_PER_REQUEST = 80;
const PORT = 3295;
/** At CPU_MS_PER_REQUEST each, well over NOTABLE_DRAIN_MS of work left when the clients go. */
const ABANDONED_REQUESTS = 12;
const URL_BASE = `http://127.0.0.1:${PORT}`;
const ROUTE = { method: 'GET', path: '/work', headers: {}, body: undefined };

/** Sends one request on each of `count` connections and closes them at once, as a load generator does when its run ends. */
async function abandonRequests(count: number) {
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = connect(PORT, '127.0.0.1', () => {
            socket.end('GET /work HTTP/1.1\r\nHost: localhost\r\n\r\n');
            resolve();
          });
          socket.on('error', reject);
        }),
    ),
  );
}

describe('the drain after a load on a route', () => {
  let server: ChildProcess;
  const target = () =>
    ({
      pid: server.pid ?? null,
      url: URL_BASE,
      exitInfo: () =>
        server.exitCode === null && server.signalCode === null
          ? null
          : { code: server.exitCode, signal: server.signalCode },
      stderrTail: () => '',
      telemetry: null,
    }) as any;
  const drain = (aloneMs: number) =>
    drainRoute({
      target: target(),
      servers: [{ name: 'busy', pid: server.pid ?? null, port: PORT }],
      aloneMs,
      inFlight: ABANDONED_REQUESTS,
      probes: [ROUTE],
      lastAnswer: null,
    });

  beforeAll(async () => {
    server = spawn(process.execPath, [BUSY_SERVER, String(CPU_MS_PER_REQUEST)], {
      env: { ...process.env, PORT: String(PORT) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise((resolve) => server.stdout?.once('data', resolve));
  });
  afterAll(() => server.kill());

  it('names a backlog the server worked through, with how long draining took', async () => {
    await abandonRequests(ABANDONED_REQUESTS);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const drained = await drain(CPU_MS_PER_REQUEST);
    expect(drained).toMatchObject({ outcome: 'backlog', heldAfter: 0 });
    expect(drained!.heldAtEnd).toBeGreaterThan(0);
    expect(drained!.drainedMs).toBeGreaterThanOrEqual(NOTABLE_DRAIN_MS);
    expect(drained!.probes).toEqual([expect.objectContaining({ request: 'GET /work', answered: true, status: 200 })]);
  });

  it('says nothing after a load that left the server clear', async () => {
    expect(await drain(CPU_MS_PER_REQUEST)).toBeNull();
  });

  it('calls a server that still holds requests at the cap hung, with what it held', async () => {
    // a route said to take 1 ms alone gets the shortest cap, the settle cap: this backlog is longer than that
    expect(3 * ABANDONED_REQUESTS * CPU_MS_PER_REQUEST).toBeGreaterThan(SETTLE_CAP_MS);
    await abandonRequests(3 * ABANDONED_REQUESTS);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const drained = await drain(1);
    expect(drained).toMatchObject({ outcome: 'hung' });
    expect(drained!.heldAfter).toBeGreaterThan(0);
    await drain(CPU_MS_PER_REQUEST);
  });

  it('calls a server that exited crashed, with its exit', async () => {
    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    const drained = await drain(CPU_MS_PER_REQUEST);
    expect(drained).toMatchObject({ outcome: 'crashed', exit: { exitCode: null, signal: 'SIGKILL' }, probes: [] });
  });
});
