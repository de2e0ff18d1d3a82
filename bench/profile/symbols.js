// @ts-check
/**
 * Names the native code (node's C++, V8's embedded builtins, libc…) that a profile's ticks hit, correctly, for node's
 * own tick processor to use through the nm-shim.sh stand-in.
 *
 * Node's tick processor gets these names wrong in two ways (Node 20.20, lib/internal/v8_prof_polyfill.js and
 * deps/v8/tools/tickprocessor.mjs): it reads `nm` through spawnSync's default 1 MiB buffer, but nm prints ~15 MB for
 * the ~100 MB node binary, so the list is silently cut; and it places every symbol at
 * library start + (symbol address + .text file offset - .text address), which is right for a position-independent
 * library but puts a non-PIE executable's symbols 4 MB (its 0x400000 base) away from where they run. Here nm is
 * streamed without a limit, each symbol is placed at its run-time address, and only the symbols the ticks hit are kept,
 * which keeps the shim's output far below that buffer. A binary without a symbol table (Deno's is stripped) still
 * names its embedded builtins: V8 logs where each one lies, and those ticks get the name nm would give, Builtins_<name>.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** @typedef {import('./v8-log.js').SharedLibrary} SharedLibrary */
/** @typedef {{ start: number, size: number | null, name: string }} NmSymbol */

/** nm's function symbols, the pattern V8's LinuxCppEntriesProvider uses: address, optional size, type, name. */
const NM_FUNCTION_LINE = /^([0-9a-fA-F]{8,16}) ([0-9a-fA-F]{8,16} )?[tTwW] (.*)$/;
/** V8 logs these pseudo-libraries; they have no file to read symbols from. */
const PSEUDO_LIBRARY = /^\[.*\]$|^[0-9a-f]+-[0-9a-f]+$/;
const ADDRESS_DIGITS = 16;
const MISSING_BINUTILS = 'needs nm and objdump from binutils (apt-get install binutils)';

/**
 * @param {string} command
 * @param {string[]} args
 * @param {(line: string) => void} onLine
 */
function streamLines(command, args, onLine) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', onLine);
    child.on('error', (error) =>
      reject(new Error(`profile processing ${MISSING_BINUTILS}: ${command}: ${error.message}`)),
    );
    // A library without a symbol table ("no symbols") is not an error: its ticks stay attributed to the library.
    child.on('close', () => resolve(stderr));
  });
}

/** @typedef {{ name: string, start: number, end: number, fileOffset: number }} Section */

/**
 * The library's sections (objdump -h), at their link-time addresses.
 * @param {string} file
 * @param {string} objdump
 * @returns {Promise<Section[]>}
 */
async function readSections(file, objdump) {
  /** @type {Section[]} */
  const sections = [];
  await streamLines(objdump, ['-h', file], (line) => {
    // "  12 .text         01a8bca0  0000000000b72000  0000000000b72000  00772000  2**13"
    const [index, name, size, vma, , fileOffset] = line.trim().split(/\s+/);
    if (!/^\d+$/.test(index) || !fileOffset) return;
    const start = Number.parseInt(vma, 16);
    sections.push({ name, start, end: start + Number.parseInt(size, 16), fileOffset: Number.parseInt(fileOffset, 16) });
  });
  return sections;
}

/**
 * Where the library's symbols run relative to their nm addresses: library start + (.text file offset - .text
 * address). The library start V8 logs is the mapping's address minus its file offset, so this is the load bias —
 * zero for a non-PIE executable, whose nm addresses are already run-time addresses.
 * @param {SharedLibrary} library
 * @param {Section[]} sections
 */
function loadBias(library, sections) {
  const text = sections.find((s) => s.name === '.text');
  return text ? library.start + text.fileOffset - text.start : library.start;
}

/**
 * Static and dynamic symbol tables merged, sorted by address, one symbol per address, each with an end.
 * @param {string} file
 * @param {string} nm
 * @param {Section[]} sections
 * @returns {Promise<{ start: number, end: number, name: string }[]>}
 */
