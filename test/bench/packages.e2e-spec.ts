import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { installedSet } from '../../bench/packages/sets.js';
import { readResults } from '../../bench/model/results.js';
import { CLI, runNode } from './support/run-node.js';
import { withoutRegistry } from './support/runtimes.js';

// These reach the npm registry (sets and runtimes install on first use, into .packages/ and .runtimes/).
const INSTALL_TIMEOUT_MS = 300_000;

describe('--packages on the command line', () => {
  it('refuses an unknown set in one line with exit code 2, before anything is installed', async () => {
    const { status, stderr } = await runNode([CLI, '--packages', 'koa@2']);
    expect(status).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^--packages: "koa@2" is not a package set/)]);
  });

  it(
    'refuses a version the registry does not have in one line with exit code 2',
    async () => {
      const { status, stderr } = await runNode([CLI, '--packages', 'nest@99', '--driver', 'autocannon']);
      expect(status).toBe(2);
      expect(stderr.trim().split('\n').at(-1)).toBe(
        '--packages: nest@99: no @nestjs/core release matches 99 in the npm registry',
      );
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    "refuses a set that cannot run on the runtime it names, from the set's engines, before the runtime is installed",
    async () => {
      const { status, stderr } = await runNode([CLI, '--packages', 'nest@12/node@18', '--driver', 'autocannon']);
      expect(status).toBe(2);
      const last = stderr.trim().split('\n').at(-1);
      expect(last).toMatch(
        /^--packages: nest@12 on node@18: nest@12\.\d+\.\d+ .* cannot run on node 18 \(@nestjs\/core needs node >= 20\)$/,
      );
      expect(stderr).not.toContain('runtimes: installing node@18');
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    "measures the era app on a set, its DB routes on the set's TypeORM among them, and names the runtime and the set in every record",
    async () => {
      const out = mkdtempSync(path.join(tmpdir(), 'packages-e2e-'));
      try {
        const { status, stderr } = await runNode([
          CLI,
          '--packages',
          'nest@12',
          '--runtime',
          'node',
          '--quick',
          '--scenarios',
          'hello,orders,products',
          '--targets',
          'nest-express,nest-fastify',
          '--driver',
          'autocannon',
          '--out',
          out,
        ]);
        expect(status, stderr).toBe(0);
        const results = readResults(out);
        const [cell] = results.packages!.cells;
        expect(cell.key).toBe(`node@${process.versions.node} · ${cell.set}`);
        expect(cell.set).toMatch(/^nest@12\./);
        expect(new Set(results.runs.map((run) => run.runtime))).toEqual(new Set([cell.key]));
        expect(cell.databaseMissing).toBeNull();
        expect(new Set(results.runs.map((run) => run.scenario))).toEqual(new Set(['hello', 'orders', 'products']));
        expect(results.started.map((s) => s.line)).toEqual([
          expect.stringMatching(/^Nest 12\.\S+ on express 5\.\S+ listening .*, TypeORM 1\.\S+ on sql\.js/),
          expect.stringMatching(/^Nest 12\.\S+ on fastify 5\.\S+ listening .*, TypeORM 1\.\S+ on sql\.js/),
        ]);
        expect(readFileSync(path.join(out, 'report.md'), 'utf8')).toContain('### When the claim held');
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    },
    INSTALL_TIMEOUT_MS,
  );
});

describe('installing a set', () => {
  let scratch: string;
  beforeEach(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'packages-install-'));
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  it(
    'installs express@4.21.2 alone into an empty cache and reuses it without the registry',
    async () => {
      const set = await installedSet(
        { text: 'express@4.21.2', kind: 'express', range: '4.21.2' },
        { cacheDir: scratch },
      );
      expect(set).toMatchObject({
        label: 'express@4.21.2',
        kind: 'express',
        dir: path.join(scratch, 'express-4.21.2'),
      });
      expect(set.versions.express).toBe('4.21.2');
      const reused = await withoutRegistry(() =>
        installedSet({ text: 'express@4.21.2', kind: 'express', range: '4.21.2' }, { cacheDir: scratch }),
      );
      expect(reused).toEqual(set);
    },
    INSTALL_TIMEOUT_MS,
  );
});
