import type { ChildProcess } from 'node:child_process';
import { abandonRequests, startBusyServer } from '../support/abandoned-requests.js';
import { drainRoute, NOTABLE_DRAIN_MS } from '../../../bench/run/recover.js';
import { SETTLE_CAP_MS } from '../../../bench/run/settle.js';
import type { ServedTarget } from '../../../bench/run/targets.js';

const CPU_MS_PER_REQUEST = 80;
const PORT = 3295;
/** At CPU_MS_PER_REQUEST each, well over NOTABLE_DRAIN_MS of work left when the clients go. */
const ABANDONED_REQUESTS = 12;
const URL_BASE = `http://127.0.0.1:${PORT}`;
const ROUTE = { method: 'GET', path: '/work', headers: {}, body: undefined };

describe('the drain after a load on a route', () => {
  let server: ChildProcess;
  const exitInfo = () =>
    server.exitCode === null && server.signalCode === null
      ? null
      : { code: server.exitCode, signal: server.signalCode };
  /** The busy server as a run sees a target it started, without the telemetry preload; a drain never stops it. */
  const target = (): ServedTarget => ({
    pid: server.pid ?? null,
    url: URL_BASE,
    startupLine: '',
    stop: () => Promise.reject(new Error('a drain does not stop its server')),
    exited: new Promise(() => {}),
    exitInfo,
    stderrTail: () => '',
    telemetry: null,
    telemetryMissing: 'the busy server runs without it',
  });
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
    server = await startBusyServer(PORT, CPU_MS_PER_REQUEST);
  });
  afterAll(() => server.kill());

  it('names a backlog the server worked through, with how long draining took', async () => {
    await abandonRequests(PORT, ABANDONED_REQUESTS);
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
    await abandonRequests(PORT, 3 * ABANDONED_REQUESTS);
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