async function functionSymbols(file, nm, sections) {
  /** @type {NmSymbol[]} */
  const symbols = [];
  const collect = (/** @type {string} */ line) => {
    const match = NM_FUNCTION_LINE.exec(line);
    if (match) {
      symbols.push({
        start: Number.parseInt(match[1], 16),
        size: match[2] ? Number.parseInt(match[2], 16) : null,
        name: match[3],
      });
    }
  };
  await streamLines(nm, ['-C', '-n', '-S', file], collect);
  await streamLines(nm, ['-C', '-n', '-S', '-D', file], collect);
  symbols.sort((a, b) => a.start - b.start || (b.size ?? -1) - (a.size ?? -1));
  /** @type {{ start: number, end: number, name: string }[]} */
  const merged = [];
  for (let i = 0; i < symbols.length; i += 1) {
    const symbol = symbols[i];
    if (merged.length && merged[merged.length - 1].start === symbol.start) continue;
    let end = symbol.start + (symbol.size ?? 0);
    if (!symbol.size) {
      // As V8 does for a symbol without a size, it runs up to the next symbol — but never past the end of its
      // section (an _init in .init must not swallow the .plt stubs after it).
      let j = i + 1;
      while (j < symbols.length && symbols[j].start === symbol.start) j += 1;
      const next = symbols[j];
      const section = sections.find((s) => symbol.start >= s.start && symbol.start < s.end);
      end = Math.min(next?.start ?? Infinity, section?.end ?? Infinity);
      if (!Number.isFinite(end)) end = symbol.start;
    }
    merged.push({ start: symbol.start, end, name: symbol.name });
  }
  return merged;
}

/**
 * @param {{ start: number, end: number }[]} symbols sorted by start
 * @param {number} address
 */
function findSymbolIndex(symbols, address) {
  let low = 0;
  let high = symbols.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (symbols[mid].start <= address) low = mid + 1;
    else high = mid - 1;
  }
  return high >= 0 && address < symbols[high].end ? high : -1;
}

const hex = (/** @type {number} */ n) => n.toString(16).padStart(ADDRESS_DIGITS, '0');

/**
 * @typedef {{ start: number, end: number, name: string }} NativeSymbol at its run-time address
 * @typedef {{ slide: number, symbols: NativeSymbol[] }} LibrarySymbols
 */

/**
 * The symbols of each library that ticks hit, at their run-time addresses.
 * @param {SharedLibrary[]} libraries as logged, possibly several mappings of one file
 * @param {number[]} tickAddresses sorted
 * @param {{ nm?: string, objdump?: string, builtins?: NativeSymbol[] }} [tools] builtins: the embedded builtins the
 *   log places, for the ticks no symbol of a library covers
 * @returns {Promise<Map<string, LibrarySymbols>>} by library file
 */
export async function symbolizeLibraries(
  libraries,
  tickAddresses,
  { nm = 'nm', objdump = 'objdump', builtins = [] } = {},
) {
  const loggedBuiltins = [...builtins].sort((a, b) => a.start - b.start);
  /** @type {Map<string, SharedLibrary[]>} */
  const byName = new Map();
  for (const library of libraries) {
    if (PSEUDO_LIBRARY.test(library.name)) continue;
    byName.set(library.name, [...(byName.get(library.name) ?? []), library]);
  }
  /** @type {Map<string, LibrarySymbols>} */
  const tables = new Map();
  for (const [name, mappings] of byName) {
    const hits = tickAddresses.filter((address) => mappings.some((m) => address >= m.start && address < m.end));
    if (hits.length === 0) continue;
    const sections = await readSections(name, objdump);
    const bias = loadBias(mappings[0], sections);
    const symbols = (await functionSymbols(name, nm, sections)).map((s) => ({
      ...s,
      start: s.start + bias,
      end: s.end + bias,
    }));
    const hitIndexes = new Set();
    const hitBuiltins = new Set();
    for (const address of hits) {
      const index = findSymbolIndex(symbols, address);
      if (index >= 0) hitIndexes.add(index);
      else {
        const builtin = findSymbolIndex(loggedBuiltins, address);
        if (builtin >= 0) hitBuiltins.add(builtin);
      }
    }
    tables.set(name, {
      slide: mappings[0].slide,
      symbols: [
        ...[...hitIndexes].map((i) => symbols[i]),
        ...[...hitBuiltins].map((i) => ({ ...loggedBuiltins[i], name: `Builtins_${loggedBuiltins[i].name}` })),
      ].sort((x, y) => x.start - y.start),
    });
  }
  return tables;
}

/**
 * Writes one file per library in nm's format (address, size, type, name), listed in `index.tsv` (library path, tab,
 * file) for nm-shim.sh. Addresses are less the library's ASLR slide, which V8's tick processor adds back (0 on Linux).
 * @param {Map<string, LibrarySymbols>} tables
 * @param {string} dir
 */
export async function writeSymbolTables(tables, dir) {
  await mkdir(dir, { recursive: true });
  const index = [];
  let n = 0;
  for (const [library, { slide, symbols }] of tables) {
    n += 1;
    await writeFile(
      path.join(dir, `${n}.nm`),
      symbols.map((s) => `${hex(s.start - slide)} ${hex(s.end - s.start)} t ${s.name}\n`).join(''),
    );
    index.push(`${library}\t${n}.nm\n`);
  }
  await writeFile(path.join(dir, 'index.tsv'), index.join(''));
}
