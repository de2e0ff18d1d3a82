import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runNode } from '../support/run-node.js';

const CHECK_CLI = join(ROOT, 'bench', 'bin', 'check-references.js');
/** The smallest committed reference: a run the check rebuilds in a fraction of a second. */
const REFERENCE = join(ROOT, 'results', 'reference', 'conduit-node20', 'alone');

describe('npm run check:references', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'check-references-'));
    cpSync(REFERENCE, dir, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const check = (...args: string[]) => runNode([CHECK_CLI, dir, ...args]);
  const edit = (name: string, change: (text: string) => string) =>
    writeFileSync(join(dir, name), change(readFileSync(join(dir, name), 'utf8')));

  it('passes when every committed report rebuilds to the same bytes', async () => {
    const { status, stdout } = await check();
    expect(stdout).toContain('rebuilt 1 run and 0 comparisons: 3 files the same, 0 different');
    expect(status).toBe(0);
  });

  it('fails and names the file when a number in the rebuilt report moves', async () => {
    edit('results.json', (text) => {
      const results = JSON.parse(text);
      const run = results.runs.find((r: { status: string }) => r.status === 'ok');
      run.load.rps *= 1.5;
      return JSON.stringify(results);
    });
    const { status, stdout } = await check('--write');
    expect(stdout).toMatch(/report\.md: numbers moved\n/);
    expect(status).toBe(1);
  });

  it('tells a changed sentence from a moved number, and --write rewrites only the sentence', async () => {
    const rebuilt = readFileSync(join(dir, 'report.md'), 'utf8');
    edit('report.md', (text) => text.replace('every table is rendered from', 'every table was rendered from'));
    const first = await check();
    expect(first.stdout).toContain('report.md: words changed, numbers the same\n');
    expect(first.stdout).toContain('every table was rendered from');
    expect(first.status).toBe(1);
    const written = await check('--write');
    expect(written.stdout).toContain('(rewritten)');
    expect(written.status).toBe(0);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toBe(rebuilt);
  });

  it('fails when a committed file is no longer written', async () => {
    edit('results.json', (text) => {
      const results = JSON.parse(text);
      results.runs = [];
      return JSON.stringify(results);
    });
    const { status, stdout } = await check();
    expect(stdout).toContain('answer.svg: numbers moved\n  - ');
    expect(stdout).toContain('  + (no longer written)');
    expect(status).toBe(1);
  });
});
