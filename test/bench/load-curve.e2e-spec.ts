import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOAD_CURVE_TARGETS, QUICK } from '../../bench/run/options.js';
import { CLI, runNode } from './support/run-node.js';
import { readResults, type Results } from '../../bench/model/results.js';

/** Bun is installed into .runtimes/ on first use (as in runtimes.e2e-spec.ts), then each run takes well under this. */
const RUN_TIMEOUT_MS = 180_000;
const RATES = [200, 500];
const PORT = '3170';

describe.each(['node', 'bun'])('npm run bench -- --quick --runtime %s --rates, end to end', (runtime) => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;
  let results: Results;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-load-curve-'));
    run = await runNode([
      CLI,
      '--quick',
      '--runtime',
      runtime,
      '--rates',
      RATES.join(','),
      '--targets',
      LOAD_CURVE_TARGETS.join(','),
      '--scenarios',
      'hello',
      '--out',
      dir,
      '--port',
      PORT,
    ]);
    results = readResults(dir);
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0 after driving both adapters at every rate in every round', () => {
    expect(run.stderr).not.toMatch(/skipped|failed/);
    expect(run.status).toBe(0);
    const { name, version } = results.environment.runtimes[0];
    expect(results.loadCurve!.plans).toMatchObject([
      {
        runtime: `${name}@${version}`,
        scenario: 'hello',
        basis: null,
        levels: RATES.map((rps) => ({ share: null, rps })),
      },
    ]);
    const done = results.loadCurve!.runs.map((r) => `${r.target}@${r.level.rps}#${r.round}`).sort();
    const planned = LOAD_CURVE_TARGETS.flatMap((target) =>
      RATES.flatMap((rps) => Array.from({ length: QUICK.rounds }, (_, i) => `${target}@${rps}#${i + 1}`)),
    ).sort();
    expect(done).toEqual(planned);
  });

  it('records every request of each schedule as answered, and the server’s CPU and memory', () => {
    for (const record of results.loadCurve!.runs) {
      const scheduled = Math.round(record.level.rps * QUICK.durationSec);
      expect(record.status).toBe('ok');
      expect(record.run).toMatchObject({ sent: scheduled, completed: scheduled, errors: 0, timeouts: 0 });
      expect(record.run!.unexpectedStatus).toBe(0);
      expect(record.server!.cpuUsPerRequest).toBeGreaterThan(0);
      expect(record.server!.peakRssMiB).toBeGreaterThan(0);
    }
  });

  it('reports the CPU per 1,000 req/s table and, in report.html, the latency-against-load chart', () => {
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(markdown).toContain('### CPU per 1,000 req/s');
    for (const rps of RATES) {
      expect(markdown).toMatch(new RegExp(`\\| hello \\| ${rps} req/s \\| ${rps} \\| [\\d.]+ % \\| [\\d.]+ % \\|`));
    }
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('<h2>Latency against load</h2>');
    expect(html).toMatch(/<svg [^>]*aria-label="hello · (node|bun)@[\d.]+ \([^"]+\)"/);
  });
});
