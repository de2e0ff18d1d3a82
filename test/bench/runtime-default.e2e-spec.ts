import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ltsLine, releaseStatus } from '../../bench/model/release-status.js';
import { CLI, runNode } from './support/run-node.js';
import { readResults, type Results } from '../../bench/model/results.js';

/** Installs the LTS line from npm the first time where the machine's node is end of life (seconds to a minute). */
const RUN_TIMEOUT_MS = 300_000;
const BASE_PORT = '3200';

describe('npm run bench without --runtime', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;
  let results: Results;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-runtime-default-'));
    run = await runNode([
      CLI,
      '--quick',
      '--targets',
      'raw-node,raw-fastify',
      '--scenarios',
      'hello',
      '--out',
      dir,
      '--port',
      BASE_PORT,
    ]);
    results = readResults(dir);
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('measures the running node while its line is supported, else the LTS line, and says which and why', () => {
    expect(run.status).toBe(0);
    const running = releaseStatus({ name: 'node', version: process.versions.node }, results.startedAt);
    const [runtime] = results.plan.runtimes;
    if (running.phase === 'end of life') {
      expect(runtime).toMatch(new RegExp(`^node@${ltsLine(results.startedAt)}\\.`));
      expect(run.stderr).toContain(
        `runtime: node ${process.versions.node} is ${running.text}; measuring the LTS line, node@${ltsLine(results.startedAt)} (`,
      );
    } else {
      expect(runtime).toBe(`node@${process.versions.node}`);
      expect(run.stderr).toContain(
        `runtime: node@${process.versions.node} (${running.text}), the node running the bench`,
      );
    }
    expect(results.plan.runtimeChoice).toMatchObject({ requested: null, reason: expect.stringMatching(/^runtime: /) });
  });

  it("names the measured runtime's release status in report.md", () => {
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    const [runtime] = results.plan.runtimes;
    const [name, version] = runtime.split('@');
    expect(markdown).toContain(`| ${runtime} (${releaseStatus({ name, version }, results.startedAt).text}) | hello |`);
  });
});
