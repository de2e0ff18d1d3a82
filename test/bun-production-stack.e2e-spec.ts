import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { resolveRuntimes } from '../bench/runtimes/runtimes.js';
import { parseRuntimeList } from '../bench/runtimes/runtime-specs.js';
import { compileApp, runCompiled, type RunningProcess } from './support/compiled-app.js';

/** The bench's default: one request on each of this many keep-alive connections at once. */
const CONNECTIONS = 50;
/** After one wave that warms the JIT up. */
const MEASURED_WAVES = 3;
/**
 * Median ÷ last arrival within a wave: near 1 when the answers leave together at the wave's end, about 0.5 when they
 * leave one by one (see docs/runtimes.md, "Bun and the production stack").
 */
const TOGETHER = 0.85;
/** The first run on a fresh clone installs bun from npm and compiles the app. */
const START_TIMEOUT_MS = 180_000;
const WAVES_TIMEOUT_MS = 180_000;
/** Clear of the other specs' fixed ports. */
const PORTS = { gzip: 3244, identity: 3245 } as const;

interface Answer {
  ms: number;
  encoding: string;
  body: Buffer;
}

/** One request on each of `CONNECTIONS` connections at once; each answer with its arrival time after the wave was sent. */
function wave(agent: http.Agent, port: number): Promise<Answer[]> {
  const sent = performance.now();
  const one = () =>
    new Promise<Answer>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${port}/catalog`, { agent, headers: { 'accept-encoding': 'gzip' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              ms: performance.now() - sent,
              encoding: res.headers['content-encoding'] ?? 'identity',
              body: Buffer.concat(chunks),
            }),
          );
        })
        .on('error', reject);
    });
  return Promise.all(Array.from({ length: CONNECTIONS }, one));
}

/** Median ÷ last arrival of each measured wave. */
function togetherness(waves: Answer[][]): number[] {
  return waves.slice(1).map((answers) => {
    const times = answers.map((answer) => answer.ms).sort((a, b) => a - b);
    return times[times.length >> 1] / times[times.length - 1];
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

describe('nest-express with the production stack on Bun, GET /catalog in waves of 50 connections', () => {
  let logDir: string;
  const servers: RunningProcess[] = [];
  const waves: Record<keyof typeof PORTS, Answer[][]> = { gzip: [], identity: [] };

  beforeAll(async () => {
    const [[bun], outDir] = await Promise.all([resolveRuntimes(parseRuntimeList('bun')), compileApp()]);
    logDir = await mkdtemp(join(tmpdir(), 'nest-adapter-bench-bun-'));
    for (const [name, port] of Object.entries(PORTS)) {
      const server = runCompiled(
        `${outDir}/main.js`,
        {
          PORT: String(port),
          JWT_SECRET: 'e2e-test-secret',
          APP_STACK: 'production',
          APP_STACK_OMIT: name === 'gzip' ? '' : 'compression',
          REQUEST_LOG_FILE: join(logDir, `${name}.log`),
        },
        [],
        bun.command,
      );
      servers.push(server);
      await server.waitForLine(/listening on/);
    }
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    for (const server of servers) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await rm(logDir, { recursive: true, force: true });
  });

  beforeAll(async () => {
    for (const [name, port] of Object.entries(PORTS) as [keyof typeof PORTS, number][]) {
      const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
      for (let i = 0; i <= MEASURED_WAVES; i++) waves[name].push(await wave(agent, port));
      agent.destroy();
    }
  }, WAVES_TIMEOUT_MS);

  it('answers every request gzipped, with the page the stack without compression sends', () => {
    const page = JSON.parse(waves.identity[0][0].body.toString('utf8'));
    expect(page).toHaveLength(50);
    for (const answer of waves.gzip.flat()) {
      expect(answer.encoding).toBe('gzip');
      expect(JSON.parse(gunzipSync(answer.body).toString('utf8'))).toEqual(page);
    }
  });

  it('with gzip, sends the answers of a wave together at its end', () => {
    expect(median(togetherness(waves.gzip))).toBeGreaterThanOrEqual(TOGETHER);
  });

  it('without compression, sends the answers of a wave one by one', () => {
    expect(waves.identity.flat().every((answer) => answer.encoding === 'identity')).toBe(true);
    expect(median(togetherness(waves.identity))).toBeLessThan(TOGETHER);
  });
});
