import path from 'node:path';
import { loadWindow } from '../../../bench/profile/process-log.js';
import { scanLog } from '../../../bench/profile/v8-log.js';
import { rangeFlag } from '../../../bench/profile/tick-processor.js';

// Lines kept from a real raw-fastify profile: header, libraries, a few ticks, and the two load marks.
const TRIMMED_LOG = path.join(import.meta.dirname, 'fixtures', 'raw-fastify-hello.trimmed.log');

describe('scanning a V8 log', () => {
  it("finds the load marks in the log's own time base", async () => {
    const scan = await scanLog(TRIMMED_LOG);
    expect(scan.marks).toEqual([
      { name: 'load-start', timeUs: 334306 },
      { name: 'load-end', timeUs: 5349908 },
    ]);
    expect(loadWindow(scan)).toEqual({ startUs: 334306, endUs: 5349908 });
  });

  it('lists every mapping of each library and every address a tick touched', async () => {
    const scan = await scanLog(TRIMMED_LOG);
    expect(scan.v8Version).toBe('11.3.244.8');
    expect(scan.libraries.map((l) => l.name)).toEqual([
      '/usr/bin/node',
      '/usr/bin/node',
      '/usr/bin/node',
      '/usr/lib/x86_64-linux-gnu/libc.so.6',
    ]);
    expect(scan.libraries[1]).toEqual({ name: '/usr/bin/node', start: 0x400000, end: 0x25fe000, slide: 0 });
    expect(scan.ticks).toBe(9);
    // pc, the external callback (0xd3ab70) and return addresses all count; the empty "0x0" does not.
    expect(scan.tickAddresses).toContain(0x10dcddf);
    expect(scan.tickAddresses).toContain(0xd3ab70);
    expect(scan.tickAddresses).toContain(0x7f9083076369);
    expect(scan.tickAddresses).not.toContain(0);
    expect([...scan.tickAddresses].sort((a, b) => a - b)).toEqual(scan.tickAddresses);
  });

  it('falls back to the whole log when it has no marks (a log recorded by hand)', () => {
    expect(
      loadWindow({
        v8Version: null,
        libraries: [],
        tickAddresses: [],
        builtins: [],
        marks: [],
        ticks: 3,
        tickTimesUs: [1, 2, 3],
        lastTickUs: 3,
      }),
    ).toBeNull();
  });

  it('hands the tick processor the window in whole milliseconds, rounded inwards', () => {
    expect(rangeFlag({ startUs: 334306, endUs: 5349908 })).toEqual(['--range=335,5349']);
    expect(rangeFlag(null)).toEqual([]);
  });
});
