import { parseWrkSummary } from '../../../bench/packages/nest-benchmark.js';

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
