import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { symbolizeLibraries } from '../../../bench/profile/symbols.js';

// Deno ships a stripped binary: nm finds nothing in it, yet V8 logs where each embedded builtin lies.
describe('naming native ticks in a binary without a symbol table', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'symbols-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names a tick in a logged embedded builtin Builtins_<name>, as nm names them in node, and leaves others unnamed', async () => {
    const stripped = path.join(dir, 'stripped');
    copyFileSync('/bin/true', stripped); // Debian's coreutils are stripped
    const library = { name: stripped, start: 0x5000_0000, end: 0x5100_0000, slide: 0 };
    const builtins = [
      { start: 0x5000_2000, end: 0x5000_2100, name: 'InterpreterEntryTrampoline' },
      { start: 0x5000_3000, end: 0x5000_3040, name: 'LoadIC' },
    ];
    const tables = await symbolizeLibraries([library], [0x5000_2010, 0x5000_9000], { builtins });
    expect(tables.get(stripped)?.symbols).toEqual([
      { start: 0x5000_2000, end: 0x5000_2100, name: 'Builtins_InterpreterEntryTrampoline' },
    ]);
  });
});
