import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PortInUseError, startTarget, targetByName } from '../../../bench/run/targets.js';
import { UsageError } from '../../../bench/errors.js';
import { readResults } from '../../../bench/model/results.js';
import { CLI, isAlive, resultsSoFar, runNode, startNode, waitFor } from '../support/run-node.js';

const node = {
  spec: 'node',
  name: 'node' as const,
  version: process.versions.node,
  command: process.execPath,
  args: [],
};

describe('starting and stopping a target', () => {
  it('resolves once the server answers, and stop() ends it through its normal exit path', async () => {
    const running = await startTarget(targetByName('raw-node'), { runtime: node, port: 3181 });
    const response = await fetch(`${running.url}/`);
    expect(await response.text()).toBe('Hello World!');
    expect(await running.stop()).toEqual({ code: 0, signal: null });
    expect(isAlive(running.pid)).toBe(false);
  });

  it('without a port, listens on a free one the system hands out', async () => {
    const running = await startTarget(targetByName('raw-node'), { runtime: node, port: null });
    try {
      expect(Number(new URL(running.url).port)).toBeGreaterThan(0);
      expect(await (await fetch(`${running.url}/`)).text()).toBe('Hello World!');
    } finally {
      await running.stop();
    }
  });

  it('refuses a pinned port that is already in use as a usage error, naming the port and the target', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(3182, '127.0.0.1', resolve));
    try {
      const refused = startTarget(targetByName('raw-fastify'), { runtime: node, port: 3182 });
      await expect(refused).rejects.toThrow('port 3182 (for raw-fastify) is already in use on 127.0.0.1');
      await expect(refused).rejects.toBeInstanceOf(PortInUseError);
      await expect(refused).rejects.toBeInstanceOf(UsageError);
    } finally {
      blocker.close();
    }
  });

  it('the CLI says a --port in use in one line and exits 2', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(3184, '127.0.0.1', resolve));
    try {
      const run = await runNode([
        CLI,
        '--runtime',
        'node',
        '--targets',
        'raw-node',
        '--scenarios',
        'hello',
        '--quick',
        '--port',
        '3184',
        '--out',
        mkdtempSync(join(tmpdir(), 'bench-port-')),
      ]);
      expect(run.status).toBe(2);
      expect(run.stderr.trim().split('\n').at(-1)).toBe(
        'port 3184 (for raw-node) is already in use on 127.0.0.1; stop what listens there, or leave out --port to use free ports',
      );
    } finally {
      blocker.close();
    }
  }, 30_000);

  it('reports a target that dies before answering with its exit code and its error line', async () => {
    const crashing = { ...node, args: ['-e', 'console.error("Error: cannot open the database"); process.exit(3)'] };
    await expect(startTarget(targetByName('raw-node'), { runtime: crashing, port: 3183 })).rejects.toThrow(
      'raw-node exited (exit code 3) before answering on port 3183: Error: cannot open the database',
    );
  });
});

describe('the bench when things go wrong mid-run', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bench-lifecycle-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('marks the runs of a target that died as failed, with its signal, measures the rest and exits 1', async () => {
    const { done } = startNode([
      CLI,
      '--runtime',
      'node',
      '--targets',
      'raw-node,raw-fastify',
      '--scenarios',
      'hello',
      '--rounds',
      '4',
      '--duration',
      '0.5',
      '--warmup',
      '0',
      '--out',
      dir,
      '--port',
      '3185',
    ]);
    const pid = await waitFor(() => {
      const sofar = resultsSoFar(dir);
      return sofar?.runs.length ? sofar.started.find((s) => s.target === 'raw-node')?.pid : null;
    }, 'the first run');
    process.kill(pid, 'SIGKILL');
    const run = await done;

    expect(run.status).toBe(1);
    const results = readResults(dir);
    expect(results.complete).toBe(true);
    const failed = results.runs.filter((r) => r.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(
      failed.every(
        (r) => r.target === 'raw-node' && r.failure?.signal === 'SIGKILL' && /exited/.test(r.failure.reason),
      ),
    ).toBe(true);
    expect(results.runs.filter((r) => r.target === 'raw-fastify').every((r) => r.status === 'ok')).toBe(true);
    expect(results.runs.filter((r) => r.target === 'raw-fastify')).toHaveLength(4);
    expect(run.stdout).toContain('### Skipped and failed');
  }, 60_000);

  it('on Ctrl-C stops every server, writes partial results marked incomplete and exits 130', async () => {
    const { child, done } = startNode([
      CLI,
      '--runtime',
      'node',
      '--targets',
      'raw-node,raw-express',
      '--scenarios',
      'hello',
      '--rounds',
      '100',
      '--duration',
      '0.5',
      '--warmup',
      '0',
      '--out',
      dir,
      '--port',
      '3187',
    ]);
    const started = await waitFor(() => {
      const sofar = resultsSoFar(dir);
      return sofar?.runs.length ? sofar.started : null;
    }, 'the first run');
    child.kill('SIGINT');
    const run = await done;

    expect(run.status).toBe(130);
    const results = readResults(dir);
    expect(results.complete).toBe(false);
    expect(results.stopReason).toBe('interrupted (SIGINT)');
    expect(results.runs.length).toBeGreaterThan(0);
    expect(results.runs.length).toBeLessThan(200);
    for (const { pid } of started) expect(isAlive(pid!)).toBe(false);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain('**Incomplete results**: interrupted (SIGINT)');
  }, 60_000);
});
