import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CLI, ROOT, runNode } from './support/run-node.js';
import { readResults, type Results } from '../../bench/model/results.js';

const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const NOTES = join(ROOT, 'examples', 'notes-api');
const RUN_TIMEOUT_MS = 240_000;
/** The open-loop rate: far below what the fixture serves, so the generator holds it on a busy machine. */
const RATE = '100';

describe('--nest-app on a signed-in app with class-validator and OpenAPI DTOs, a write and a DELETE', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runNode>>;
  let results: Results;

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, [TSC, '-p', join(NOTES, 'tsconfig.json')]);
    dir = mkdtempSync(join(tmpdir(), 'bench-signed-in-'));
    run = await runNode([
      CLI,
      '--nest-app',
      join(NOTES, 'dist', 'notes.module.js'),
      '--nest-setup',
      join(NOTES, 'dist', 'setup.js'),
      '--traffic',
      join(NOTES, 'requests.log'),
      '--rate',
      RATE,
      '--quick',
      '--duration',
      '1',
      '--runtime',
      'node',
      '--out',
      dir,
    ]);
    results = readResults(dir);
  }, RUN_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const route = (method: string, path: string) =>
    results.ownApp!.routes.find((r) => r.method === method && r.path === path)!;

  it('signs in on both adapters and keeps the header names, never their values', () => {
    expect(run.status, run.stderr).toBe(0);
    expect(results.ownApp!.signIn).toEqual({
      headers: ['authorization'],
      params: ['slug'],
      errors: { 'nest-express': null, 'nest-fastify': null },
      // the read refused signed out that proved the sign-in, and the setup module that signed in
      accepted: 'GET /notes',
      source: expect.stringMatching(/examples\/notes-api\/dist\/setup\.js$/),
    });
    expect(readFileSync(join(dir, 'results.json'), 'utf8')).not.toMatch(/Bearer [\w-]+\.[\w-]+/);
  });

  it('measures the signed-in reads, with the path parameter authenticate() returned', () => {
    expect(route('GET', '/notes/:slug')).toMatchObject({ scenario: 'notes-slug', request: 'GET /notes/welcome' });
    expect(results.runs.some((r) => r.scenario === 'notes-slug' && r.status === 'ok')).toBe(true);
  });

  it('times the write with a body derived from its DTO, a new note per request, on both adapters', () => {
    expect(route('POST', '/notes')).toMatchObject({ scenario: 'post-notes', body: 'derived' });
    const writes = results.runs.filter((r) => r.scenario === 'post-notes' && r.status === 'ok');
    expect(writes.map((r) => r.target).sort()).toEqual([
      'nest-express',
      'nest-express',
      'nest-fastify',
      'nest-fastify',
    ]);
    // every answer a 201: a repeated title would have collided (409)
    for (const w of writes) expect(Object.keys(w.load!.statusCounts!)).toEqual(['201']);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toMatch(
      /### Writes[\s\S]*\| post-notes \| `POST \/notes` \| nest-express \| [\d,]+ \|/,
    );
  });

  it('derives the signup body from OpenAPI (the email format) and class-validator (the password’s length)', () => {
    expect(route('POST', '/auth/signup')).toMatchObject({
      body: 'derived',
      bodySources: ['OpenAPI', 'class-validator'],
    });
  });

  it('lists the DELETE of a named note with why, and covers the rest of the logged traffic', () => {
    expect(route('DELETE', '/notes/:slug').notMeasured).toMatch(/deletes what :slug names/);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toMatch(/98 % of the logged requests to your routes/);
  });

  it('reports the cores each adapter needs at --rate on the traffic mix, in both reports', () => {
    const heading = `What a switch saves at ${RATE} req/s`;
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(markdown).toContain(heading);
    expect(markdown).toMatch(/\| node@[\d.]+ \([^)|]+\) \| \*\*traffic\*\* \| 0\.\d{3} \(/);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain(heading);
    expect(results.loadCurve!.plans.map((p) => p.scenario)).toEqual(['traffic']);
    // the open-loop generator sent each write of the mix with fresh values: no 409 from a repeated title
    for (const curveRun of results.loadCurve!.runs) expect(curveRun.run?.unexpectedStatus ?? 0).toBe(0);
  });
});
