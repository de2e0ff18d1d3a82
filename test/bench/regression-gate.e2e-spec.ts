import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT, runNode } from './support/run-node.js';

const CONFIG = join(ROOT, 'test', 'bench', 'fixtures', 'regression-gate', 'gate.config.mjs');
const RUN_TIMEOUT_MS = 180_000;
// enough paired rounds for a 95 % interval over rounds, in seconds
const GATE_RUN = ['--runtime', 'node', '--config', CONFIG, '--rounds', '8', '--duration', '0.3', '--warmup', '0.5'];

describe('npm run bench -- --fail-if-slower: two builds of one app in one paired run', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bench-gate-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const gateRun = async (candidateDelayUs: number, out: string) => {
    process.env.CANDIDATE_DELAY_US = String(candidateDelayUs);
    try {
      return await runNode([CLI, ...GATE_RUN, '--fail-if-slower', '5', '--out', join(dir, out)]);
    } finally {
      delete process.env.CANDIDATE_DELAY_US;
    }
  };

  it(
    'exits 4 naming the route when the candidate costs 60 µs more a request',
    async () => {
      const run = await gateRun(60, 'slower');
      expect(run.status).toBe(4);
      expect(run.stderr).toMatch(
        /gate: 1 decided slower than -5\.0 % \(candidate ÷ base\):\n- hello · bare \(node@[\d.]+\): 0\.\d+×/,
      );
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'exits 0 with the same build on both sides',
    async () => {
      const run = await gateRun(0, 'same');
      expect(run.stderr).toContain('gate: no route decided slower than -5.0 % (candidate ÷ base)');
      expect(run.status).toBe(0);
    },
    RUN_TIMEOUT_MS,
  );
});
