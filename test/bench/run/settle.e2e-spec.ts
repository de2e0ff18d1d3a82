import type { ChildProcess } from 'node:child_process';
import { abandonRequests, startBusyServer } from '../support/abandoned-requests.js';
import { heldRequests, settle } from '../../../bench/run/settle.js';

const CPU_MS_PER_REQUEST = 40;
const PORT = 3290;
const ABANDONED_REQUESTS = 10;

describe('settling before a timed run', () => {
  let server: ChildProcess;
  const servers = () => [{ name: 'busy', pid: server.pid ?? null, port: PORT }];

  beforeAll(async () => {
    server = await startBusyServer(PORT, CPU_MS_PER_REQUEST);
  });
  afterAll(() => server.kill());

  it('waits until a server has answered the requests its clients abandoned, and says it settled', async () => {
    await abandonRequests(PORT, ABANDONED_REQUESTS);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heldRequests([PORT]).get(PORT)).toBeGreaterThan(0);
    const settling = await settle(servers(), { capMs: 10_000 });
    expect(settling.settled).toBe(true);
    expect(settling.inFlight).toBe(0);
    // the backlog is CPU_MS_PER_REQUEST per request, one at a time
    expect(settling.waitedMs).toBeGreaterThanOrEqual(((ABANDONED_REQUESTS - 2) * CPU_MS_PER_REQUEST) / 2);
    expect(heldRequests([PORT]).get(PORT)).toBe(0);
  });

  it('starts anyway at the cap, flagged unsettled, naming the server that still held requests', async () => {
    await abandonRequests(PORT, ABANDONED_REQUESTS);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const settling = await settle(servers(), { capMs: 60 });
    expect(settling.settled).toBe(false);
    expect(settling.inFlight).toBeGreaterThan(0);
    expect(settling.busiest).toBe('busy');
    await settle(servers(), { capMs: 10_000 });
  });

  it('settles at once on an idle server', async () => {
    const settling = await settle(servers());
    expect(settling).toMatchObject({ settled: true, inFlight: 0 });
    expect(settling.waitedMs).toBeLessThan(500);
  });
});
