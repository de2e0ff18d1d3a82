import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, runNode } from './support/run-node.js';
import { readResults, type Results } from '../../bench/model/results.js';

const SLOW_SERVER = fileURLToPath(new URL('./support/slow-server.js', import.meta.url));
/**
 * Far beyond the run's 1 s, well within verification's 10 s for its one request; a run long enough that the quick target
 * answers within it even on a busy machine.
 */
const DELAY_MS = 3000;
const DURATION_SEC = '1';
const CONNECTIONS = 8;
const BASE_PORT = '3210';
const RUN_TIMEOUT_MS = 120_000;

describe('a target that answers nothing within a run, measured beside one that answers at once', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;
  let results: Results;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-too-slow-'));
    const config = join(dir, 'bench.config.json');
    writeFileSync(
      config,
      JSON.stringify({
        targets: [
          { name: 'quick', command: ['node', SLOW_SERVER, '0'] },
          { name: 'slow', command: ['node', SLOW_SERVER, String(DELAY_MS)] },
        ],
        scenarios: [{ name: 'work', path: '/work', expect: { status: 200 } }],
        compare: ['quick', 'slow'],
      }),
    );
    run = await runNode([
      CLI,
      '--runtime',
      'node',
      '--config',
      config,
      '--quick',
      '--duration',
      DURATION_SEC,
      '--connections',
      String(CONNECTIONS),
      '--out',
      join(dir, 'out'),
      '--port',
      BASE_PORT,
    ]);
    results = readResults(join(dir, 'out'));
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 3: the compared pair has no ratio, though the other target was measured', () => {
    expect(run.stderr).not.toMatch(/ failed/);
    expect(run.status).toBe(3);
  });

  it('records the slow target too slow in every round, with the requests it left unanswered', () => {
    const slow = results.runs.filter((r) => r.target === 'slow');
    expect(slow.map((r) => r.status)).toEqual(['too-slow', 'too-slow']);
    expect(slow[0].failure!.reason).toMatch(
      new RegExp(`^none of the ${CONNECTIONS} requests in flight answered within [\\d.]+ s$`),
    );
    expect(results.runs.filter((r) => r.target === 'quick').every((r) => r.status === 'ok')).toBe(true);
  });

  it("says so in the slow target's row, and in the verdict instead of a ratio", () => {
    const markdown = readFileSync(join(dir, 'out', 'report.md'), 'utf8');
    const slowRow = markdown.split('\n').find((line) => /^\| node@[^|]+\| work \| slow \|/.test(line))!;
    expect(slowRow).toMatch(/\| 0 \(\+2 too slow\) \|/);
    expect(slowRow).toMatch(
      new RegExp(`too slow for --duration 1 s: none of the ${CONNECTIONS} requests in flight answered, in 2 of 2 runs`),
    );
    const verdictRow = run.stdout.split('\n').find((line) => /^\| node@[^|]+\| work \|/.test(line))!;
    expect(verdictRow).toMatch(/\| — \| — \| — \| \*\*too slow\*\* \|/);
    expect(verdictRow).toMatch(
      /slow too slow for --duration 1 s: none of the 8 requests in flight answered in rounds 1–2, so no ratio/,
    );
  });
});
