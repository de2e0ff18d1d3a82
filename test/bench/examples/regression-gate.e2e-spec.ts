import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../support/run-node.js';

const WORKFLOW = join(ROOT, 'examples', 'github-actions', 'regression-gate.yml');
// the runner's own setup: the machine that runs this test has its load generator already
const RUNNER_SETUP = /^sudo apt-get/;
// seconds, not minutes: the steps are what this test checks, not the numbers
const QUICK_FLAGS = '--runtime node --quick --starts 2 --stack bare --scenarios hello';
const RUN_TIMEOUT_MS = 600_000;

/** The workflow's one-line `run:` steps, in order. */
function runSteps(workflow: string) {
  return [...workflow.matchAll(/^\s+run: (.+)$/gm)].map((match) => match[1]).filter((line) => !RUNNER_SETUP.test(line));
}

describe('the example regression-gate workflow', () => {
  let dir: string;
  const results: Array<{ step: string; status: number | null; stderr: string }> = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bench-workflow-'));
    const repo = join(dir, 'repo');
    execFileSync('git', ['clone', '--quiet', ROOT, repo]);
    // base and candidate are the same commit: an A/A, which the gate must pass
    const env = {
      ...process.env,
      BASE_SHA: 'HEAD',
      BENCH_FLAGS: QUICK_FLAGS,
      GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    };
    for (const step of runSteps(readFileSync(WORKFLOW, 'utf8'))) {
      const run = spawnSync('bash', ['-euo', 'pipefail', '-c', step], { cwd: repo, env, encoding: 'utf8' });
      results.push({ step, status: run.status, stderr: run.stderr });
      if (run.status !== 0) break;
    }
  }, RUN_TIMEOUT_MS);

  // two installed clones: their removal is slow on a busy machine
  afterAll(() => rmSync(dir, { recursive: true, force: true }), RUN_TIMEOUT_MS);

  it('runs every step to exit 0, the gate passing the same build on both sides', () => {
    // a failed step shows the end of what it wrote to stderr
    expect(results.map((r) => [r.step, r.status, r.status === 0 ? '' : r.stderr.slice(-2000)])).toEqual(
      runSteps(readFileSync(WORKFLOW, 'utf8')).map((step) => [step, 0, '']),
    );
    const gate = results.find((r) => r.step.includes('--fail-if-slower'))!;
    expect(gate.stderr).toContain('gate: no target decided slower than -5.0 % from A to B');
  });

  it('leaves the export the dashboard step reads, and the answer on the run page', () => {
    const exported = join(dir, 'results', 'candidate', 'github-benchmark-bigger.json');
    expect(existsSync(exported)).toBe(true);
    expect(JSON.parse(readFileSync(exported, 'utf8'))[0]).toMatchObject({ unit: 'req/s', value: expect.any(Number) });
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(summary.match(/The whole report: /g)).toHaveLength(2);
    expect(summary).toContain('### Changes from A to B');
  });
});
