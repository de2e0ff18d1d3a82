import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../../../bench/errors.js';
import { buildRecord, resolveBaseline } from '../../../../bench/own-app/plan/baseline.js';
import type { NestApp } from '../../../../bench/own-app/launch/packages.js';
import { ROOT } from '../../support/run-node.js';

const appAt = (root: string): NestApp => ({
  moduleFile: join(root, 'dist', 'main.js'),
  mainFile: join(root, 'dist', 'main.js'),
  exportName: null,
  appDir: join(root, 'dist'),
  cwd: root,
  setupFile: null,
  versions: { '@nestjs/core': '11.1.0' },
});

describe('--baseline DIR: the base build at the candidate’s place in DIR', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bench-baseline-unit-'));
    for (const app of ['candidate', 'empty']) mkdirSync(join(dir, app, 'dist'), { recursive: true });
    writeFileSync(join(dir, 'candidate', 'package.json'), '{}');
    writeFileSync(join(dir, 'candidate', 'dist', 'main.js'), '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['missing', /^--baseline .*missing: no such folder; give the folder of the base build/],
    ['empty', /^--baseline .*empty: no .*main\.js, where the candidate has dist\/main\.js; build the base there first/],
  ])('refuses a folder %s in one line', (base, message) => {
    const resolving = () => resolveBaseline(appAt(join(dir, 'candidate')), join(dir, base));
    expect(resolving).toThrow(UsageError);
    expect(resolving).toThrow(message);
  });

  it('names a build by its git commit in a checkout, and by its folder alone outside one', () => {
    const inRepo = { ...appAt(ROOT), moduleFile: join(ROOT, 'bench', 'bin', 'bench.js') };
    const head = execFileSync('git', ['-C', ROOT, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    expect(buildRecord(inRepo, 'nest-express')).toMatchObject({ target: 'nest-express', commit: head });
    expect(buildRecord(appAt(join(dir, 'candidate')), 'base-nest-express')).toMatchObject({
      commit: null,
      changed: null,
      cwd: join(dir, 'candidate'),
    });
  });
});
