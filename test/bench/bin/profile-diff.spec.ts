import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runNode } from '../support/run-node.js';

const DIFF_CLI = join(ROOT, 'bench', 'bin', 'profile-diff.js');
const USAGE_EXIT = 2;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'profile-diff-cli-'));
  writeFileSync(join(dir, 'results.json'), '{"schema":1,"runs":[]}');
  writeFileSync(join(dir, 'broken.json'), '{ not json');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI's answer to bad input: exit 2 and one line on stderr. */
async function refusal(args: string[]) {
  const run = await runNode([DIFF_CLI, ...args]);
  expect(run.status).toBe(USAGE_EXIT);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  return run.stderr.trim();
}

describe('npm run profile:diff refuses bad input in one line with exit 2', { timeout: 30_000 }, () => {
  it('without two arguments', async () => {
    expect(await refusal([join(dir, 'results.json')])).toMatch(/give two profiles or two directories/);
  });

  it('for a profile that does not exist', async () => {
    expect(await refusal([join(dir, 'missing.json'), join(dir, 'results.json')])).toMatch(/not found/);
  });

  it('for JSON that is not a profile summary', async () => {
    expect(await refusal([join(dir, 'results.json'), join(dir, 'results.json')])).toMatch(/not a profile summary/);
  });

  it('for a file that is not JSON', async () => {
    expect(await refusal([join(dir, 'broken.json'), join(dir, 'results.json')])).toMatch(/is not JSON/);
  });

  it('for a profile against a directory', async () => {
    expect(await refusal([join(dir, 'results.json'), dir])).toMatch(/not one of each/);
  });

  it('for two directories without a profile in common', async () => {
    expect(await refusal([dir, dir])).toMatch(/no profile of the same name/);
  });

  it('for an unknown flag', async () => {
    expect(await refusal(['--colour', 'a', 'b'])).toMatch(/colour/);
  });
});
