import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuilt } from '../../../bench/run/build.js';
import { hostIdentity } from '../../../bench/run/host.js';
import autocannon from '../../../bench/run/drivers/autocannon.js';
import { profileTargets, type ProfileRecord } from '../../../bench/profile/profile-targets.js';
import { currentNode } from '../../../bench/runtimes/runtimes.js';
import { BUILTIN_CONFIG } from '../../../bench/model/builtin-config.js';
import { resolvePair } from '../../../bench/model/scenarios.js';

const PORT = 3250; // the profile helper's port range
const DURATION_SEC = 3;
const CONNECTIONS = 20;
const PIPELINE_TIMEOUT_MS = 120_000;

let outDir: string;
let records: ProfileRecord[];

beforeAll(async () => {
  ensureBuilt(() => {});
  outDir = mkdtempSync(path.join(tmpdir(), 'profile-pipeline-'));
  records = await profileTargets({
    pairs: ['nest-express', 'nest-fastify'].map((target) =>
      resolvePair({ target, scenario: 'hello' }, { token: null, config: BUILTIN_CONFIG }),
    ),
    runtime: currentNode(),
    driver: autocannon,
    durationSec: DURATION_SEC,
    connections: CONNECTIONS,
    outDir,
    port: PORT,
    env: { JWT_SECRET: 'profile-e2e-secret' },
  });
}, PIPELINE_TIMEOUT_MS);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('npm run bench -- --prof, end to end on the Nest pair', () => {
  it('profiles each target under load and writes log, text, flame graph and summary', () => {
    expect(records.map((r) => [r.target, r.error ?? null])).toEqual([
      ['nest-express', null],
      ['nest-fastify', null],
    ]);
    for (const record of records) {
      expect(record.load?.requests).toBeGreaterThan(0);
      expect(record.load?.unexpectedStatus).toBe(0);
      for (const [kind, file] of Object.entries(record.files ?? {})) {
        expect(path.basename(file)).toBe(`${record.target}-hello${kind === 'log' ? '.v8.log' : `.${kind}`}`);
        expect(existsSync(file)).toBe(true);
      }
    }
  });

  it("leaves at most 1 % of the load window's ticks unaccounted", () => {
    for (const record of records) {
      expect(record.summary?.ticks.inWindow).toBeGreaterThan(500);
      expect(record.summary?.ticks.unaccountedShare).toBeLessThanOrEqual(0.01);
    }
  });

  it('summarises the load window only, not the start-up', () => {
    for (const record of records) {
      expect(record.summary?.window.source).toBe('load marks');
      expect(record.summary?.window.durationSec).toBeGreaterThan(DURATION_SEC * 0.9);
      expect(record.summary?.ticks.beforeWindow).toBeGreaterThan(0);
      // Start-up is mostly module loading (Module._compile on the stack in 18 % of a whole nest-express log here)
      // and Nest's bootstrap; neither belongs in the load window.
      const summary = JSON.parse(readFileSync(record.files!.json, 'utf8'));
      const functions: { name: string; totalShare: number }[] = summary.functions;
      expect(
        functions.some((f) =>
          /^(create @nestjs\/core\/nest-factory|registerRouter @nestjs\/core\/nest-application)\.js/.test(f.name),
        ),
      ).toBe(false);
      expect(functions.find((f) => f.name.startsWith('Module._compile node:'))?.totalShare ?? 0).toBeLessThan(0.05);
    }
  });

  it("names the host's CPU in each summary, as results.json does", () => {
    for (const record of records) {
      const summary = JSON.parse(readFileSync(record.files!.json, 'utf8'));
      expect(summary.context.host).toEqual(hostIdentity());
    }
  });

  it("finds each adapter's code in its own profile", () => {
    const charged = (record: ProfileRecord, id: string) =>
      record.summary?.groups.find((g) => g.id === id)?.callerTicks ?? 0;
    expect(charged(records[0], 'express')).toBeGreaterThan(0);
    expect(charged(records[0], 'fastify')).toBe(0);
    expect(charged(records[1], 'fastify')).toBeGreaterThan(0);
    expect(charged(records[1], 'express')).toBe(0);
  });

  it("writes node --prof-process's report and a flame graph that needs no network", () => {
    for (const record of records) {
      const text = readFileSync(record.files!.txt, 'utf8');
      expect(text).toContain(
        // node's processor counts the ticks sampled with no pc as unaccounted too; the summary names them apart
        `(${record.summary?.ticks.inWindow} ticks, ${(record.summary?.ticks.unaccounted ?? 0) + (record.summary?.ticks.noPc ?? 0)} unaccounted`,
      );
      const html = readFileSync(record.files!.html, 'utf8');
      expect(html).not.toMatch(/<(script|link)[^>]+(src|href)=/i);
      expect(html).toMatch(/"g":"(express|fastify)"/);
    }
  });
});
