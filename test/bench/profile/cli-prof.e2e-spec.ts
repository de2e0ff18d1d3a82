import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { QUICK } from '../../../bench/run/options.js';
import { CLI, runNode, type Finished } from '../support/run-node.js';
import { readResults, type Results } from '../../../bench/model/results.js';

const PORT = '3270'; // the profile tests' port range
const RUN_TIMEOUT_MS = 180_000;
const TARGETS = ['nest-express', 'nest-fastify'];
const SCENARIOS = ['hello', 'secure'];
const FILE_KINDS = ['log', 'txt', 'html', 'json'];

let dir: string;
let run: Finished;
let results: Results;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bench-prof-quick-'));
  run = await runNode([
    CLI,
    '--runtime',
    'node',
    '--stack',
    'bare',
    '--prof',
    '--quick',
    '--targets',
    TARGETS.join(','),
    '--scenarios',
    SCENARIOS.join(','),
    '--out',
    dir,
    '--port',
    PORT,
  ]);
  results = readResults(dir);
}, RUN_TIMEOUT_MS);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run bench -- --prof --quick, end to end', () => {
  it('exits 0 with the timed results complete and one profile per target × scenario', () => {
    expect(run.stderr).not.toMatch(/could not start|failed/);
    expect(run.status).toBe(0);
    expect(results.complete).toBe(true);
    expect(results.profiles!.map((p) => `${p.target}-${p.scenario}`).sort()).toEqual(
      TARGETS.flatMap((t) => SCENARIOS.map((s) => `${t}-${s}`)).sort(),
    );
  });

  it('writes log, node --prof-process text, flame graph and summary for each, under <out>/profiles', () => {
    for (const profile of results.profiles!) {
      expect(Object.keys(profile.files!).sort()).toEqual([...FILE_KINDS].sort());
      for (const file of Object.values<string>(profile.files!)) {
        expect(resolve(file).startsWith(join(dir, 'profiles'))).toBe(true);
        expect(existsSync(file)).toBe(true);
      }
    }
  });

  it('profiles each pair for the quick profile length and leaves at most 1 % of its ticks unaccounted', () => {
    for (const profile of results.profiles!) {
      expect(profile.durationSec).toBe(QUICK.profileSec);
      expect(profile.summary!.ticks.inWindow).toBeGreaterThan(0);
      expect(profile.summary!.ticks.unaccountedShare).toBeLessThanOrEqual(0.01);
    }
  });

  it('puts the side-by-side hot spots in both reports, with flame-graph links that resolve', () => {
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(markdown).toContain('## Profiles');
    for (const scenario of SCENARIOS) expect(markdown).toMatch(new RegExp(`### ${scenario} — node`));
    const links = [...html.matchAll(/href="([^"]+\.html)"/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThanOrEqual(TARGETS.length * SCENARIOS.length);
    for (const link of links) expect(existsSync(join(dir, link))).toBe(true);
  });
});
