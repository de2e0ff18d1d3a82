// @ts-check
/**
 * One streaming pass over a V8 `--prof` log for what node's tick processor does not give us: the libraries and the
 * native addresses the ticks hit (so only those get symbolised), the embedded builtins V8 logged, the load marks, and
 * the tick time span.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

import { parseMarkLine } from './load-window.js';

/**
 * @typedef {{ name: string, start: number, end: number, slide: number }} SharedLibrary
 * @typedef {{
 *   v8Version: string | null,
 *   libraries: SharedLibrary[],
 *   tickAddresses: number[],
 *   builtins: { start: number, end: number, name: string }[],
 *   marks: { name: string, timeUs: number }[],
 *   ticks: number,
 *   tickTimesUs: number[],
 *   lastTickUs: number | null,
 * }} LogScan
 */

// tick,<pc>,<time µs>,<is external callback>,<tos or callback>,<vm state>,<return address>...
const TICK_TIME = 2;
const TICK_FIRST_ADDRESS_FIELDS = [1, 4];
const TICK_FIRST_FRAME = 6;

/**
 * @param {string} file
 * @returns {Promise<LogScan>}
 */
export async function scanLog(file) {
  /** @type {LogScan} */
  const scan = {
    v8Version: null,
    libraries: [],
    tickAddresses: [],
    builtins: [],
    marks: [],
    ticks: 0,
    tickTimesUs: [],
    lastTickUs: null,
  };
  const addresses = new Set();
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.startsWith('tick,')) {
      const fields = line.split(',');
      const time = Number(fields[TICK_TIME]);
      scan.ticks += 1;
      scan.tickTimesUs.push(time);
      scan.lastTickUs = time;
      for (const i of TICK_FIRST_ADDRESS_FIELDS) addresses.add(Number(fields[i]));
      for (let i = TICK_FIRST_FRAME; i < fields.length; i += 1) addresses.add(Number(fields[i]));
    } else if (line.startsWith('shared-library,')) {
      const [, name, start, end, slide] = line.split(',');
      scan.libraries.push({ name, start: Number(start), end: Number(end), slide: Number(slide ?? 0) });
    } else if (line.startsWith('code-creation,Builtin,')) {
      // code-creation,Builtin,<kind>,<time>,<address>,<size>,<name>
      const [, , , , start, size, name] = line.split(',');
      scan.builtins.push({ start: Number(start), end: Number(start) + Number(size), name });
    } else if (line.startsWith('code-creation,Script,')) {
      const mark = parseMarkLine(line);
      if (mark) scan.marks.push(mark);
    } else if (line.startsWith('v8-version,')) {
      scan.v8Version = line.split(',').slice(1, 5).join('.');
    }
  }
  addresses.delete(0);
  scan.tickAddresses = [...addresses].sort((a, b) => a - b);
  return scan;
}
