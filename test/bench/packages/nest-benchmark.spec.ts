import { BUILTIN_CONFIG } from '../../../bench/model/builtin-config.js';
import { nestBenchmarkServers, parseWrkSummary } from '../../../bench/packages/nest-benchmark.js';

describe('nestBenchmarkServers', () => {
  it("finds all_output.txt's servers among a config's targets when the run is planned, in its order", () => {
    const servers = nestBenchmarkServers(BUILTIN_CONFIG);
    expect(servers.map(({ server, target }) => [server, target.name])).toEqual([
      ['express', 'raw-express'],
      ['fastify', 'raw-fastify'],
      ['nest', 'nest-express'],
      ['nest-fastify', 'nest-fastify'],
    ]);
    expect(servers[0].target).toBe(BUILTIN_CONFIG.targets.find((target) => target.name === 'raw-express'));
  });

  it('leaves out a server whose target the set does not hold', () => {
    const config = { ...BUILTIN_CONFIG, targets: BUILTIN_CONFIG.targets.filter((t) => t.name !== 'raw-fastify') };
    expect(nestBenchmarkServers(config).map(({ server }) => server)).toEqual(['express', 'nest', 'nest-fastify']);
  });
});

describe('parseWrkSummary', () => {
  it("reads Requests/sec and the socket errors line as Nest's all_output.txt shows them", () => {
    const stdout = [
      'Running 10s test @ http://127.0.0.1:3100/',
      '  8 threads and 1024 connections',
      '  Socket errors: connect 0, read 877, write 0, timeout 0',
      'Requests/sec:  10444.24',
      'Transfer/sec:      2.14MB',
    ].join('\n');
    expect(parseWrkSummary(stdout)).toEqual({
      rps: 10444.24,
      socketErrors: 'connect 0, read 877, write 0, timeout 0',
    });
  });
});
