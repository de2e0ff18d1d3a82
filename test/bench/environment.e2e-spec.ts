import { spawnSync } from 'node:child_process';
import { availableParallelism, cpus } from 'node:os';

const ENVIRONMENT_MODULE = new URL('../../bench/bin/environment.js', import.meta.url).href;

describe('the environment a run records', () => {
  it("counts the machine's CPUs even when the bench itself is pinned to one of them", () => {
    const script = `
      import { availableParallelism } from 'node:os';
      const { collectEnvironment } = await import(${JSON.stringify(ENVIRONMENT_MODULE)});
      const env = collectEnvironment({ runtimes: [], driverVersion: 'none', generators: ['none'], cpus: null });
      console.log(JSON.stringify({ count: env.cpu.count, ownCpus: availableParallelism() }));`;
    const pinned = spawnSync('taskset', ['-c', '0', process.execPath, '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(pinned.stderr).toBe('');
    const { count, ownCpus } = JSON.parse(pinned.stdout);
    expect(ownCpus).toBe(1);
    expect(count).toBe(cpus().length);
    expect(count).toBeGreaterThanOrEqual(availableParallelism());
  });
});
