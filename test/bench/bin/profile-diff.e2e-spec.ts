import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runNode, type Finished } from '../support/run-node.js';

// Two real profiles committed with the Node 23 → 24 explanation (profiles/README.md).
const SAVED = join(ROOT, 'profiles', 'node23-vs-node24');
const OLDER = join(SAVED, 'node@23.11.1', 'raw-express-hello.json');
const NEWER = join(SAVED, 'node@24.21.0', 'raw-express-hello.json');

let out: string;
let run: Finished;
beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'profile-diff-'));
  run = await runNode([join(ROOT, 'bench', 'bin', 'profile-diff.js'), OLDER, NEWER, '--out', out]);
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('npm run profile:diff on two saved profiles', () => {
  it('prints the tables naming both runtimes and their V8 versions', () => {
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/older: node 23\.11\.1 \(V8 12\.9\.[\d.]+\)/);
    expect(run.stdout).toMatch(/newer: node 24\.21\.0 \(V8 13\.6\.[\d.]+\)/);
    expect(run.stdout).toContain('| V8 (ICs, runtime, GC, compilers) |');
  });

  it('writes the tables and a differential flame graph that needs no network', () => {
    const files = readdirSync(out).sort();
    expect(files).toEqual([
      'raw-express-hello.diff-node-23.11.1-vs-node-24.21.0.html',
      'raw-express-hello.diff-node-23.11.1-vs-node-24.21.0.md',
    ]);
    const html = readFileSync(join(out, files[0]), 'utf8');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    expect(html).toContain('id="diff-data"');
    expect(existsSync(join(out, files[1]))).toBe(true);
  });
});
