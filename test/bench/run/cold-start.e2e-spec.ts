import { measureColdStarts } from '../../../bench/run/cold-start.js';
import { targetByName } from '../../../bench/run/targets.js';
import { parseOptions } from '../support/options.js';

const node = {
  spec: 'node',
  name: 'node' as const,
  version: process.versions.node,
  command: process.execPath,
  args: [],
};
const runtimeKey = `node@${process.versions.node}`;
const targets = [targetByName('raw-node'), targetByName('raw-express')];

describe('cold starts', () => {
  it('starts each target afresh as often as asked, in alternating order, with its first answer and memory', async () => {
    const lines: string[] = [];
    const records = await measureColdStarts({
      targets,
      runtime: node,
      runtimeKey,
      options: parseOptions(['--cold-starts', '2', '--port', '3297', '--no-pin']),
      env: {},
      signal: new AbortController().signal,
      log: (line) => lines.push(line),
    });
    expect(lines).toEqual([`${runtimeKey}: 2 cold starts of raw-node and raw-express`]);
    expect(records.map((record) => [record.start, record.target])).toEqual([
      [0, 'raw-node'],
      [0, 'raw-express'],
      [1, 'raw-express'],
      [1, 'raw-node'],
    ]);
    for (const record of records) {
      expect(record.runtime).toBe(runtimeKey);
      expect(record.readyMs).toBeGreaterThan(0);
      expect(record.rssMiB).toBeGreaterThan(10);
      expect(record.heapUsedMiB).toBeGreaterThan(0);
    }
    // every server was stopped: the port is free for the next start's first answer, and now
    await expect(fetch('http://127.0.0.1:3297/')).rejects.toThrow();
  });

  it('starts nothing once the run is interrupted', async () => {
    const interrupted = new AbortController();
    interrupted.abort();
    const records = await measureColdStarts({
      targets,
      runtime: node,
      runtimeKey,
      options: parseOptions(['--cold-starts', '3', '--port', '3297', '--no-pin']),
      env: {},
      signal: interrupted.signal,
      log: () => {},
    });
    expect(records).toEqual([]);
  });
});
