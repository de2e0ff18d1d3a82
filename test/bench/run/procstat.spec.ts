import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { processCpuNs } from '../../../bench/run/procstat.js';

const MS = 1e6;
const SPIN_MS = 200;

/**
 * A process with a worker thread that spins until the process has used SPIN_MS of CPU (not of wall time: a loaded host
 * gives it less CPU per second), then idles until its parent says "end" to stop the worker.
 */
const CHILD = `
const { Worker } = require('node:worker_threads');
const spin = "const used = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }; while (used() < ${SPIN_MS}); require('node:worker_threads').parentPort.postMessage('spun'); setInterval(() => {}, 1000);";
const worker = new Worker(spin, { eval: true });
worker.once('message', () => process.stdout.write('spun\\n'));
process.stdin.once('data', async () => { await worker.terminate(); process.stdout.write('ended\\n'); });
`;

async function nextLine(child: ChildProcessWithoutNullStreams, line: string) {
  for (;;) {
    const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
    if (chunk.toString().includes(line)) return;
  }
}

describe('processCpuNs', () => {
  let child: ChildProcessWithoutNullStreams;
  afterEach(() => child?.kill());

  it("keeps an ended thread's time in the total, so CPU between two readings is never negative", async () => {
    child = spawn(process.execPath, ['-e', CHILD]);
    const pid = child.pid as number;
    await nextLine(child, 'spun');
    const withWorker = processCpuNs(pid) as number;
    expect(withWorker).toBeGreaterThan(SPIN_MS * 0.8 * MS);

    child.stdin.write('end\n');
    await nextLine(child, 'ended');
    expect(processCpuNs(pid)).toBeGreaterThanOrEqual(withWorker);
  });

  it('never decreases from one reading to the next, with many threads', async () => {
    child = spawn(process.execPath, ['-e', CHILD]);
    await nextLine(child, 'spun');
    const readings = Array.from({ length: 200 }, () => processCpuNs(child.pid as number) as number);
    for (let i = 1; i < readings.length; i++) expect(readings[i]).toBeGreaterThanOrEqual(readings[i - 1]);
  });

  it('is null for a process that is gone', async () => {
    child = spawn(process.execPath, ['-e', '']);
    const pid = child.pid as number;
    await once(child, 'exit');
    expect(processCpuNs(pid)).toBeNull();
  });
});
