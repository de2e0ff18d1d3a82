import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolveRuntimes } from '../../../bench/runtimes/runtimes.js';
import { parseRuntimeList } from '../../../bench/runtimes/runtime-specs.js';
import { binaryVersion, resolveError, withoutRegistry } from '../support/runtimes.js';

// These reach the npm registry; each test installs into a scratch cache of its own, so an install really happens
// however warm the project's .runtimes/ is (npm's own download cache may still spare the download).
/** Installing a runtime is a 50–100 MB download the first time. */
const INSTALL_TIMEOUT_MS = 180_000;

describe('installing runtimes from the npm registry', () => {
  let scratch: string;
  beforeEach(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'runtimes-install-'));
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  it(
    'installs node@24 into an empty cache, records the version its binary reports, and reuses it without the registry',
    async () => {
      const dir = path.join(scratch, 'node-24');
      const marker = path.join(dir, 'runtime.json');
      expect(existsSync(dir)).toBe(false);

      const lines: string[] = [];
      const [installed] = await resolveRuntimes(parseRuntimeList('node@24'), {
        cacheDir: scratch,
        log: (line) => lines.push(line),
      });
      expect(lines).toEqual([expect.stringMatching(/^runtimes: installing node@24 \(npm package node-[\w-]+@24\)/)]);
      expect(installed).toMatchObject({ spec: 'node@24', name: 'node', args: [] });
      expect(installed.version).toMatch(/^24\.\d+\.\d+$/);
      expect(installed.command.startsWith(dir + path.sep)).toBe(true);
      expect(binaryVersion(installed.command)).toBe(installed.version);
      expect(JSON.parse(readFileSync(marker, 'utf8'))).toMatchObject({ spec: 'node@24', version: installed.version });
      const markerWritten = statSync(marker).mtimeMs;

      const reuseLines: string[] = [];
      const [reused] = await withoutRegistry(() =>
        resolveRuntimes(parseRuntimeList('node@24'), { cacheDir: scratch, log: (line) => reuseLines.push(line) }),
      );
      expect(reused).toEqual(installed);
      expect(reuseLines).toEqual([]);
      expect(statSync(marker).mtimeMs).toBe(markerWritten);
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    'installs bun as a runtime named bun with the version its binary reports',
    async () => {
      const [bun] = await resolveRuntimes(parseRuntimeList('bun'), { cacheDir: scratch });
      expect(bun).toMatchObject({ spec: 'bun', name: 'bun', args: [] });
      expect(bun.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(bun.command.startsWith(path.join(scratch, 'bun-latest') + path.sep)).toBe(true);
      expect(binaryVersion(bun.command)).toBe(bun.version);
      expect(existsSync(path.join(scratch, 'bun-latest', 'runtime.json'))).toBe(true);
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    'installs deno from its platform package, runs it with deno run, and keeps what the registry said of the release',
    async () => {
      const [deno] = await resolveRuntimes(parseRuntimeList('deno@2.9'), { cacheDir: scratch });
      expect(deno).toMatchObject({ spec: 'deno@2.9', name: 'deno', args: ['run', '--allow-all'] });
      expect(deno.version).toMatch(/^2\.9\.\d+$/);
      expect(deno.command.startsWith(path.join(scratch, 'deno-2.9') + path.sep)).toBe(true);
      expect(deno.registry).toMatchObject({
        package: 'deno',
        published: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        latest: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      });
      const [reused] = await withoutRegistry(() =>
        resolveRuntimes(parseRuntimeList('deno@2.9'), { cacheDir: scratch }),
      );
      expect(reused).toEqual(deno);
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    'lets two benches install the same runtime at the same time, both ending with one complete copy',
    async () => {
      const specs = parseRuntimeList('bun');
      const [[first], [second]] = await Promise.all([
        resolveRuntimes(specs, { cacheDir: scratch }),
        resolveRuntimes(specs, { cacheDir: scratch }),
      ]);
      expect(second).toEqual(first);
      expect(first.version).toBe(binaryVersion(first.command));
      expect(readdirSync(scratch)).toEqual(['bun-latest']);
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    'reports a release the registry does not have in one line, leaving nothing in the cache',
    async () => {
      const error = await resolveError('node@99', { cacheDir: scratch });
      expect(error.message).toMatch(
        /^--runtime: node@99: no node release matches 99 in the npm registry \(package node-[\w-]+\)$/,
      );
      expect(await resolveError('bun@0.0.1', { cacheDir: scratch }).then((e) => e.message)).toMatch(
        /^--runtime: bun@0\.0\.1: no bun release matches 0\.0\.1 in the npm registry/,
      );
      expect(readdirSync(scratch)).toEqual([]);
    },
    INSTALL_TIMEOUT_MS,
  );
});
