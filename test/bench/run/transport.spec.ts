import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createSecureServer, createServer as createH2cServer } from 'node:http2';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { TLS_DIR, makeCertificate } from '../../../bench/model/beyond.js';
import { validateConfig } from '../../../bench/model/config.js';
import { parseH2loadOutput } from '../../../bench/run/drivers/h2load.js';
import { verifyPair } from '../../../bench/run/verify.js';

const BODY = '{"message":"Hello, World!"}';
const scenario = validateConfig(
  {
    targets: [
      { name: 'a', command: ['node', 'a.js'] },
      { name: 'b', command: ['node', 'b.js'] },
    ],
    scenarios: [{ name: 'h2', path: '/json', expect: { status: 200, contentType: 'application/json', body: BODY } }],
    compare: ['a', 'b'],
  },
  { source: 'test', baseDir: '/' },
).scenarios[0];
const request = { method: 'GET', path: '/json', headers: {}, body: undefined };
const answer = (
  _req: unknown,
  res: { writeHead(status: number, headers: Record<string, string>): unknown; end(body: string): unknown },
) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(BODY);
};

let tls: { key: Buffer; cert: Buffer };
const servers: Array<{ close(): unknown }> = [];

async function listening(server: import('node:net').Server) {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const verify = (baseUrl: string) => verifyPair({ runtime: 'node', target: 'a', baseUrl, scenario, request });

beforeAll(async () => {
  await makeCertificate(TLS_DIR);
  tls = { key: readFileSync(`${TLS_DIR}/key.pem`), cert: readFileSync(`${TLS_DIR}/cert.pem`) };
});
afterAll(() => servers.forEach((server) => server.close()));

describe('verification speaks what the target is said to speak', () => {
  it('accepts an answer over h2 from an HTTP/2 server with TLS, and over HTTPS from an HTTP/1.1 one', async () => {
    const h2 = await listening(createSecureServer(tls, answer));
    expect(await verify(`h2://127.0.0.1:${h2}`)).toMatchObject({ ok: true });
    const https = await listening(createHttpsServer(tls, answer));
    expect(await verify(`https://127.0.0.1:${https}`)).toMatchObject({ ok: true });
  });

  it('refuses an HTTP/1.1 server where h2 was asked (ALPN offers h2 alone)', async () => {
    const https = await listening(createHttpsServer(tls, answer));
    const refused = await verify(`h2://127.0.0.1:${https}`);
    expect(refused.ok).toBe(false);
    expect(refused.reason).toMatch(/request failed/);
  });

  it('accepts h2c from a cleartext HTTP/2 server and refuses it from an HTTP/1.1 one', async () => {
    const h2c = await listening(createH2cServer(answer));
    expect(await verify(`h2c://127.0.0.1:${h2c}`)).toMatchObject({ ok: true });
    const http1 = await listening(createHttpServer(answer));
    expect((await verify(`h2c://127.0.0.1:${http1}`)).ok).toBe(false);
  });
});

describe("h2load's own check", () => {
  const summary = (protocol: string) =>
    [
      'finished in 1.00s, 3.00 req/s, 1KB/s',
      'requests: 3 total, 3 started, 3 done, 3 succeeded, 0 failed, 0 errored, 0 timeout',
      `Application protocol: ${protocol}`,
    ].join('\n');
  const log = '1\t200\t1000\n2\t200\t2000\n3\t500\t3000\n';

  it('counts statuses and latencies from its log', () => {
    const result = parseH2loadOutput(summary('h2'), log, { expectedStatus: 200, protocol: 'h2' });
    expect(result).toMatchObject({ requests: 3, rps: 2, unexpectedStatus: 1, protocol: 'h2' });
    expect(result.latencyMs).toMatchObject({ p50: 2, max: 3 });
  });

  it('refuses a run that fell back to HTTP/1.1', () => {
    expect(() => parseH2loadOutput(summary('http/1.1'), log, { expectedStatus: 200, protocol: 'h2' })).toThrow(
      'h2load spoke http/1.1 where h2 was asked',
    );
  });
});
